"""The word catalogs of the pages, ``web/i18n/<lang>.json``: which languages there are, and the parts a page asks for.

A language is one file (``docs/translating.md``): the host lists the catalogs it finds, so the pickers, the
``settings.language`` check and ``--language`` know a new one without code. Pages read the words in JSON; the
phone asks only for the groups it shows (``?groups=common,phone``) to keep its page light. ``pseudo`` is no
file: it is English with every string wrapped in ``⟦…⟧``, for finding words the catalogs miss.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

#: A catalog's file name without ``.json``: an ISO 639 code.
LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}$")
#: The test language: every string of English, wrapped.
PSEUDO = "pseudo"
#: The part of ``_meta`` a page uses; the rest is for translators.
META_FOR_PAGES = ("filters",)


def catalog_dir(web_dir: Path) -> Path:
    """Where the catalogs are."""
    return web_dir / "i18n"


def languages(web_dir: Path) -> dict[str, str]:
    """Every catalog present, code → the language's own name (``{"en": "English", "fr": "Français"}``), by code."""
    found: dict[str, str] = {}
    for path in sorted(catalog_dir(web_dir).glob("*.json")):
        if not LANGUAGE_CODE.match(path.stem):
            continue
        try:
            meta = json.loads(path.read_bytes())["_meta"]
            found[path.stem] = str(meta.get("name") or path.stem)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue  # a broken catalog is no language (the catalog test says why)
    return found


def present() -> dict[str, str]:
    """:func:`languages` of the pages this host serves by default (none when it has no pages)."""
    from .app import WEB_DIR  # the app imports the table, which asks this: import when asked

    return languages(WEB_DIR) if WEB_DIR is not None else {}


def _wrap(value: Any) -> Any:
    if isinstance(value, str):
        return f"⟦{value}⟧"
    if isinstance(value, dict):
        return {k: _wrap(v) for k, v in value.items()}
    return value


def catalog(web_dir: Path, lang: str, groups: list[str] | None = None) -> dict[str, Any] | None:
    """The catalog of ``lang`` (``None`` when there is none), only ``groups`` of it when given, with the part of
    ``_meta`` pages use. ``pseudo`` is English wrapped."""
    source = "en" if lang == PSEUDO else lang
    if not LANGUAGE_CODE.match(source):
        return None
    try:
        whole = json.loads((catalog_dir(web_dir) / f"{source}.json").read_bytes())
    except (OSError, ValueError):
        return None
    if source != "en":  # a key this catalog lacks is said in English (the catalog test keeps that rare)
        english = catalog(web_dir, "en") or {}
        whole = {g: {**v, **whole.get(g, {})} if g != "_meta" else whole.get(g, {}) for g, v in english.items()}
    meta = {k: whole["_meta"][k] for k in META_FOR_PAGES if whole.get("_meta", {}).get(k)}
    body = {g: v for g, v in whole.items() if g != "_meta" and (groups is None or g in groups)}
    if lang == PSEUDO:
        body = {g: _wrap(v) for g, v in body.items()}
    return {"_meta": meta, **body}
