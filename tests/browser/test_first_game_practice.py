"""A first-time table learns Quatro from the app itself, across the TV page and real phone pages of one real game
(tests/browser/test_first_game_*.py: the coach, the help sheet, the attract loop, the round's story and the recap,
the practice round).

A practice round scores nothing and says so in words, on the TV and the phone, and the game after it starts at
0–0 on every screen; the calls are written one way per language on both.

Screenshots: ``screenshots/qa-first-practice-*.png``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from quatro_party.server.botstub import StubBot

from .qa_helpers import (
    PUBLIC,
    open_panel,
    open_tv,
    ready_pages,
    socket_phone,
    start_on_tv,
    tv_shot,
)


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot, time_scale=0.5)
def test_a_practice_round_scores_nothing_and_the_game_after_it_starts_at_zero(
    live_server, tv_context, screenshot_dir, phone_page
):
    ana, bruno = phone_page(live_server, 0, "Ana"), socket_phone(live_server, 1, "Bruno")
    tv = open_tv(tv_context, live_server)
    open_panel(tv)
    tv.page.click("#panel .start-practice")
    tv.wait_phase("sign")
    view = bruno.wait_state(lambda v: v["phase"] == "sign")
    assert view["practice"] is True
    assert view["timing"]["round_length"] == pytest.approx(180 * 0.5 * 1.5)
    assert "Practice" in tv.text("#house")
    ready_pages([ana], [bruno])
    tv_shot(tv, screenshot_dir, "first-practice-play-tv")
    ana.shot(screenshot_dir, "first-practice-play-phone")
    assert bruno.act("call_contre", team=0)["type"] == "ok"  # a wrong Contre!: a point, in a real game
    tv.wait_phase("pause")
    expect(ana.page.locator("#screen-reveal .practice-tag")).to_be_visible()
    assert [t["score"] for t in live_server.summary()["view"]["teams"]] == [0, 0]
    tv_shot(tv, screenshot_dir, "first-practice-reveal-tv")
    ana.shot(screenshot_dir, "first-practice-reveal-phone")
    assert live_server.screen().host("next_round")["type"] == "ok"  # the pause cut short: back to the lobby
    tv.wait_phase("lobby")
    expect(ana.page.locator("#screen-wait")).to_be_visible()
    tv.page.click("#start-slot .start-game")
    view = bruno.wait_state(lambda v: v["phase"] == "sign" and not v["practice"])
    assert view["round"] == 1 and [t["score"] for t in view["teams"]] == [0, 0]
    assert view["timing"]["round_length"] == pytest.approx(180 * 0.5)
    tv.wait_phase("sign")
    assert [s.strip() for s in tv.page.locator(".score .points").all_inner_texts()] == ["0", "0"]
    expect(ana.page.locator("#screen-sign")).to_be_visible()
    assert [s.strip() for s in ana.page.locator("#scores").inner_text().split() if s.strip().isdigit()] == [
        "0",
        "0",
    ]
    tv_shot(tv, screenshot_dir, "first-practice-then-game-tv")
    assert tv.errors == [] and ana.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_calls_are_written_one_way_per_language_on_the_tv_and_the_phone(live_server, tv_context, phone_page):
    ana = phone_page(live_server, 0, "Ana")
    tv = open_tv(tv_context, live_server)
    start_on_tv(tv, [ana], [])
    calls = [ana.page.locator(f"#{b} .call-text").inner_text() for b in ("btn-quatro", "btn-contre")]
    assert calls == ["Quatro!", "Contre!"]  # the TV's English (web/screen/strings.js)


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_practice_rounds_reveal_says_in_words_that_nobody_scores(live_server, phone_page):
    ana, bruno = phone_page(live_server, 0, "Ana"), socket_phone(live_server, 1, "Bruno")
    assert live_server.screen().host("start_practice")["type"] == "ok"
    ready_pages([ana], [bruno])
    assert bruno.act("call_contre", team=0)["type"] == "ok"
    sentence = ana.page.locator("#result-sentence")
    expect(sentence).to_be_visible()
    said = sentence.inner_text().replace("\xa0", " ")
    assert not re.search(r"[.—]\s*scores\.", said), said
    assert "Practice: no point." in said, said


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_practice_rounds_reveal_on_the_tv_gives_no_point(live_server, tv_context):
    bruno = socket_phone(live_server, 1, "Bruno")
    tv = open_tv(tv_context, live_server)
    open_panel(tv)
    tv.page.click("#panel .start-practice")
    tv.wait_phase("sign")
    ready_pages([], [bruno])
    assert bruno.act("call_contre", team=0)["type"] == "ok"
    tv.wait_phase("pause")
    tv.wait("document.querySelector('#splash').hidden", timeout=8)
    said = tv.text("#centre .sentence").replace("\xa0", " ")
    assert "Contre!" in said and "+1" not in said, said
