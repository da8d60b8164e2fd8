"""The word catalogs over HTTP and the table's language: the host lists the catalogs it finds, serves each one
(or some of its groups), and ``settings.language`` accepts exactly those (docs/protocol.md)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"
PRESENT = sorted(p.stem for p in (WEB / "i18n").glob("*.json"))


def get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            assert resp.headers["Content-Type"].startswith("application/json")
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as error:
        return error.code, None


def test_the_languages_are_the_catalogs_present(live_server) -> None:
    status, languages = get(f"{live_server.url}/i18n/languages.json")
    assert status == 200
    assert [x["code"] for x in languages] == PRESENT
    assert {"code": "fr", "name": "Français"} in languages and {"code": "en", "name": "English"} in languages
    assert sorted(live_server.table.host.languages) == PRESENT


def test_a_catalog_whole_or_the_groups_a_page_asks_for(live_server) -> None:
    status, whole = get(f"{live_server.url}/i18n/fr.json")
    assert status == 200 and whole == json.loads((WEB / "i18n" / "fr.json").read_text(encoding="utf-8"))
    status, groups = get(f"{live_server.url}/i18n/fr.json?groups=common,phone,phone_later,coach,screen,attract,rules")
    assert status == 200 and set(groups) == set(whole)
    assert "notes" not in groups["_meta"]  # the translators' part stays in the file
    status, part = get(f"{live_server.url}/i18n/fr.json?groups=common,phone")
    assert status == 200 and set(part) == {"_meta", "common", "phone"}
    assert part["phone"]["connecting"] == "Connexion…"
    status, pseudo = get(f"{live_server.url}/i18n/pseudo.json?groups=phone")
    assert status == 200 and pseudo["phone"]["connecting"] == "⟦Connecting…⟧"
    for code in ("zz", "EN", "..%2Fen", "e"):
        assert get(f"{live_server.url}/i18n/{code}.json")[0] == 404, code


@pytest.mark.parametrize("language", PRESENT)
def test_settings_language_accepts_each_catalog_present(live_server, language: str) -> None:
    screen = live_server.screen()
    assert screen.host("settings", language=language)["type"] == "ok"
    screen.wait_state(lambda v: screen.state["table"]["settings"]["language"] == language)


def test_settings_language_refuses_a_language_with_no_catalog_and_null_clears_it(live_server) -> None:
    screen = live_server.screen()
    for bad in ("zz", "EN", "english", 3, ""):
        reply = screen.host("settings", language=bad)
        assert reply["type"] == "error" and reply["code"] == "bad_field", (bad, reply)
    assert screen.host("settings", language="fr")["type"] == "ok"
    assert screen.host("settings", language=None)["type"] == "ok"
    screen.wait_state(lambda v: screen.state["table"]["settings"]["language"] is None)
