"""The words of both pages, as a first-timer reads them: every text in both languages, the calls spelt the way
each language writes them ("Quatro!" in English, "Quatro !" in French), and French team names that agree with
"équipe" (l'équipe verte, not l'équipe Vert).

The keys are read from the text modules' source (web/phone/strings.js, web/screen/strings.js); each text is then
drawn by the module itself in a real browser, with sample values for its placeholders.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .teach_helpers import static_server

WEB = Path(__file__).resolve().parents[2] / "web"
#: Where each page's words are, per language: the phone's in words modules (loaded one language at a time), the
#: screen's in one module with both dictionaries.
SOURCES = {
    "phone": {
        lang: [WEB / "phone" / f"words-{lang}.js", WEB / "phone" / f"words-later-{lang}.js"] for lang in ("en", "fr")
    },
    "screen": {lang: [WEB / "screen" / "strings.js"] for lang in ("en", "fr")},
}


def object_keys(source: str, start: int) -> list[str]:
    """The keys at the top level of the JS object literal whose ``{`` is at ``start``."""
    keys: list[str] = []
    depth = 0
    i = start
    expect_key = False
    while i < len(source):
        ch = source[i]
        if ch in "'\"`":
            # skip a string or template literal (templates may nest ${…} with strings; their braces balance)
            quote, i = ch, i + 1
            while i < len(source) and source[i] != quote:
                if source[i] == "\\":
                    i += 1
                elif quote == "`" and source.startswith("${", i):
                    inner = 1
                    i += 2
                    while inner:
                        inner += {"{": 1, "}": -1}.get(source[i], 0)
                        i += 1
                    continue
                i += 1
        elif ch in "{([":
            depth += 1
            expect_key = depth == 1
        elif ch in "})]":
            depth -= 1
            if depth == 0:
                return keys
        elif ch == "," and depth == 1:
            expect_key = True
        elif expect_key and depth == 1 and not ch.isspace():
            match = re.match(r"(\w+)\s*:", source[i:])
            if match:
                keys.append(match.group(1))
                i += match.end() - 1
            expect_key = False
        i += 1
    raise AssertionError("unbalanced object literal")


def dictionaries(module: str) -> dict[str, list[str]]:
    """The keys of each language's dictionaries of a page, read from their source."""
    found: dict[str, list[str]] = {}
    for lang, paths in SOURCES[module].items():
        found[lang] = []
        for path in paths:
            source = path.read_text(encoding="utf-8")
            match = re.search(rf"(?:const {lang} = |\b{lang}: |export default )\{{", source)
            assert match, f"no {lang} dictionary in {path.name}"
            found[lang] += object_keys(source, match.end() - 1)
    return found


def test_the_key_reader_reads_keys_not_words() -> None:
    src = "const en = { a: 'x: y, z: w', b: ({ n }) => `${n > 1 ? 's' : ''}: q`, c: { d: 1 }, e: 'f' };"
    assert object_keys(src, src.index("{")) == ["a", "b", "c", "e"]


@pytest.mark.parametrize("module", sorted(SOURCES))
def test_every_text_exists_in_both_languages(module: str) -> None:
    found = dictionaries(module)
    assert len(found["en"]) > 40, found["en"]
    assert sorted(set(found["en"]) - set(found["fr"])) == [], "English only"
    assert sorted(set(found["fr"]) - set(found["en"])) == [], "French only"
    assert len(found["en"]) == len(set(found["en"])), "a key written twice"


RENDER = """async ([module, keys, lang]) => {
  const words = await import(module);
  const { t } = words;
  const { setLanguage } = await import('/common/i18n.js');
  if (words.loadWords) { await words.loadWords(lang); await words.loadLaterWords(lang); }
  const { teamLabel } = await import('/common/teams.js');
  setLanguage(lang);
  const out = {};
  for (let team = 0; team < 4; team++) {
    const label = teamLabel(team, lang);
    const vars = { team: label, teams: label, accused: label, target: 'Ana', caller: 'Bruno', name: 'Chloé',
      scorers: label, on: label, other: 'Ana', n: 2, m: 3, of: 4, s: 3, sign: '🦊', emoji: '🦊', call: 'Quatro',
      what: 'x', length: '3:00', names: 'Ana', f: 1.5, rank: 'K', card: 'K♠', score: 2, min: 10, holder: 'Chloé' };
    for (const key of keys) {
      let text;
      try { text = t(key, vars); } catch (e) { text = `THROWS ${e}`; }
      out[`${key}#${team}`] = String(text);
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def site():
    with static_server() as url:
        yield url


@pytest.mark.parametrize("module", sorted(SOURCES))
def test_calls_and_team_names_read_right_in_each_language(chromium, site, module: str) -> None:
    keys = dictionaries(module)["en"]
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(f"{site}/fixtures/coach.html")
        texts = {lang: page.evaluate(RENDER, [f"/{module}/strings.js", keys, lang]) for lang in ("en", "fr")}
        problems = []
        for lang, rendered in texts.items():
            for where, text in rendered.items():
                plain = re.sub(r"<[^>]+>", "", text).replace("\u00a0", " ").replace("\u202f", " ")
                if "THROWS" in text or re.search(r"\{\w+\}", plain):
                    problems.append(f"{lang} {where}: {text}")
                for call in ("Quatro", "Contre"):
                    if lang == "en" and re.search(rf"{call} !", plain):
                        problems.append(f"en {where}: '{call} !' (English writes '{call}!')")
                    if lang == "fr" and re.search(rf"{call}!", plain):
                        problems.append(f"fr {where}: '{call}!' (le français écrit '{call} !')")
                if lang == "fr" and re.search(r"[ÉéEe]quipe (Bleu|Vert)\b", plain):
                    problems.append(f"fr {where}: {plain} (l'équipe bleue, l'équipe verte)")
        assert not problems, "\n".join(sorted(set(problems)))
    finally:
        context.close()
