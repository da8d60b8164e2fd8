"""The rules live in the repository: the numbered reference tests cite, and the players' page the host serves.

``docs/rules.md`` (English) and ``docs/rules.fr.md`` (French) define R1 … R39; every test named after a rule
(``test_r16_…``) must cite one they define. ``web/rules.html`` is the players' version, served at ``/rules``
(``?lang=fr`` for French) in both languages. Nothing the repository needs lives outside it.
"""

from __future__ import annotations

import re
import subprocess
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Every language the reference is written in: ``rules.md`` is English, ``rules.<lang>.md`` the others.
DOCS = {
    "en": ROOT / "docs" / "rules.md",
    **{p.suffixes[0][1:]: p for p in sorted((ROOT / "docs").glob("rules.*.md"))},
}
#: The players' page of each language: web/rules.html (English), web/rules.<lang>.html (the others).
PAGES = {"en": ROOT / "web" / "rules.html"} | {
    p.name.split(".")[1]: p for p in sorted((ROOT / "web").glob("rules.*.html"))
}
RULE_COUNT = 39

#: A rule defined in the reference: a list item opening with the bold id, "- **R16** …".
DEFINED = re.compile(r"^- \*\*R(\d+)\*\*\s+\S", re.MULTILINE)
#: A test named after a rule: ``def test_r16_…`` (also ``async def``), in any file under tests/.
CITED = re.compile(r"\bdef (test_r(\d+)_\w*)")

#: The players' page explains these rules (each section says which with ``data-rules``); the reference is the rest.
PAGE_RULES = {2, 6, 7, 8, 10, 14, 15, 16, 17, 18, 20, 21, 22, 24, 26, 27, 28, 32, 34, 35}


def defined_ids(lang: str) -> list[int]:
    return [int(n) for n in DEFINED.findall(DOCS[lang].read_text(encoding="utf-8"))]


def cited_by_tests() -> dict[int, list[str]]:
    cited: dict[int, list[str]] = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for name, number in CITED.findall(path.read_text(encoding="utf-8")):
            cited.setdefault(int(number), []).append(f"{path.relative_to(ROOT)}::{name}")
    return cited


@pytest.mark.parametrize("lang", sorted(DOCS))
def test_reference_defines_every_rule_once_in_order(lang: str) -> None:
    assert defined_ids(lang) == list(range(1, RULE_COUNT + 1))


@pytest.mark.parametrize("lang", sorted(DOCS))
def test_every_rule_a_test_cites_is_in_the_reference(lang: str) -> None:
    cited = cited_by_tests()
    assert len(cited) >= 30, "the rule-named tests were not found: did the naming scheme change?"
    missing = {n: names for n, names in cited.items() if n not in set(defined_ids(lang))}
    assert not missing, f"tests cite rules {DOCS[lang].name} does not define: {missing}"


def test_the_check_notices_an_undefined_rule() -> None:
    """The two patterns above really catch a test citing a rule the reference lacks (the check can fail)."""
    fake = "def " + "test_r40_nothing() -> None:"  # split, so that this file does not cite R40 itself
    assert CITED.findall(fake) == [("test_r40_nothing", "40")]
    assert 40 not in defined_ids("en")
    assert DEFINED.findall("- **R7** A carré is four cards.\n- R8 is not bold\n") == ["7"]


def figures(text: str) -> list[list[str]]:
    """Each rule's numbers (durations, counts, ids it refers to), sorted, rule by rule."""
    rules = re.split(r"^- \*\*R\d+\*\*", text, flags=re.MULTILINE)[1:]
    return [sorted(re.findall(r"(?<!\w)\d+", rule)) for rule in rules]


def test_every_language_is_found() -> None:
    assert {"en", "fr"} <= set(DOCS)


@pytest.mark.parametrize("lang", sorted(set(DOCS) - {"en"}))
def test_every_language_says_the_english_numbers(lang: str) -> None:
    """Each rule states the same figures in every language: a default changed in one file only shows here."""
    en, other = (figures(DOCS[code].read_text(encoding="utf-8")) for code in ("en", lang))
    assert len(en) == len(other) == RULE_COUNT
    for number, (a, b) in enumerate(zip(en, other, strict=True), start=1):
        assert a == b, f"R{number}: English says {a}, {lang} says {b}"


def tracked_markdown() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=False)
    files = [ROOT / line for line in out.stdout.split()] if out.returncode == 0 else []
    return files or sorted(p for p in ROOT.rglob("*.md") if ".venv" not in p.parts and "node_modules" not in p.parts)


def test_markdown_links_stay_inside_the_repository() -> None:
    """The README's rules link (and every other relative link of the docs) opens a file of this repository."""
    broken = []
    for md in tracked_markdown():
        if not md.exists():
            continue
        for target in re.findall(r"\]\(([^)\s]+)\)", md.read_text(encoding="utf-8")):
            if re.match(r"^[a-z]+:|^#", target):
                continue
            path = (md.parent / target.split("#")[0]).resolve()
            if ROOT.resolve() not in path.parents and path != ROOT.resolve() or not path.exists():
                broken.append(f"{md.relative_to(ROOT)} → {target}")
    assert not broken, broken
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/rules.md)" in readme and "](docs/rules.fr.md)" in readme
    assert "../shar" + "ed" not in readme  # in two parts, so that this file names no folder outside


def page_sections(html: str, lang: str) -> str:
    match = re.search(rf'<article[^>]*\blang="{lang}"[^>]*>(.*?)</article>', html, flags=re.DOTALL)
    assert match, f"no <article lang={lang!r}> in the rules page"
    return match.group(1)


@pytest.mark.parametrize("lang", sorted(PAGES))
def test_players_page_explains_the_rules_first_timers_miss(lang: str) -> None:
    article = page_sections(PAGES[lang].read_text(encoding="utf-8"), lang)
    covered = {int(n) for group in re.findall(r'data-rules="([^"]+)"', article) for n in re.findall(r"R(\d+)", group)}
    assert PAGE_RULES <= covered, f"not explained ({lang}): {sorted(PAGE_RULES - covered)}"
    text = re.sub(r"<[^>]+>", " ", article)
    # the durations are the rules' defaults, said as such
    if lang in ("en", "fr"):
        assert text.count("by default" if lang == "en" else "par défaut") >= 4
    # the calls keep their names in every language
    assert "Quatro" in text and "Contre" in text
    assert 'data-section="bots"' in article


def fetch(url: str) -> tuple[int, str, str]:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return resp.status, resp.headers.get("Content-Type", ""), resp.read().decode("utf-8")


@pytest.mark.parametrize(("query", "lang"), [("", "en"), ("?lang=en", "en"), ("?lang=fr", "fr"), ("?lang=xx", "en")])
def test_rules_page_is_served_in_each_language(live_server, query: str, lang: str) -> None:
    """``/rules`` serves the players' page of ``?lang=`` (English where there is none); its script lists the
    others and remembers the language."""
    status, ctype, html = fetch(f"{live_server.url}/rules{query}")
    assert status == 200 and ctype.startswith("text/html")
    assert "Quatro" in page_sections(html, lang) and "<article" not in html.split(f'<article lang="{lang}"')[1]
    assert '<script src="/rules.js">' in html
    status, ctype, script = fetch(f"{live_server.url}/rules.js")
    assert status == 200 and "URLSearchParams" in script and "/i18n/languages.json" in script


def test_rules_page_follows_the_browser_language_on_the_host(live_server) -> None:
    request = urllib.request.Request(f"{live_server.url}/rules", headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    with urllib.request.urlopen(request, timeout=10) as resp:
        assert '<article lang="fr"' in resp.read().decode("utf-8")
