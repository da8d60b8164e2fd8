"""Seat names that cannot pass for one another: no invisible characters, and a look-alike is a clash.

Two rules for the seat code:

* :func:`problem` refuses a name with a character nobody can see (Unicode's default-ignorable code
  points: zero-width spaces and joiners, bidi controls, the Hangul and half-width fillers, tag characters,
  variation selectors...; control, format, private-use, unassigned and surrogate code points; blank-looking
  symbols like U+2800), or one with nothing visible at all. A zero-width joiner or a variation selector is
  allowed where emoji need it (between / after a symbol: "👩‍💻", "❤️").
* :func:`keys` is what two names must differ in: not case, accents, spacing, width or font variants (NFKC),
  nor any look-alike of Unicode's confusables table (UTS #39: "AIex" with a capital i is "Alex", the Armenian
  "Օlga" is "Olga", the Cherokee "Ꭺna" and the Latin-alpha "ɑnɑ" are "Ana"). :func:`distinct` numbers a clashing
  name ("Ana 2") and keeps the number within the length limit, so the number that tells two names apart is
  never the part that is cut.
"""

from __future__ import annotations

import functools
import unicodedata
from importlib import resources

#: Default_Ignorable_Code_Point (Unicode 15 DerivedCoreProperties), as ranges, plus other blank-looking ones.
_INVISIBLE_RANGES = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
    # Not default-ignorable, but drawn as nothing: the braille blank.
    (0x2800, 0x2800),
)
_ZWJ, _VS15, _VS16, _KEYCAP = "\u200d", "\ufe0e", "\ufe0f", "\u20e3"
#: Categories that are never a visible part of a name.
_BAD_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: At most this many combining marks on one character ("Zalgo" text spills over its neighbours' lines).
MAX_MARKS = 2


def _invisible(c: str) -> bool:
    cp = ord(c)
    return any(lo <= cp <= hi for lo, hi in _INVISIBLE_RANGES)


def _emoji_like(c: str) -> bool:
    """A character an emoji sequence may join or select a presentation for (skin tones are "Sk")."""
    return unicodedata.category(c) in ("So", "Sk") or c in "#*0123456789" or c in (_KEYCAP, _VS16)


def problem(name: str) -> str | None:
    """Why ``name`` cannot be a seat's name, in a few words for the player; ``None`` when it can.

    Only the characters are looked at here (length and trimming are the seat code's).
    """
    marks = 0
    visible = False
    for i, c in enumerate(name):
        before = name[i - 1] if i else ""
        after = name[i + 1] if i + 1 < len(name) else ""
        if c == _ZWJ:
            if not (before and after and _emoji_like(before) and _emoji_like(after)):
                return "a name cannot hold invisible characters"
            continue
        if c in (_VS15, _VS16):
            if not before or not _emoji_like(before):
                return "a name cannot hold invisible characters"
            continue
        if _invisible(c) or unicodedata.category(c) in _BAD_CATEGORIES:
            return "a name cannot hold invisible characters"
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                return "too many accents on one letter"
            continue
        marks = 0
        if not c.isspace():
            visible = True
    if not visible:
        return "a name needs at least one visible letter or sign"
    return None


#: Unicode's own table of look-alikes (UTS #39 ``confusables.txt``, vendored unmodified beside its licence in
#: ``data/``): every character that can pass for another, mapped to one prototype ("I" and "1" to "l", the
#: Cyrillic "А" and the Cherokee "Ꭺ" to "A", "m" to "rn"). Thousands of pairs, kept by Unicode, not by hand.
CONFUSABLES_FILE = "confusables.txt"


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character of ``confusables.txt`` → its prototype (the ``MA`` table: one table for every script)."""
    raw = (resources.files(__package__) / "data" / CONFUSABLES_FILE).read_bytes().decode("utf-8-sig")
    table: dict[str, str] = {}
    for line in raw.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 3 or fields[2].strip() != "MA":
            continue
        source = "".join(chr(int(cp, 16)) for cp in fields[0].split())
        table[source] = "".join(chr(int(cp, 16)) for cp in fields[1].split())
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again. Two strings that look alike
    have the same skeleton (it keeps case: "I" looks like "l", not like "i").

    >>> skeleton("AIex") == skeleton("Alex"), skeleton("\u0555lga") == skeleton("Olga"), skeleton("rn") == skeleton("m")
    (True, True, True)
    """
    table = _prototypes()
    nfd = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in nfd))


def _visible(name: str) -> str:
    """``name`` in NFKC (width and font variants are one letter), without what cannot be seen."""
    text = unicodedata.normalize("NFKC", name)
    return "".join(c for c in text if not (_invisible(c) or c == _ZWJ or unicodedata.category(c) in _BAD_CATEGORIES))


def _folded(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text.casefold()) if not unicodedata.combining(c))


def _plain(text: str) -> str:
    """Case folded and accents dropped, look-alikes to their prototype (which may be a capital: folded again),
    spaces collapsed."""
    return " ".join(unicodedata.normalize("NFC", _folded(skeleton(_folded(text)))).split())


def keys(name: str) -> frozenset[str]:
    """What two seat names must differ in: two names that share a key would read the same on the TV.

    Two readings, because case and look-alikes cross: as written ("Ines" with a capital I reads "lnes"; Greek
    "Ν" reads "N") and case-blind ("INES" is "ines"). Each ignores case, accents, spacing, width and font
    variants, and every look-alike of Unicode's table.

    >>> keys("Chloé ") == keys("CHLOE") == keys("chloe"), bool(keys("\u0410na") & keys("Ana"))
    (True, True)
    >>> keys("Ana") & keys("Bob")
    frozenset()
    """
    text = _visible(name)
    return frozenset({_plain(skeleton(text)), _plain(text)})


def key(name: str) -> str:
    """One of :func:`keys` (the name as written, its look-alikes and case folded): a short stand-in for logs."""
    return _plain(skeleton(_visible(name)))


def same(a: str, b: str) -> bool:
    """Whether two names read the same (they share one of their :func:`keys`)."""
    return bool(keys(a) & keys(b))


def distinct(name: str, others: list[str], max_length: int) -> str:
    """``name`` (trimmed, its spaces collapsed), or numbered ("Ana 2", "Ana 3"...) when one of ``others`` reads
    the same (:func:`keys`). A numbered name is shortened first so that it fits in ``max_length`` with its number:
    a page that must cut a long name cuts its end, so the number goes first into the limit, never out of it.

    >>> distinct("ana", ["Ana", "Bot Ada"], 20), distinct("Аna", ["ÁNA", "ana 2"], 20)
    ('ana 2', 'Аna 3')
    """
    name = " ".join(name.split())
    taken: set[str] = set()
    for other in others:
        if other:
            taken |= keys(other)
    candidate, n = name, 1
    while keys(candidate) & taken:
        n += 1
        suffix = f" {n}"
        candidate = name[: max(1, max_length - len(suffix))].rstrip() + suffix
    return candidate
