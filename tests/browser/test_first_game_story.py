"""A first-time table learns Quatro from the app itself, across the TV page and real phone pages of one real game
(tests/browser/test_first_game_*.py: the coach, the help sheet, the attract loop, the round's story and the recap,
the practice round).

* The reveal's story at 4 and 8 seats, on the TV and on a phone page: exactly the round's emissions, each marked
  sign or decoy, as the server recorded them (R39: nothing of it before the round ends).
* Game over at 4 and 8 seats: the recap of every round and the awards, on the TV and on a phone page (R34); the
  TV's recap says each round in full, and its game-over card leaves the plates clear.

Screenshots: ``screenshots/qa-first-story-*.png``, ``screenshots/qa-first-over-*.png``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from quatro_party.server.botstub import StubBot

from .phone_helpers import hold
from .qa_helpers import (
    PUBLIC,
    emitted,
    open_tv,
    ready_pages,
    socket_phone,
    start_on_tv,
    tv_shot,
)
from .screen_helpers import recorded_marks, self_check, story_marks


@pytest.mark.parametrize("seats", [4, 8])
def test_r39_the_reveal_tells_the_story_on_the_tv_and_the_phone(
    live_server_factory, tv_context, screenshot_dir, phone_page, seats
):
    server = live_server_factory(seats=seats, public_host=PUBLIC, bot_factory=StubBot)
    ana, bruno = phone_page(server, 0, "Ana"), socket_phone(server, 1, "Bruno")
    tv = open_tv(tv_context, server)
    start_on_tv(tv, [ana], [bruno])
    playing = bruno.wait_state(lambda v: v["phase"] == "play" and v["you"]["sign"] is not None)
    sign = playing["you"]["sign"]
    decoy = next(e for e in playing["signs"] if e != sign)
    took = bruno.act("take_channel")
    assert took["type"] == "ok", took
    assert bruno.act("choose_emoji", emoji=decoy)["type"] == "ok"
    emitted(bruno, 1, decoy)
    assert bruno.act("choose_emoji", emoji=sign)["type"] == "ok"
    emitted(bruno, 1, sign)
    for f in tv.frames + ana.frames:  # R39: no story while the round runs
        assert '"story"' not in f
    ana_team = server.summary()["view"]["seats"][0]["team"]
    target = next(t["team"] for t in server.summary()["view"]["teams"] if t["team"] != ana_team)
    assert bruno.act("release_channel")["type"] in ("ok", "refused")
    # Ana calls Contre! on Bruno's team from her page (hold the button, pick the team when asked)
    hold(ana.page, "#btn-contre", 900)
    if server.summary()["view"]["seat_count"] > 4:  # teams to choose from: asked once the finger has lifted
        ana.page.locator(f'#modal [data-action="team-{target}"]').tap()
    tv.wait_phase("pause")
    story = server.summary()["view"]["result"]["story"]["events"]
    emits = [e for e in story if e["kind"] == "emit" and e["seat"] == 1]
    assert [(e["emoji"], e["sign"]) for e in emits][:2] == [(decoy, False), (sign, True)]
    assert any(e["kind"] == "call" and e["seat"] == 0 for e in story)
    tv.wait("document.querySelector('.story') !== null", timeout=15)
    assert sorted(story_marks(tv.page), key=str) == sorted(recorded_marks(story), key=str)
    assert tv.page.locator(".story-row").count() == seats
    tv.at_rest(0.6)
    tv_shot(tv, screenshot_dir, f"first-story-tv-{seats}")
    expect(ana.page.locator("#screen-reveal")).to_be_visible()
    phone_story = ana.page.locator("#story")
    if phone_story.locator("summary").count() and not phone_story.evaluate("e => e.open"):
        phone_story.locator("summary").first.tap()
    expect(phone_story.locator(".story-ev.ev-emit")).to_have_count(sum(1 for e in story if e["kind"] == "emit"))
    expect(phone_story.locator(".story-ev.ev-emit.decoy").first).to_contain_text(decoy)
    expect(phone_story.locator(".story-ev.ev-emit.sign").first).to_contain_text(sign)
    ana.shot(screenshot_dir, f"first-story-phone-{seats}")
    assert tv.errors == [] and ana.errors == []


def play_to_game_over(server, phone_page, tv_context, seats: int):
    """A game to 3 points at ``seats`` seats: Ana's page on seat 0 calls a right Quatro!, then Bruno's socket
    calls wrong Contres. Returns (Ana's page, the TV) at game over, the TV's story tab open."""
    ana, bruno = phone_page(server, 0, "Ana"), socket_phone(server, 1, "Bruno")
    host = server.screen()
    assert host.host("settings", winning_score=3)["type"] == "ok"
    tv = open_tv(tv_context, server)
    tv.page.click("#start-slot .start-game")
    carre = {4: "AQJT AQJT KKKK AQJT | AQJT", 8: "KKKQ QQJJ JJTT TT99 AAAA 9988 8877 7766 | 66KQ"}[seats]
    for rnd in range(1, 8):
        ready_pages([ana], [bruno], rnd)
        if rnd == 1:  # Ana's partner holds a carré: her right Quatro! (R22)
            server.table.set_position(carre)
            expect(ana.page.locator("#hand .card")).to_have_count(4)
            bruno.drain(0.2)
            hold(ana.page, "#btn-quatro", 900)
        else:  # then Bruno's wrong Contres (R24)
            bruno.act("call_contre", team=0)
        v = bruno.wait_state(lambda v, r=rnd: v["phase"] in ("pause", "over") and v["round"] == r)
        if v["phase"] == "over":
            break
        host.host("next_round")
    tv.wait_phase("over")
    tv.wait("document.querySelector('#splash').hidden", timeout=8)
    tv.page.click("#over .tab-story")
    tv.wait("document.querySelector('#over .recap') !== null")
    return ana, tv


@pytest.mark.parametrize("seats", [4, 8])
def test_r34_game_over_shows_the_recap_and_the_awards_on_the_tv_and_the_phone(
    live_server_factory, tv_context, screenshot_dir, phone_page, seats
):
    server = live_server_factory(seats=seats, public_host=PUBLIC, bot_factory=StubBot)
    ana, tv = play_to_game_over(server, phone_page, tv_context, seats)
    view = server.summary()["view"]
    assert view["recap"] and view["awards"]
    assert view["recap"][0]["how"] == "quatro_right"
    assert tv.page.locator(".recap-row").count() == len(view["recap"])
    assert tv.page.locator(".award").count() == len(view["awards"])
    assert "Ana’s right Quatro!" in tv.text(".recap")
    tv.at_rest(0.9)
    tv_shot(tv, screenshot_dir, f"first-over-tv-{seats}")
    expect(ana.page.locator("#screen-over")).to_be_visible()
    expect(ana.page.locator("#over-body .recap li")).to_have_count(len(view["recap"]))
    expect(ana.page.locator("#over-body .award")).to_have_count(len(view["awards"]))
    ana.shot(screenshot_dir, f"first-over-phone-{seats}")
    ana.page.screenshot(path=str(screenshot_dir / f"qa-first-over-phone-{seats}-full.png"), full_page=True)
    assert tv.errors == [] and ana.errors == []


def test_the_tvs_recap_says_each_round_in_full(live_server_factory, tv_context, phone_page):
    server = live_server_factory(seats=4, public_host=PUBLIC, bot_factory=StubBot)
    ana, tv = play_to_game_over(server, phone_page, tv_context, 4)
    cut = tv.page.evaluate(
        """() => [...document.querySelectorAll('#over .recap-row *')]
             .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)"""
    )
    assert cut == []


def test_the_tvs_game_over_card_leaves_the_plates_clear(live_server_factory, tv_context, phone_page):
    server = live_server_factory(seats=4, public_host=PUBLIC, bot_factory=StubBot)
    ana, tv = play_to_game_over(server, phone_page, tv_context, 4)
    tv.page.click("#over .tab-scores")
    tv.wait("document.querySelector('#over .final-scores') !== null")
    tv.at_rest(0.9)
    assert self_check(tv.page) == []
