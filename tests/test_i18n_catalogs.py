"""The word catalogs, ``web/i18n/<lang>.json``: every catalog says every sentence of the English one, with the same
placeholders, and the plural forms its language needs (docs/translating.md). Checked for every catalog present,
so a new language is checked the moment its file is added."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from quatro_party.server import catalogs

WEB = Path(__file__).resolve().parents[1] / "web"
CATALOGS = sorted(p.stem for p in (WEB / "i18n").glob("*.json"))
OTHERS = [lang for lang in CATALOGS if lang != "en"]
#: The CLDR plural categories a sentence with a count must have in each language (the counts the game shows are
#: whole numbers), and those it may have. French, Spanish and Italian also have "many" (1 000 000 and beyond,
#: CLDR 42+): optional, the lookup falls back to "other". A language not listed here fails until it is added.
PLURALS: dict[str, tuple[set[str], set[str]]] = {
    "en": ({"one", "other"}, set()),
    "de": ({"one", "other"}, set()),
    "fr": ({"one", "other"}, {"many"}),
    "es": ({"one", "other"}, {"many"}),
    "it": ({"one", "other"}, {"many"}),
}
PLACEHOLDER = re.compile(r"\{(\w+)(?:\|(\w+))?\}")
EXACT = re.compile(r"^=\d+$")


def load(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def sentences(catalog: dict[str, Any]) -> dict[str, str | dict[str, str]]:
    """Every sentence of a catalog as ``group.key``."""
    return {f"{g}.{k}": v for g, group in catalog.items() if g != "_meta" for k, v in group.items()}


def placeholders(sentence: str | dict[str, str]) -> set[str]:
    """The placeholder names of a sentence (of all its plural forms together), without their filters."""
    forms = sentence.values() if isinstance(sentence, dict) else [sentence]
    return {m.group(1) for form in forms for m in PLACEHOLDER.finditer(form)}


def test_the_reference_and_french_are_here() -> None:
    assert {"en", "fr"} <= set(CATALOGS)
    assert len(sentences(load("en"))) > 300


@pytest.mark.parametrize("lang", CATALOGS)
def test_a_catalog_names_its_language_and_is_listed(lang: str) -> None:
    meta = load(lang)["_meta"]
    assert meta["language"] == lang and meta["name"], meta
    assert catalogs.languages(WEB)[lang] == meta["name"]
    assert set(load(lang)) == set(load("en")), "the same groups as English"


@pytest.mark.parametrize("lang", OTHERS)
def test_every_key_of_english_and_no_other(lang: str) -> None:
    english, other = sentences(load("en")), sentences(load(lang))
    assert sorted(set(english) - set(other)) == [], f"{lang} lacks these"
    assert sorted(set(other) - set(english)) == [], f"{lang} has these, English does not"


@pytest.mark.parametrize("lang", OTHERS)
def test_the_same_placeholders_in_every_sentence(lang: str) -> None:
    english, other = sentences(load("en")), sentences(load(lang))
    wrong = {
        key: (sorted(placeholders(english[key])), sorted(placeholders(s)))
        for key, s in other.items()
        if key in english and placeholders(s) != placeholders(english[key])
    }
    assert wrong == {}, "key: (English's, this catalog's)"


@pytest.mark.parametrize("lang", CATALOGS)
def test_plural_forms_for_every_category_the_language_needs(lang: str) -> None:
    assert lang in PLURALS, f"say which plural categories {lang} needs (CLDR) in PLURALS"
    needed, optional = PLURALS[lang]
    english = sentences(load("en"))
    problems = []
    for key, s in sentences(load(lang)).items():
        if isinstance(s, dict):
            categories = {c for c in s if not EXACT.match(c)}
            if needed - categories or categories - needed - optional:
                problems.append(
                    f"{key}: has {sorted(categories)}, needs {sorted(needed)} (may have {sorted(optional)})"
                )
            if not all(isinstance(v, str) for v in s.values()):
                problems.append(f"{key}: a form that is no text")
        elif isinstance(english.get(key), dict) and len(needed) > 1:
            problems.append(f"{key}: a count decides this sentence in English; give its plural forms")
        elif not isinstance(s, str):
            problems.append(f"{key}: neither a text nor plural forms")
    assert problems == []


@pytest.mark.parametrize("lang", CATALOGS)
def test_every_filter_is_defined_and_well_formed(lang: str) -> None:
    catalog = load(lang)
    filters = catalog["_meta"].get("filters", {})
    for name, rules in filters.items():
        assert isinstance(rules, list) and rules, name
        for rule in rules:
            assert isinstance(rule, list) and len(rule) == 2 and all(isinstance(x, str) for x in rule), (name, rule)
            re.compile(rule[0])
    used = {
        m.group(2)
        for s in sentences(catalog).values()
        for form in (s.values() if isinstance(s, dict) else [s])
        for m in PLACEHOLDER.finditer(form)
        if m.group(2)
    }
    assert used <= set(filters), f"filters used but not defined: {sorted(used - set(filters))}"


def test_the_game_words_stay_the_game_words() -> None:
    """Quatro!, Contre! and carré are the game's own words in every language (the rules say so)."""
    for lang in CATALOGS:
        calls = load(lang)["attract"]
        assert calls["call_quatro"].replace("\u00a0", " ").rstrip("! ").lstrip("¡") == "Quatro", lang
        assert calls["call_contre"].replace("\u00a0", " ").rstrip("! ").lstrip("¡") == "Contre", lang


#: French sets a space before ``! ? : ; »`` and after ``«``. A plain one lets the sign wrap alone to the next line
#: ("… a annoncé Quatro" / "! — Ana avait un carré" on a 360-pixel phone); a no-break space holds it to its word.
LOOSE_FRENCH_SIGN = re.compile(r" [!?:;»]|« ")


def test_french_punctuation_never_starts_a_line() -> None:
    loose = {
        key: form
        for key, sentence in sentences(load("fr")).items()
        for form in (sentence.values() if isinstance(sentence, dict) else [sentence])
        if LOOSE_FRENCH_SIGN.search(form)
    }
    assert not loose, loose
    rules = re.sub(r"<[^>]*>", "", (WEB / "rules.fr.html").read_text(encoding="utf-8"))
    assert not LOOSE_FRENCH_SIGN.findall(rules), [line for line in rules.splitlines() if LOOSE_FRENCH_SIGN.search(line)]


def test_the_pseudo_language_wraps_every_sentence_of_english() -> None:
    pseudo = catalogs.catalog(WEB, catalogs.PSEUDO)
    assert pseudo is not None
    english = sentences(load("en"))
    for key, s in sentences(pseudo).items():
        forms = s.values() if isinstance(s, dict) else [s]
        assert all(f.startswith("⟦") and f.endswith("⟧") for f in forms), key
    assert set(sentences(pseudo)) == set(english)


def test_a_page_gets_only_the_groups_it_asks_for_with_english_for_a_missing_key(tmp_path: Path) -> None:
    (tmp_path / "i18n").mkdir()
    english = {"_meta": {"language": "en", "name": "English", "notes": {}}, "a": {"x": "X", "y": "Y"}, "b": {"z": "Z"}}
    other = {"_meta": {"language": "xx", "name": "Xx", "filters": {"f": [["^", "-"]]}}, "a": {"x": "x!"}, "b": {}}
    (tmp_path / "i18n" / "en.json").write_text(json.dumps(english), encoding="utf-8")
    (tmp_path / "i18n" / "xx.json").write_text(json.dumps(other), encoding="utf-8")
    (tmp_path / "i18n" / "broken.json").write_text("{", encoding="utf-8")
    assert catalogs.languages(tmp_path) == {"en": "English", "xx": "Xx"}
    assert catalogs.catalog(tmp_path, "xx", ["a"]) == {
        "_meta": {"filters": {"f": [["^", "-"]]}},
        "a": {"x": "x!", "y": "Y"},
    }
    assert catalogs.catalog(tmp_path, "en", ["b"]) == {"_meta": {}, "b": {"z": "Z"}}
    assert catalogs.catalog(tmp_path, "zz") is None
    assert catalogs.catalog(tmp_path, "../en") is None
