"""Languages in the browser tests: which catalogs there are, and switching a page's language as a player would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

WEB = Path(__file__).resolve().parents[2] / "web"
#: Every catalog present (web/i18n/<lang>.json): a new language is swept the moment its file is added.
LANGUAGES = sorted(p.stem for p in (WEB / "i18n").glob("*.json"))
#: The languages swept beyond English and French, at the smallest sizes only (German runs ~30 % longer).
MORE_LANGUAGES = [lang for lang in LANGUAGES if lang not in ("en", "fr")]


def pick_language(page: Any, lang: str) -> None:
    """Pick `lang` in the page's language picker (the top bar's <select id="lang">), even where the page hides it
    (in play the phone keeps it in the help sheet), and wait until the page speaks it."""
    page.evaluate(
        """(lang) => { const s = document.getElementById('lang'); s.value = lang;
                      s.dispatchEvent(new Event('change', { bubbles: true })); }""",
        lang,
    )
    page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)
