"""The phone's side of a host's evening (docs/protocol.md §2.1, §4.6, §4.7): an audience, a latecomer who takes
over a bot's seat between rounds, the host's remote (VIP) that keeps its seat, "Paused by the host" on every
phone, a kicked or replaced player told in plain words; and the help sheet, the coach and the round's story.
Screenshots: ``screenshots/phone-evening-<state>.png``.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from .conftest import phone_url
from .phone_helpers import SEEN_EVERY_HINT, entered, everybody_ready, game_with_page, join_on_page, seat_phones, shot
from .qa_helpers import phone_context as new_phone_context


def quiet_coach(context) -> None:
    """A device that has seen every hint (the tests below that are not about the coach)."""
    context.add_init_script(SEEN_EVERY_HINT)


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
def test_a_latecomer_watches_a_round_then_takes_over_a_bots_seat(live_server, phone_context, screenshot_dir):
    quiet_coach(phone_context)
    players = seat_phones(live_server, {0: "Ana", 1: "Bruno", 2: "Chloé"})
    screen = live_server.screen()
    assert screen.host("start_game")["type"] == "ok"  # seat 3 gets a bot
    page = phone_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f if isinstance(f, str) else "")))
    page.goto(phone_url(live_server.port))
    expect(page.locator("#btn-watch")).to_be_visible()
    expect(page.locator("#seat-list .seat.free")).to_have_count(0)  # mid-round: no seat offered
    page.fill("#name", "Léa")
    page.locator("#btn-watch").tap()
    expect(page.locator("#screen-watch")).to_be_visible()
    expect(page.locator("#watching-tag")).to_contain_text("Watching")
    for c in players.values():
        assert c.act("ready")["type"] == "ok"
    expect(page.locator("#watch-body .watch-centre .card")).to_have_count(4)  # the public centre (R36)
    shot(page, screenshot_dir, "evening-watching")
    # A spectator's frames carry the public view only: no hand, no sign, no token.
    for f in frames:
        if f.startswith('{"type":"state"'):
            msg = json.loads(f)
            assert msg["view"].get("you") is None
            assert "token" not in f
    players[0].wait_state(lambda v: v["phase"] == "play")
    assert players[1].act("call_contre", team=0)["type"] == "ok"
    # The reveal with the round's story, then the bot's seat is offered between rounds.
    expect(page.locator("#screen-reveal")).to_be_visible()
    expect(page.locator("#result-sentence")).to_contain_text("Bruno called Contre!")
    expect(page.locator('#offer [data-seat="3"]')).to_be_visible()
    expect(page.locator('#offer [data-seat="3"]')).to_contain_text("bot — take over?")
    bot_name = live_server.summary()["view"]["seats"][3]["name"]
    assert bot_name
    expect(page.locator('#offer [data-seat="3"] .seat-name')).to_contain_text(bot_name)  # who you take over from
    shot(page, screenshot_dir, "evening-offered")
    page.locator('#offer [data-seat="3"]').tap()
    expect(page.locator(".score-row.mine")).to_be_visible()  # seated now: "your team" at the reveal
    assert screen.host("next_round")["type"] == "ok"
    expect(page.locator("#screen-sign")).to_be_visible()
    page.locator("#btn-ready").tap()
    for c in players.values():
        assert c.act("ready")["type"] == "ok"
    expect(page.locator("#screen-play")).to_be_visible()
    hand = live_server.table.call(lambda: [c.rank for c in live_server.table.game.seats[3].hand])
    expect(page.locator("#hand .card .rank")).to_have_text(hand)  # the bot's seat, and that hand
    seat3 = live_server.summary()["view"]["seats"][3]
    assert seat3["kind"] == "human" and seat3["name"] == "Léa"
    shot(page, screenshot_dir, "evening-took-over")
    assert errors == []


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
def test_the_vip_remote_pauses_every_phone_and_keeps_its_seat_kicked_players_are_told(
    live_server, chromium, screenshot_dir
):
    contexts = [new_phone_context(chromium) for _ in range(3)]  # devices that have seen every hint
    try:
        url = phone_url(live_server.port)
        ana, errors_a = join_on_page(contexts[0], url, 0, "Ana")
        bruno, errors_b = join_on_page(contexts[1], url, 1, "Bruno")
        chloe, errors_c = join_on_page(contexts[2], url, 2, "Chloé")
        dora = seat_phones(live_server, {3: "Dora"})[3]
        screen = live_server.screen()
        ref = screen.send({"type": "vip_link"})
        vip = screen.expect("vip_link")["url"]
        assert screen.reply(ref)["type"] == "ok"
        assert "?vip=" in vip and vip.startswith(f"http://party.test:{live_server.port}/")
        # Ana's phone opens the remote link: it keeps its seat, and the host controls appear.
        ana.goto(vip)
        expect(ana.locator("#screen-wait")).to_be_visible()
        expect(ana.locator("#host-bar")).to_be_visible()
        assert ana.evaluate("location.search") == ""  # the secret leaves the address bar
        expect(bruno.locator("#host-bar")).to_be_hidden()
        ana.locator('#host-bar [data-host="start_game"]').tap()
        for p in (ana, bruno, chloe):
            expect(p.locator("#screen-sign")).to_be_visible()
        ana.locator('#host-bar [data-host="pause"]').tap()
        for p in (ana, bruno, chloe):
            expect(p.locator("#paused-bar")).to_have_text("Paused by the host")
        assert dora.wait_state(lambda v: v["paused"] is not None)["paused"] == {"by": "host"}
        shot(bruno, screenshot_dir, "evening-paused")
        shot(ana, screenshot_dir, "evening-vip-paused")
        ana.locator('#host-bar [data-host="resume"]').tap()
        for p in (ana, bruno, chloe):
            expect(p.locator("#paused-bar")).to_be_hidden()
        # The host gives Bruno's seat away, and Chloé's to a bot: each is told why, in plain words.
        assert screen.host("kick", seat=1)["type"] == "ok"
        expect(bruno.locator("#screen-join")).to_be_visible()
        expect(bruno.locator("#kicked")).to_have_text(
            "The host gave your seat away. You can watch, or take a free seat."
        )
        shot(bruno, screenshot_dir, "evening-kicked")
        assert screen.host("replace_with_bot", seat=2)["type"] == "ok"
        expect(chloe.locator("#kicked")).to_contain_text("The host gave your seat to a bot")
        assert live_server.summary()["view"]["seats"][2]["kind"] == "bot"
        expect(ana.locator("#screen-sign")).to_be_visible()  # the remote is still a player in its seat
        # Every host button is whole on a small phone: the bar wraps into rows, it never scrolls sideways.
        for width, height in ((360, 640), (390, 844)):
            ana.set_viewport_size({"width": width, "height": height})
            buttons = ana.locator("#host-bar .btn")
            assert buttons.count() >= 4
            for i in range(buttons.count()):
                box = buttons.nth(i).bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (width, i, box)
                assert box["height"] >= 40
            assert ana.evaluate(
                "(() => { const b = document.getElementById('host-bar'); return b.scrollWidth <= b.clientWidth; })()"
            )
            shot(ana, screenshot_dir, f"evening-vip-bar-{width}x{height}")
        # Ending the game asks first (it sits next to Pause): Cancel keeps the round going.
        ana.locator('#host-bar [data-host="end_game"]').tap()
        expect(ana.locator("#modal")).to_be_visible()
        expect(ana.locator("#modal-text")).to_have_text("End the game now? The scores as they stand are final.")
        shot(ana, screenshot_dir, "evening-vip-end-confirm")
        ana.locator('#modal [data-action="cancel"]').tap()
        expect(ana.locator("#modal")).to_be_hidden()
        assert live_server.summary()["view"]["phase"] == "sign"
        ana.locator('#host-bar [data-host="end_game"]').tap()
        ana.locator('#modal [data-action="end-yes"]').tap()
        assert dora.wait_state(lambda v: v["phase"] == "over")["phase"] == "over"
        # The host takes the remote back: its controls go at once.
        assert screen.host("revoke_vip")["type"] == "ok"
        expect(ana.locator("#host-bar")).to_be_hidden()
        assert errors_a == [] and errors_b == [] and errors_c == []
    finally:
        for c in contexts:
            c.close()


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
def test_the_help_sheet_opens_over_the_table_and_keeps_seat_hand_and_socket(live_server, phone_context, screenshot_dir):
    quiet_coach(phone_context)
    page, errors, others, _ = game_with_page(live_server, phone_context)
    page.evaluate("() => { window.__ws = window.quatroLink.ws; }")
    everybody_ready(page, others)
    live_server.table.set_position("AAKQ KKJJ QQJT TTJK | AAQT")
    expect(page.locator("#hand .card .rank")).to_have_text(["A", "A", "K", "Q"])
    page.locator("#help").tap()
    sheet = page.locator("#help-sheet")
    expect(sheet).to_be_visible()
    expect(page.locator("#help-rules article")).to_contain_text("Quatro")  # the host's /rules page, in the sheet
    shot(page, screenshot_dir, "evening-help")
    page.locator("#help-close").tap()
    expect(sheet).to_have_count(0)
    expect(page.locator("#hand .card .rank")).to_have_text(["A", "A", "K", "Q"])
    assert page.evaluate("window.quatroLink.ws === window.__ws && window.quatroLink.online")  # the same socket
    assert live_server.summary()["view"]["seats"][0]["connected"] is True
    assert errors == []


CLEAR_OF_THE_SIGN = """() => {
  const b = document.querySelector('.coach').getBoundingClientRect();
  const bad = [];
  for (const sel of ['#sign-body .emoji-grid', '#btn-lock', '#btn-ready']) {
    const el = document.querySelector(sel);
    if (!el) { bad.push(`no ${sel}`); continue; }
    const r = el.getBoundingClientRect();
    const x = Math.min(r.right, b.right) - Math.max(r.left, b.left);
    const y = Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top);
    if (x > 0 && y > 0) bad.push(`covers ${sel}`);
    if (sel !== '#sign-body .emoji-grid' && (r.bottom > innerHeight + 0.5 || r.top < 0)) bad.push(`${sel} cut`);
  }
  return bad;
}"""


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(360, 640), (390, 844)], ids=["360x640", "390x844"])
def test_the_coach_shows_its_hint_by_the_control_and_a_dismissed_hint_stays_dismissed(
    live_server, chromium, screenshot_dir, lang, size
):
    context = new_phone_context(chromium, size, lang, fresh=True)  # a phone that never played
    try:
        page, errors, others, _ = game_with_page(live_server, context)
        bubble = page.locator(".coach")
        expect(bubble).to_be_visible()  # a phone that never played: the sign hint, at the sign phase
        expect(bubble.locator(".coach-text")).to_contain_text(
            "tout le monde voit" if lang == "fr" else "everybody sees your flashes"
        )
        entered(bubble)  # the fade-in
        shot(page, screenshot_dir, f"evening-coach-sign-{lang}-{size[0]}x{size[1]}")
        # The hint covers neither the emoji grid it is about nor Lock in / Ready, which stay whole on screen.
        assert page.evaluate(CLEAR_OF_THE_SIGN) == []
        bubble.locator(".coach-ok").tap()
        expect(bubble).to_have_count(0)
        page.reload()
        expect(page.locator("#screen-sign")).to_be_visible()
        page.wait_for_timeout(500)
        expect(page.locator(".coach")).to_have_count(0)  # dismissed stays dismissed after a reload
        # "Show hints again" in the help sheet brings it back.
        page.locator("#help").tap()
        page.locator("#help-hints").tap()
        page.locator("#help-close").tap()
        page.locator(f'#sign-body [data-emoji="{others[1].state["view"]["signs"][3]}"]').tap()  # a new view
        assert others[1].act("ready")["type"] == "ok"
        expect(page.locator(".coach")).to_be_visible()
        assert errors == []
    finally:
        context.close()


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
def test_the_reveal_tells_the_rounds_story_with_signs_and_decoys(live_server, phone_context, screenshot_dir):
    quiet_coach(phone_context)
    page, errors, others, _ = game_with_page(live_server, phone_context)
    page.locator('#sign-body [data-emoji="🦊"]').tap()
    page.locator("#btn-lock").tap()
    expect(page.locator(".sign-big.fixed #team-sign")).to_have_text("🦊")
    everybody_ready(page, others)
    bruno = others[1]
    assert bruno.act("take_channel")["type"] == "ok"
    assert bruno.act("choose_emoji", emoji="🐙")["type"] == "ok"
    bruno.expect(lambda m: m.get("type") == "state" and any(e["type"] == "emitted" for e in m["events"]), timeout=10)
    assert others[2].act("call_quatro", confirmed=False)["type"] == "ok"
    expect(page.locator("#screen-reveal")).to_be_visible()
    story = page.locator("#story")
    expect(story).to_be_visible()
    expect(story.locator(".story-ev.ev-take")).to_contain_text("Bruno")
    expect(story.locator(".story-ev.ev-emit").first).to_contain_text("🐙")
    emit_is_sign = live_server.summary()["view"]["result"]["signs"][1] == "🐙"
    expect(story.locator(".story-ev.ev-emit").first).to_have_class(
        re.compile(r"\bsign\b" if emit_is_sign else r"\bdecoy\b")
    )
    expect(story.locator(".story-ev.ev-call")).to_contain_text("Chloé")
    shot(page, screenshot_dir, "evening-story")
    assert errors == []


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_relaxed_timers_show_the_longer_clock_on_the_phone(live_server, phone_context, screenshot_dir):
    """House rules: every duration × 2. The phone's clock reads the view, so the round shows 6:00, not 3:00."""
    page, errors = join_on_page(phone_context, phone_url(live_server.port), 0, "Ana")
    others = seat_phones(live_server, {1: "Bruno", 2: "Chloé", 3: "Dora"})
    screen = live_server.screen()
    assert screen.host("settings", timer_factor=2)["type"] == "ok"
    assert screen.host("start_game")["type"] == "ok"
    expect(page.locator("#screen-sign")).to_be_visible()
    everybody_ready(page, others)
    expect(page.locator("#clock")).to_have_text(re.compile(r"^(6:00|5:5\d)$"))
    shot(page, screenshot_dir, "evening-relaxed")
    assert errors == []
