"""Look-alike names are numbered from Unicode's own confusables table (UTS #39), not from a hand list.

The table is Unicode's ``confusables.txt``, vendored unmodified in ``quatro_party/server/data/`` beside its
licence: these tests say it is that file (its header, its own count, every character named as the Unicode
Character Database names it, its bytes pinned), and that the look-alikes an attack pass seated unnumbered beside
their originals are numbered now, over real sockets.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from importlib import resources

import pytest

from quatro_party.engine.game import MAX_NAME_LENGTH
from quatro_party.server.names import CONFUSABLES_FILE, _prototypes, distinct, keys, same, skeleton

#: Unicode 13.0.0's confusables.txt as published by Unicode, Inc. (2020-02-13). A new version of the table is a
#: deliberate change: replace the file with Unicode's, and this pin with its SHA-256.
CONFUSABLES_SHA256 = "96f2500ec78fd96f11561d4b40237435dfece70303b1db3c0974138a333aa206"

#: Six look-alikes that an attack pass seated unnumbered beside the name they imitate (of 25 tried).
LOOK_ALIKES = [
    ("Alex", "AIex"),  # a capital i for the l
    ("Ines", "lnes"),  # a small L for the capital i
    ("Olga", "\u0555lga"),  # Armenian capital OH
    ("ANA", "\u13aaNA"),  # Cherokee A
    ("Ana", "\u13aana"),  # Cherokee A
    ("ana", "\u0251n\u0251"),  # Latin alpha
]


def _name(c: str) -> str:
    """A character's name as the file writes it (a control character has none: its alias, in angle brackets)."""
    return unicodedata.name(c, "") or {"\t": "<CHARACTER TABULATION>"}[c]


def _data() -> bytes:
    return (resources.files("quatro_party.server") / "data" / CONFUSABLES_FILE).read_bytes()


def test_the_table_is_unicodes_confusables_file_unmodified_with_its_licence():
    data = _data()
    text = data.decode("utf-8-sig")
    head = text[:600]
    assert "# confusables.txt" in head and "Unicode Security Mechanisms for UTS #39" in head
    assert re.search(r"# Version: 13\.0\.0", head) and "© 2020 Unicode®, Inc." in head
    lines = [line for line in text.splitlines() if re.match(r"[0-9A-F]{4,6} ;", line)]
    total = int(re.search(r"# total: (\d+)", text).group(1))
    assert len(lines) == total == len(_prototypes())  # the file's own count: nothing cut, nothing added
    # Every entry names its two sides as the Unicode Character Database does: no hand-made line.
    for line in lines:
        fields, comment = line.split("#", 1)
        source, target = ("".join(chr(int(cp, 16)) for cp in part.split()) for part in fields.split(";")[:2])
        named = comment.split("\t#")[0].rpartition(") ")[2].strip()  # Unicode names hold no parenthesis
        assert named == " → ".join(", ".join(_name(c) for c in side) for side in (source, target)), line
    assert hashlib.sha256(data).hexdigest() == CONFUSABLES_SHA256
    licence = (resources.files("quatro_party.server") / "data" / "UNICODE-LICENSE.txt").read_text("utf-8")
    assert "UNICODE, INC. LICENSE AGREEMENT - DATA FILES AND SOFTWARE" in licence and CONFUSABLES_FILE in licence


def test_the_skeleton_is_uts_39s():
    assert skeleton("AIex") == skeleton("Alex") != skeleton("alex")  # it keeps case: a capital i reads "l"
    assert skeleton("m") == skeleton("rn") and skeleton("0") == skeleton("O")
    assert skeleton("\u0410\u0412\u0421") == "ABC"  # Cyrillic capitals
    assert skeleton("Bob") == "Bob"


@pytest.mark.parametrize(("original", "look_alike"), LOOK_ALIKES)
def test_look_alikes_of_every_script_clash_with_their_original(original, look_alike):
    assert same(original, look_alike)
    assert distinct(look_alike, [original], MAX_NAME_LENGTH) == f"{look_alike} 2"


@pytest.mark.parametrize(
    ("a", "b"), [("Ines", "INES"), ("Chloé", "CHLOE"), ("\u03bdera", "vera"), ("ΑΝΑ", "ana"), ("Ana", "ＡＮＡ")]
)
def test_case_accents_width_and_greek_still_clash(a, b):
    assert same(a, b)


@pytest.mark.parametrize(("a", "b"), [("Eva", "Ena"), ("Ana", "Anna"), ("Léa", "Lia"), ("Bob", "Rob")])
def test_names_that_only_resemble_each_other_stay_unnumbered(a, b):
    assert not keys(a) & keys(b)


def test_the_six_look_alikes_get_numbered_at_a_real_table(live_server_factory):
    server = live_server_factory(seats=8)
    screen = server.screen()
    granted = []
    for seat, (original, look_alike) in enumerate(LOOK_ALIKES[:4]):
        first, second = server.phone(), server.phone()
        assert first.join(2 * seat, original)["name"] == original
        granted.append(second.join(2 * seat + 1, look_alike)["name"])
    assert granted == [f"{look_alike} 2" for _, look_alike in LOOK_ALIKES[:4]]
    # The Cherokee and Latin-alpha "Ana"s against a table that already has an "Ana" (another table: 8 seats).
    other = live_server_factory(seats=4)
    other.phone().join(0, "Ana")
    names = [other.phone().join(seat, name)["name"] for seat, name in ((1, "\u13aana"), (2, "\u0251n\u0251"))]
    assert names == ["\u13aana 2", "\u0251n\u0251 3"]
    view = screen.wait_state(lambda v: sum(s["kind"] == "human" for s in v["seats"]) == 8)
    assert [s["name"] for s in view["seats"]][1::2] == granted
