"""The words of both pages, as a first-timer reads them: every text of every catalog drawn by the pages' own lookup
(common/i18n.js) with sample values, the calls spelt the way each language writes them ("Quatro!" in English,
"Quatro !" in French), and French team names that agree with "équipe" (l'équipe verte, not l'équipe Vert).

The keys are the English catalog's (web/i18n/en.json); tests/test_i18n_catalogs.py checks that the others have
the same.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .teach_helpers import static_server

WEB = Path(__file__).resolve().parents[2] / "web"
ENGLISH = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
LANGUAGES = sorted(p.stem for p in (WEB / "i18n").glob("*.json"))
#: Each page's lookup: the groups it reads, in its order.
PAGES = {"phone": ["phone", "phone_later", "common"], "screen": ["screen", "common"], "coach": ["coach"],
         "attract": ["attract"]}  # fmt: skip
#: The sentences whose {team} is the colour as it reads after the word team (_meta.notes.teams).
AFTER_TEAM = {"sit_here_label", "team", "res_contre"}


def test_every_page_has_words() -> None:
    for groups in PAGES.values():
        assert len([k for g in groups for k in ENGLISH[g]]) > 10, groups


RENDER = """async ([groups, keys, lang, after]) => {
  const i18n = await import('/common/i18n.js');
  await i18n.startLanguage(groups);
  await i18n.setLanguage(lang, { pick: false });
  const t = i18n.translator(groups);
  const { teamLabel } = await import('/common/teams.js');
  const out = {};
  for (let team = 0; team < 4; team++) {
    for (const n of [0, 1, 2, 5]) {
      const label = teamLabel(team);
      const vars = { team: label, teams: label, accused: label, target: 'Ana', caller: 'Bruno', name: 'Chloé',
        scorers: label, on: label, other: 'Ana', n, m: 3, of: 4, s: 3, sign: '🦊', emoji: '🦊', call: 'Quatro',
        what: 'x', length: '3:00', names: 'Ana', f: 1.5, rank: 'K', card: 'K♠', score: 2, min: 10, holder: 'Chloé',
        a: 'Ana', b: 'Bruno', c: 'Chloé', d: 'Dev', period: 2.5, t: 1.5, seconds: 1.5, round: 2, who: 'Chloé (#3)',
        line: 12, kept: 11, file: 'game.jsonl.damaged' };
      for (const key of keys) {
        let text;
        try { text = t(key, after.includes(key) ? { ...vars, team: teamLabel(team, true) } : vars); }
        catch (e) { text = `THROWS ${e}`; }
        out[`${key}#${team}#${n}`] = String(text);
      }
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def site():
    with static_server() as url:
        yield url


@pytest.mark.parametrize("page", sorted(PAGES))
def test_calls_and_team_names_read_right_in_each_language(chromium, site, page: str) -> None:
    keys = [k for g in PAGES[page] for k in ENGLISH[g]]
    context = chromium.new_context()
    try:
        tab = context.new_page()
        tab.goto(f"{site}/fixtures/coach.html")
        texts = {lang: tab.evaluate(RENDER, [PAGES[page], keys, lang, sorted(AFTER_TEAM)]) for lang in LANGUAGES}
        problems = []
        for lang, rendered in texts.items():
            for where, text in rendered.items():
                plain = re.sub(r"<[^>]+>", "", text).replace("\u00a0", " ").replace("\u202f", " ")
                if "THROWS" in text or re.search(r"\{\w+(\|\w+)?\}", plain):
                    problems.append(f"{lang} {where}: {text}")
                for call in ("Quatro", "Contre"):
                    if lang == "en" and re.search(rf"{call} !", plain):
                        problems.append(f"en {where}: '{call} !' (English writes '{call}!')")
                    if lang == "fr" and re.search(rf"{call}!", plain):
                        problems.append(f"fr {where}: '{call}!' (le français écrit '{call} !')")
                if lang == "fr" and re.search(r"[ÉéEe]quipe (Bleu|Vert)\b", plain):
                    problems.append(f"fr {where}: {plain} (l'équipe bleue, l'équipe verte)")
        assert not problems, "\n".join(sorted(set(problems))[:60])
    finally:
        context.close()
