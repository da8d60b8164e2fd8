"""A host's evening across the TV page and real phone pages of one table (docs/protocol.md §2.2, §4.6, §4.7).

* The host pauses mid-round from the TV: the TV, two phone pages and the socket phones (a seated one and a
  spectator) all say "Paused by the host"; every clock stands still; Resume goes on from the same time (R32).
* A latecomer scans the TV's code while every seat is full (players and a bot), watches a round, then takes
  the bot's seat between rounds and gets that very hand, the one the engine holds (R33).
* The host ends a game from the TV and changes 4 → 6 seats on the same running host; the phones follow.
* Relaxed timers (×1.5, ×2) picked on the TV show the longer clock on the TV and on every phone.
* The VIP remote: the TV's QR code opens a phone page with host controls (it keeps its seat) that pauses the
  table; the host revokes it and the controls go at once.

Screenshots: ``screenshots/qa-evening-*.png``.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import expect

from quatro_party.server.botstub import StubBot

from .phone_helpers import decode_qr, seat_phones
from .qa_helpers import (
    CLOCK,
    PUBLIC,
    close_panel,
    decode_png,
    engine_hand,
    open_panel,
    open_tv,
    ready_pages,
    seconds,
    socket_phone,
    start_on_tv,
    tv_shot,
)

PAUSED = "Paused by the host"


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_r32_the_host_pauses_mid_round_on_the_tv_and_every_screen_shows_it(
    live_server, tv_context, screenshot_dir, phone_page
):
    ana, bruno = phone_page(live_server, 0, "Ana"), phone_page(live_server, 1, "Bruno")
    chloe = socket_phone(live_server, 2, "Chloé")  # seat 3: a bot
    tv = open_tv(tv_context, live_server)
    start_on_tv(tv, [ana, bruno], [chloe])
    tv.wait_phase("play")
    watcher = live_server.phone()
    assert watcher.act("watch")["type"] == "ok"
    # the clocks run first
    first = tv.text("#clock")
    tv.wait(f"document.querySelector('#clock').innerText.trim() !== {first!r}", timeout=5)

    open_panel(tv)
    tv.page.click("#panel .pause-game")
    tv.wait("!document.querySelector('#paused').hidden")
    close_panel(tv)
    assert tv.text(".paused-title") == PAUSED
    for p in (ana, bruno):
        expect(p.page.locator("#paused-bar")).to_have_text(PAUSED)
    for s in (chloe, watcher):
        assert s.wait_state(lambda v: v["paused"] is not None)["paused"] == {"by": "host"}
    frozen = live_server.summary()["view"]["clock"]
    clocks = (tv.text("#clock"), ana.clock(), bruno.clock())
    assert all(CLOCK.match(c) for c in clocks), clocks
    tv.page.wait_for_timeout(2200)  # more than two seconds of a 1:1 clock: nothing moves
    assert (tv.text("#clock"), ana.clock(), bruno.clock()) == clocks, "a clock ran while paused"
    assert live_server.summary()["view"]["clock"] == pytest.approx(frozen, abs=0.01)
    tv_shot(tv, screenshot_dir, "evening-paused-tv")
    ana.shot(screenshot_dir, "evening-paused-phone")
    # a paused table refuses what needs running time
    assert chloe.act("take_channel")["reason"] == "paused"

    resumed_by = time.monotonic()  # the clock cannot have run longer than since this instant
    tv.page.click("#paused .resume")
    tv.wait("document.querySelector('#paused').hidden")
    for p in (ana, bruno):
        expect(p.page.locator("#paused-bar")).to_be_hidden()
    assert chloe.wait_state(lambda v: v["paused"] is None)["phase"] == "play"
    # the clock goes on from where it stood, not from where it would be had it kept running: it has lost at most
    # the time since Resume (however slow a busy machine made the waits above), never the pause of > 2.2 s
    after = live_server.summary()["view"]["clock"]
    ran = time.monotonic() - resumed_by
    assert frozen - ran - 0.05 < after <= frozen + 0.01, (frozen, after, ran)
    tv.wait(f"document.querySelector('#clock').innerText.trim() !== {clocks[0]!r}", timeout=5)
    assert seconds(tv.text("#clock")) >= seconds(clocks[0]) - 3
    assert tv.errors == [] and ana.errors == [] and bruno.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_r33_a_latecomer_watches_a_full_table_then_takes_the_bots_seat_and_its_hand(
    live_server, tv_context, screenshot_dir, phone_page
):
    players = seat_phones(live_server, {0: "Ana", 1: "Bruno", 2: "Chloé"})
    tv = open_tv(tv_context, live_server)
    tv.page.click("#start-slot .start-game")  # seat 3 gets a bot: every seat is full
    tv.wait_phase("sign")
    bot_team = live_server.summary()["view"]["seats"][3]["team"]
    assert live_server.summary()["view"]["seats"][3]["kind"] == "bot"

    url = decode_qr(f"{live_server.url}/qr.png")  # what the latecomer's camera opens
    assert url == f"http://{PUBLIC}:{live_server.port}/"
    lea = phone_page(live_server, path="/")
    page = lea.page
    expect(page.locator("#btn-watch")).to_be_visible()
    expect(page.locator("#seat-list .seat.free")).to_have_count(0)  # mid-round: nothing to take
    page.fill("#name", "Léa")
    page.locator("#btn-watch").tap()
    expect(page.locator("#screen-watch")).to_be_visible()
    tv.wait("!document.querySelector('#watching').hidden")
    assert tv.text("#watching") == "👀 1 watching"
    for c in players.values():
        assert c.act("ready")["type"] == "ok"
    players[0].wait_state(lambda v: v["phase"] == "play")
    expect(page.locator("#watch-body .watch-centre .card")).to_have_count(4)
    lea.shot(screenshot_dir, "evening-latecomer-watching")
    tv_shot(tv, screenshot_dir, "evening-latecomer-tv-watching")
    # a spectator sees nothing private (R36): no hand, no sign, no token
    for f in lea.frames:
        msg = json.loads(f)
        if msg.get("type") == "state":
            assert msg["view"].get("you") is None
            assert msg["table"].get("role") == "spectator" or msg["table"].get("role") == "visitor"
        assert "token" not in msg
    assert players[1].act("call_contre", team=0)["type"] == "ok"  # the round ends
    expect(page.locator("#screen-reveal")).to_be_visible()
    seat3 = page.locator('#offer [data-seat="3"]')
    expect(seat3).to_be_visible()  # between rounds the bot's seat is offered
    lea.shot(screenshot_dir, "evening-latecomer-offered")
    seat3.tap()
    tv.wait("window.quatroScreen.view.seats[3].kind === 'human'")
    view = live_server.summary()["view"]
    assert view["seats"][3]["name"] == "Léa" and view["seats"][3]["team"] == bot_team
    assert tv.text('.seat[data-seat="3"] .name') == "Léa"
    tv.wait("document.querySelector('#watching').hidden")  # a player now, not a spectator
    assert live_server.screen().host("next_round")["type"] == "ok"
    ready_pages([lea], list(players.values()), rnd=2)
    expect(page.locator("#hand .card .rank")).to_have_text(engine_hand(live_server, 3))
    lea.shot(screenshot_dir, "evening-latecomer-playing")
    assert tv.errors == [] and lea.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_host_ends_the_game_on_the_tv_and_changes_four_to_six_seats_without_a_restart(
    live_server, tv_context, screenshot_dir, phone_page
):
    ana, bruno = phone_page(live_server, 0, "Ana"), socket_phone(live_server, 1, "Bruno")
    tv = open_tv(tv_context, live_server)
    port, table = live_server.port, live_server.table
    start_on_tv(tv, [ana], [bruno])
    tv.wait_phase("play")
    open_panel(tv)
    tv.page.click("#panel .end-game")
    assert tv.text(".confirm-text").startswith("End the game now?")
    tv.page.click("#panel .confirm-yes")
    tv.wait_phase("over")
    expect(ana.page.locator("#screen-over")).to_be_visible()
    assert [t["score"] for t in bruno.wait_state(lambda v: v["phase"] == "over")["teams"]] == [0, 0]
    ana.shot(screenshot_dir, "evening-ended-phone")
    tv.at_rest(0.6)
    tv_shot(tv, screenshot_dir, "evening-ended-tv")
    open_panel(tv)
    assert tv.page.locator("#panel .seats .seats-4.on").count() == 1
    tv.page.click("#panel .seats-6")
    tv.wait("document.querySelectorAll('.seat').length === 6")
    tv.wait("document.querySelector('#panel .seats .seats-6.on') !== null")
    tv_shot(tv, screenshot_dir, "evening-six-seats-panel")
    close_panel(tv)
    view = live_server.summary()["view"]
    assert view["phase"] == "lobby" and view["seat_count"] == 6
    assert (live_server.port, live_server.table) == (port, table)  # the same host, no restart
    # the seated phones keep their seats and see the larger table
    assert [s["name"] for s in view["seats"][:2]] == ["Ana", "Bruno"]
    expect(ana.page.locator("#screen-wait")).to_be_visible()
    tv_shot(tv, screenshot_dir, "evening-six-seats-lobby")
    ana.shot(screenshot_dir, "evening-six-seats-phone")
    tv.page.click("#start-slot .start-game")
    expect(ana.page.locator("#screen-sign")).to_be_visible()
    assert bruno.wait_state(lambda v: v["phase"] == "sign")["seat_count"] == 6
    tv.wait_phase("sign")
    assert tv.page.locator(".seat").count() == 6
    tv_shot(tv, screenshot_dir, "evening-six-seats-sign")
    assert tv.errors == [] and ana.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
@pytest.mark.parametrize(("factor", "button", "round_s"), [(1.5, "timer-1-5", 270), (2, "timer-2", 360)])
def test_relaxed_timers_from_the_tv_show_the_longer_clock_on_every_screen(
    live_server, tv_context, screenshot_dir, phone_page, factor, button, round_s
):
    ana, bruno = phone_page(live_server, 0, "Ana"), phone_page(live_server, 1, "Bruno", lang="fr")
    chloe = socket_phone(live_server, 2, "Chloé")
    tv = open_tv(tv_context, live_server)
    open_panel(tv)
    tv.page.click(f"#panel .{button}")
    tv.wait(f"document.querySelector('#panel .timer-factor .{button}.on') !== null")
    close_panel(tv)
    tv.page.click("#start-slot .start-game")
    timing = chloe.wait_state(lambda v: v["phase"] == "sign")["timing"]
    assert timing["round_length"] == pytest.approx(180 * factor)
    # the sign phase is longer too, on the TV and on the phones
    ready_pages([ana, bruno], [chloe])
    tv.wait_phase("play")
    for where, clock in (("tv", tv.text("#clock")), ("en", ana.clock()), ("fr", bruno.clock())):
        assert CLOCK.match(clock), (where, clock)
        assert round_s - 8 <= seconds(clock) <= round_s, (where, clock)  # not the rule's 3:00
    assert "×" in tv.text("#house")
    tv_shot(tv, screenshot_dir, f"evening-relaxed-{button}-tv")
    ana.shot(screenshot_dir, f"evening-relaxed-{button}-phone")
    bruno.shot(screenshot_dir, f"evening-relaxed-{button}-phone-fr")
    assert tv.errors == [] and ana.errors == [] and bruno.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_vip_remote_from_the_tvs_code_pauses_the_table_and_revoking_stops_it_at_once(
    live_server, tv_context, screenshot_dir, phone_page
):
    ana, bruno = phone_page(live_server, 0, "Ana"), phone_page(live_server, 1, "Bruno")
    tv = open_tv(tv_context, live_server)
    start_on_tv(tv, [ana, bruno], [])
    tv.wait_phase("play")
    open_panel(tv)
    tv.page.click("#panel .vip-link")
    tv.wait("document.querySelector('#panel .vip-qr svg') !== null")
    tv_shot(tv, screenshot_dir, "evening-vip-qr-tv")
    link = decode_png(tv.page.locator("#panel .vip-qr").screenshot())
    assert re.fullmatch(rf"http://{PUBLIC}:{live_server.port}/\?vip=\S+", link), link
    secret = link.split("vip=", 1)[1]
    assert secret not in "".join(ana.frames + bruno.frames)  # only the TV ever had it
    close_panel(tv)

    ana.page.goto(link)  # Ana's phone scans the TV: it keeps its seat and gets the host's controls
    expect(ana.page.locator("#screen-play")).to_be_visible()
    expect(ana.page.locator("#host-bar")).to_be_visible()
    expect(bruno.page.locator("#host-bar")).to_be_hidden()
    assert live_server.summary()["view"]["seats"][0]["name"] == "Ana"
    ana.shot(screenshot_dir, "evening-vip-phone")
    ana.page.locator('#host-bar [data-host="pause"]').tap()
    tv.wait("!document.querySelector('#paused').hidden")
    assert tv.text(".paused-title") == PAUSED
    for p in (ana, bruno):
        expect(p.page.locator("#paused-bar")).to_have_text(PAUSED)
    ana.shot(screenshot_dir, "evening-vip-paused-phone")
    tv_shot(tv, screenshot_dir, "evening-vip-paused-tv")
    ana.page.locator('#host-bar [data-host="resume"]').tap()
    tv.wait("document.querySelector('#paused').hidden")

    open_panel(tv)
    tv.page.click("#panel .vip-revoke")
    expect(ana.page.locator("#host-bar")).to_be_hidden()  # at once, without a reload
    close_panel(tv)
    # the old link is dead: a socket that brings it gets bad_vip and no host right
    stale = live_server.phone(hello=False)
    stale.send({"type": "hello", "token": None, "vip": secret})
    assert stale.expect("error")["code"] == "bad_vip"
    assert stale.act("pause")["code"] == "not_host"
    assert live_server.summary()["view"]["paused"] is None
    assert tv.errors == [] and ana.errors == [] and bruno.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_lobby_plate_buttons_say_what_they_do(live_server, tv_context):
    socket_phone(live_server, 0, "Ana")
    tv = open_tv(tv_context, live_server)
    tv.wait("document.querySelector('.seat[data-seat=\"0\"] .free-seat') !== null")
    labels = tv.page.locator('.seat[data-seat="0"] button').all_inner_texts()
    assert labels and not {"Free", "Move"} & {s.strip() for s in labels}, labels
