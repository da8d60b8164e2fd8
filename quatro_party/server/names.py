"""Seat names that cannot pass for one another: no invisible characters, and a look-alike is a clash.

Two rules for the seat code:

* :func:`problem` refuses a name with a character nobody can see (Unicode's default-ignorable code
  points: zero-width spaces and joiners, bidi controls, the Hangul and half-width fillers, tag characters,
  variation selectors...; control, format, private-use, unassigned and surrogate code points; blank-looking
  symbols like U+2800), or one with nothing visible at all. A zero-width joiner or a variation selector is
  allowed where emoji need it (between / after a symbol: "👩‍💻", "❤️").
* :func:`key` is what two names must differ in: not case, accents, spacing, width or font variants (NFKC),
  nor a Cyrillic or Greek letter that looks like a Latin one ("Аna" with a Cyrillic А is "Ana"), nor the
  usual digit / letter look-alikes. :func:`distinct` numbers a clashing name ("Ana 2") and keeps the number
  within the length limit, so the number that tells two names apart is never the part that is cut.
"""

from __future__ import annotations

import unicodedata

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


#: Letters of other scripts that look like a Latin letter (after casefolding), and a few in-script look-alikes.
#: A compact table of the common Cyrillic and Greek ones (Unicode's confusables.txt has thousands).
_CONFUSABLES = {
    # Cyrillic (lower case; upper case is casefolded to these first)
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "ӏ": "l", "ү": "y", "һ": "h", "ɡ": "g", "ո": "n", "ս": "u", "г": "r", "п": "n",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "u", "ν": "v",
    "ο": "o", "ρ": "p", "ς": "c", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c",
    "ϳ": "j", "ϱ": "p",
    # Latin and symbols
    "ı": "i", "ȷ": "j", "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ŧ": "t", "ß": "ss", "æ": "ae", "œ": "oe",
    "0": "o", "1": "l", "|": "l",
}  # fmt: skip
#: Capitals of other scripts that look like a Latin capital, mapped before casefolding (Greek "Ν" folds to "ν",
#: which looks like a "v", while the capital itself reads "N").
_CAPITALS = {
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ԁ": "D", "Ү": "Y", "Һ": "H",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
}  # fmt: skip
#: Letter pairs that read as one letter in most fonts.
_DIGRAPHS = (("rn", "m"), ("vv", "w"))


def key(name: str) -> str:
    """What two seat names must differ in (two names with one key would read the same on the TV).

    >>> key("Chloé ") == key("CHLOE") == key("chloe"), key("Аna") == key("Ana"), key("Ana") == key("Bob")
    (True, True, False)
    """
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if not (_invisible(c) or c == _ZWJ or unicodedata.category(c) in _BAD_CATEGORIES))
    text = "".join(_CAPITALS.get(c, c) for c in text).casefold()
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = "".join(_CONFUSABLES.get(c, c) for c in text)
    text = unicodedata.normalize("NFKC", text)
    for pair, one in _DIGRAPHS:
        text = text.replace(pair, one)
    return " ".join(text.split())


def same(a: str, b: str) -> bool:
    """Whether two names read the same (:func:`key`)."""
    return key(a) == key(b)


def distinct(name: str, others: list[str], max_length: int) -> str:
    """``name`` (trimmed, its spaces collapsed), or numbered ("Ana 2", "Ana 3"...) when one of ``others`` reads
    the same (:func:`key`). A numbered name is shortened first so that it fits in ``max_length`` with its number:
    a page that must cut a long name cuts its end, so the number goes first into the limit, never out of it.

    >>> distinct("ana", ["Ana", "Bot Ada"], 20), distinct("Аna", ["ÁNA", "ana 2"], 20)
    ('ana 2', 'Аna 3')
    """
    name = " ".join(name.split())
    taken = {key(o) for o in others if o}
    candidate, n = name, 1
    while key(candidate) in taken:
        n += 1
        suffix = f" {n}"
        candidate = name[: max(1, max_length - len(suffix))].rstrip() + suffix
    return candidate
