"""Seat names: nothing invisible, and two names that read the same are told apart by a number that is never cut."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quatro_party.engine.game import MAX_NAME_LENGTH
from quatro_party.server.names import _prototypes, distinct, keys, problem
from quatro_party.server.origin import HostPolicy, is_loopback


@pytest.mark.parametrize(
    "name",
    [
        "Ana\u3164",  # a Hangul filler after the name
        "\u3164\u3164",  # a name made only of fillers
        "\u115f",
        "Ana\u200b",
        "\u200bAna",
        "A\u200dna",
        "Ana\u202e",  # bidi override
        "Ana\ufeff",
        "Ana\u00ad",
        "\u2800",
        "Ana\ufe0f",  # a variation selector on a letter
        "Ana\U000e0041",  # a tag character
        "Ana\ue000",  # private use
        "a\u0301\u0301\u0301",  # three accents on one letter
        "   ",
    ],
)
def test_invisible_characters_and_blank_names_are_refused(name):
    assert problem(name) is not None


@pytest.mark.parametrize("name", ["Ana", "Zoé 🦊", "👩‍💻 Lou", "❤️", "Jean-Baptiste", "José", "Ølaf", "山田", "#1"])
def test_ordinary_names_and_emoji_sequences_are_accepted(name):
    assert problem(name) is None


def test_look_alikes_clash_and_the_number_fits_in_the_limit():
    assert distinct("\u0410na", ["Ana"], MAX_NAME_LENGTH) == "\u0410na 2"  # a Cyrillic А
    assert distinct("ΑΝΑ", ["ana"], MAX_NAME_LENGTH) == "ΑΝΑ 2"  # Greek capitals
    assert distinct("Ana", ["ＡＮＡ"], MAX_NAME_LENGTH) == "Ana 2"  # full-width
    long = "Maximilien-Alexandre"
    numbered = distinct(long, [long], MAX_NAME_LENGTH)
    assert numbered.endswith(" 2") and len(numbered) <= MAX_NAME_LENGTH
    assert distinct("Bob", ["Ana"], MAX_NAME_LENGTH) == "Bob"


# Letters and their look-alikes from Unicode's table (Latin, Cyrillic, Greek, Armenian, Cherokee, digits...).
_LOOK_ALIKES = sorted(c for c, proto in _prototypes().items() if len(c) == 1 and proto.isascii() and proto.isalnum())
_LETTERS = "anobcehkmprstxyilANOBCEHKMPRTXYIL01 " + "".join(_LOOK_ALIKES[::7])
_TRAPS = ["\u3164", "\u200b", "\u200d", "\ufeff", "\u2800", "\u0301", "\ufe0f", "\u00a0", "\u3000", "ｎ", "🦊"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(st.sampled_from(list(_LETTERS) + _TRAPS), min_size=1, max_size=24), max_size=8))
def test_no_two_seated_names_render_the_same(wanted):
    seated: list[str] = []
    for name in wanted:
        name = name.strip()
        if not 1 <= len(name) <= MAX_NAME_LENGTH or problem(name) is not None:
            continue
        got = distinct(name, seated, MAX_NAME_LENGTH)
        assert len(got) <= MAX_NAME_LENGTH and problem(got) is None
        seated.append(got)
    for i, a in enumerate(seated):
        for b in seated[:i]:
            assert not keys(a) & keys(b), (a, b)


# --- the host names this host answers to ---------------------------------------------------------------


def test_only_the_join_urls_host_loopback_and_the_mdns_name_are_accepted():
    policy = HostPolicy(["http://192.168.1.20:8765/", "laptop.local"])
    for good in ["192.168.1.20:8765", "LAPTOP.local.:8765", "localhost:8765", "127.0.0.1:8765", "[::1]:8765"]:
        assert policy.host_ok(good), good
    for bad in ["evil.example:8765", "192.168.1.21:8765", "", None, "192.168.1.20:x", "a b", "x@192.168.1.20"]:
        assert not policy.host_ok(bad), bad
    assert policy.origin_ok("http://192.168.1.20:8765") and policy.origin_ok("http://localhost:8765")
    assert policy.origin_ok(None)  # not a web page
    for bad in ["http://evil.example", "null", "http://192.168.1.20.evil.example:8765", "file://", "ws://x"]:
        assert not policy.origin_ok(bad), bad
    assert is_loopback("127.3.4.5") and not is_loopback("10.0.0.1")
