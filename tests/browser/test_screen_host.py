"""The host runs the evening from the TV (the host's panel), and the TV tells the round's story.

* Pause mid-round: "Paused by the host" over the table, the clock stands still; Resume.
* End the game (confirmed), then 4 → 6 seats between games, without a restart.
* House rules: points to win and relaxed timers, each picker showing its choice; the longer clock and the
  changed rules in the top bar during play.
* A human seat given to a bot, another taken away (confirmed, in words a host understands), the table locked,
  the VIP remote's QR code (decoded), the number watching.
* The reveal's story: a lane per seat with every take, release and emission (sign or decoy) at its time, at 4
  and 8 seats. Game over: the recap of every round and the awards.
* The attract loop: runs in the lobby, stops when the game starts, replays from the pause; fades only under
  reduced motion.
Rules cited: R17–R18 (channel, emissions), R20 (decoys), R22/R24 (calls), R26 (reveal), R32 (pause), R33 (seats),
R34 (game over), R36–R39 (the story only after the round).
"""

from __future__ import annotations

import io
import re
import time
from typing import Any

import pytest

from quatro_party.server.botstub import StubBot
from quatro_party.server.testing import LiveServer

from .screen_helpers import ScreenPage, recorded_marks, story_marks

PUBLIC = "party.test"
NAMES = ["Ana", "Bruno", "Chloé", "Dan", "Eve", "Farid", "Gaïa", "Hugo"]


def seated(server: LiveServer, seats: list[int]) -> dict[int, Any]:
    phones = {}
    for seat in seats:
        p = server.phone()
        p.join(seat, NAMES[seat])
        phones[seat] = p
    return phones


def open_tv(context: Any, server: LiveServer) -> ScreenPage:
    screen = ScreenPage(context, server.screen_url(host=True))
    screen.wait("document.body.dataset.phase && document.body.dataset.phase !== 'loading'")
    return screen


def ready_all(phones: dict[int, Any], rnd: int = 1) -> None:
    for p in phones.values():
        p.wait_state(lambda v: v["phase"] == "sign" and v["round"] == rnd)
        p.act("ready")
    for p in phones.values():
        p.wait_state(lambda v: v["phase"] == "play" and v["round"] == rnd)


def panel(screen: ScreenPage) -> None:
    if screen.page.locator("#panel").is_hidden():
        screen.page.click("#host-menu")
    screen.wait("!document.querySelector('#panel').hidden")


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_r32_the_host_pauses_mid_round_and_resumes(live_server, tv_context, screenshot_dir):
    phones = seated(live_server, [0, 1])
    screen = open_tv(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    ready_all(phones)
    screen.wait_phase("play")
    panel(screen)
    page.click("#panel .pause-game")
    screen.wait("!document.querySelector('#paused').hidden")
    assert screen.text(".paused-title") == "Paused by the host"
    page.click("#panel .panel-close")
    clock = screen.text("#clock")
    time.sleep(1.5)
    assert screen.text("#clock") == clock, "the clock stands still while paused"
    assert phones[0].wait_state(lambda v: v["paused"] is not None)["paused"] == {"by": "host"}
    screen.shot(screenshot_dir, "paused")
    page.click("#paused .resume")
    screen.wait("document.querySelector('#paused').hidden")
    assert phones[0].wait_state(lambda v: v["paused"] is None)["phase"] == "play"
    assert screen.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_host_ends_the_game_and_changes_four_to_six_seats(live_server, tv_context, screenshot_dir):
    phones = seated(live_server, [0])
    screen = open_tv(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    ready_all(phones)
    screen.wait_phase("play")
    panel(screen)
    page.click("#panel .end-game")
    assert screen.text(".confirm-text").startswith("End the game now?")
    screen.shot(screenshot_dir, "panel-end-confirm")
    page.click("#panel .confirm-yes")
    screen.wait_phase("over")
    panel(screen)
    assert screen.text("#panel h2") == "Settings for the next game"
    assert page.locator("#panel .seats .seats-4.on").count() == 1  # the current choice, shown
    page.click("#panel .seats-6")
    screen.wait("document.querySelectorAll('.seat').length === 6")
    assert screen.view()["phase"] == "lobby" and screen.view()["seat_count"] == 6
    assert page.locator("#panel .seats .seats-6.on").count() == 1
    assert screen.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_house_rules_show_their_choice_and_stay_in_view_during_play(live_server, tv_context, screenshot_dir):
    phones = seated(live_server, [0])
    screen = open_tv(tv_context, live_server)
    page = screen.page
    panel(screen)
    assert page.locator("#panel .win-score .score-5.on").count() == 1  # the rule, R34
    assert page.locator("#panel .timer-factor .timer-1.on").count() == 1
    page.click("#panel .score-7")
    screen.wait("document.querySelector('#panel .score-7.on') !== null")
    page.click("#panel .timer-2")
    screen.wait("document.querySelector('#panel .timer-2.on') !== null")
    assert page.locator("#panel .on").count() >= 5  # score, timers, language, seats, bot level: each says its choice
    screen.shot(screenshot_dir, "panel-settings")
    page.click("#panel .panel-close")
    page.click("#start-slot .start-game")
    ready_all(phones)
    screen.wait_phase("play")
    assert screen.text("#house") == "Relaxed timers ×2"
    assert page.locator("#to-win.changed").count() == 1  # not the rules' 5: in the house colour
    assert re.fullmatch(r"[56]:\d\d", screen.text("#clock"))  # twice 3:00
    assert screen.text("#to-win") == "first to 7"
    screen.shot(screenshot_dir, "house-rules-play")
    assert screen.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_r33_seats_in_a_game_bot_kick_lock_vip_and_audience(live_server, tv_context, screenshot_dir):
    from PIL import Image
    from pyzbar.pyzbar import decode

    phones = seated(live_server, [0, 1, 2])
    screen = open_tv(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    ready_all(phones)
    screen.wait_phase("play")
    panel(screen)
    page.click('#panel .panel-seat[data-seat="2"] .to-bot')
    screen.wait("window.quatroScreen.view.seats[2].kind === 'bot'")
    page.click('#panel .panel-seat[data-seat="1"] .kick')
    assert screen.text(".confirm-text").startswith("Take Bruno’s seat away? Their phone leaves the table")
    page.click("#panel .confirm-yes")
    screen.wait("(window.quatroScreen.table.freed || []).includes(1)")
    page.click("#panel .lock-table")
    screen.wait("window.quatroScreen.table.locked === true")
    assert "Table locked" in screen.text("#house")
    page.click("#panel .lock-table")
    screen.wait("window.quatroScreen.table.locked === false")
    watcher = live_server.phone()
    assert watcher.act("watch")["type"] == "ok"
    screen.wait("!document.querySelector('#watching').hidden")
    assert screen.text("#watching") == "👀 1 watching"
    page.click("#panel .vip-link")
    screen.wait("document.querySelector('#panel .vip-qr svg') !== null")
    screen.shot(screenshot_dir, "panel-game-vip")
    found = decode(Image.open(io.BytesIO(page.locator("#panel .vip-qr").screenshot())))
    assert found and re.fullmatch(rf"http://{PUBLIC}:{live_server.port}/\?vip=\S+", found[0].data.decode())
    assert found[0].data.decode() not in page.evaluate("location.href + document.body.innerText")
    assert screen.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_pickers_show_their_choice_and_a_practice_round_says_so(live_server, tv_context, screenshot_dir):
    """The lobby's Seats and Bots pickers show the current choice (a plain-button rule used to hide it); a
    practice round started from the panel is named in the top bar, with its slower clock."""
    phones = seated(live_server, [0])
    screen = open_tv(tv_context, live_server)
    page = screen.page
    background = "(sel) => getComputedStyle(document.querySelector(sel)).backgroundColor"
    assert page.evaluate(background, "#host-bar .seats-4") != page.evaluate(background, "#host-bar .seats-6")
    assert page.evaluate(background, "#host-bar .level-normal") != page.evaluate(background, "#host-bar .level-easy")
    tick = "(sel) => getComputedStyle(document.querySelector(sel), '::before').content"
    assert page.evaluate(tick, "#host-bar .seats-4") == '"✓ "' and page.evaluate(tick, "#host-bar .seats-6") == "none"
    panel(screen)
    page.click("#panel .start-practice")
    screen.wait_phase("sign")
    assert screen.text("#house") == "🎓 Practice round — no points"
    ready_all(phones)
    screen.wait_phase("play")
    length = screen.view()["timing"]["round_length"]
    assert length >= 1.5 * 180 - 1e-6  # every duration × 1.5 (at least)
    assert re.fullmatch(r"4:[2-3]\d", screen.text("#clock"))
    screen.shot(screenshot_dir, "practice")
    assert screen.errors == []


def story_round(server: LiveServer, phones: dict[int, Any], screen: ScreenPage, folder: Any, name: str) -> None:
    """A round with a decoy, the team's sign and a release, ended by a Contre!; the reveal's story on the TV."""
    ana, bruno = phones[0], phones[1]
    sign = ana.wait_state(lambda v: v["phase"] == "play")["you"]["sign"]
    decoy = next(e for e in ana.state["view"]["signs"] if e != sign)
    assert ana.act("take_channel")["type"] == "ok"
    assert ana.act("choose_emoji", emoji=decoy)["type"] == "ok"
    screen.wait("document.querySelector('#fx .burst[data-seat=\"0\"]') !== null", timeout=8)
    assert ana.act("choose_emoji", emoji=sign)["type"] == "ok"
    time.sleep(0.3)
    assert bruno.act("call_contre", team=0)["type"] == "ok"
    screen.wait_phase("pause")
    screen.wait("document.querySelector('.story') !== null", timeout=12)  # after the hands, the story
    story = screen.view()["result"]["story"]["events"]
    assert sorted(story_marks(screen.page), key=str) == sorted(recorded_marks(story), key=str)
    kinds = {e["kind"] for e in story}
    assert {"take", "emit", "call"} <= kinds
    assert any(e["kind"] == "emit" and e["sign"] is False for e in story)  # the decoy, marked so
    assert screen.page.locator(".story-row").count() == len(screen.view()["seats"])
    screen.shot(folder, name)
    screen.page.select_option("#lang", "fr")  # the same story in French
    screen.wait("document.querySelector('.story-title').textContent === 'Le film de la manche'")
    screen.shot(folder, f"{name}-fr")
    screen.page.select_option("#lang", "en")


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_r39_the_reveal_tells_the_rounds_story_at_four_seats(live_server, tv_context, screenshot_dir):
    phones = seated(live_server, [0, 1])
    screen = open_tv(tv_context, live_server)
    screen.page.click("#start-slot .start-game")
    ready_all(phones)
    assert "story" not in str(screen.messages()[-1].get("view", {}).get("result") or {})  # nothing before the end
    story_round(live_server, phones, screen, screenshot_dir, "story-4")
    assert screen.errors == []


@pytest.mark.live_server(seats=8, public_host=PUBLIC, bot_factory=StubBot)
def test_r39_the_reveal_tells_the_rounds_story_at_eight_seats(live_server, tv_context, screenshot_dir):
    phones = seated(live_server, [0, 1])
    screen = open_tv(tv_context, live_server)
    screen.page.click("#start-slot .start-game")
    ready_all(phones)
    story_round(live_server, phones, screen, screenshot_dir, "story-8")
    assert screen.errors == []


@pytest.mark.parametrize("seats", [4, 8])
def test_r34_game_over_shows_the_recap_and_the_awards(live_server_factory, tv_context, screenshot_dir, seats):
    server = live_server_factory(seats=seats, public_host=PUBLIC, bot_factory=StubBot)
    phones = seated(server, [0, 1])
    host = server.screen()
    assert host.host("settings", winning_score=3)["type"] == "ok"
    screen = open_tv(tv_context, server)
    page = screen.page
    page.click("#start-slot .start-game")
    carre = {4: "AQJT AQJT KKKK AQJT | AQJT", 8: "KKKQ QQJJ JJTT TT99 AAAA 9988 8877 7766 | 66KQ"}[seats]
    for rnd in range(1, 8):
        ready_all(phones, rnd)
        if rnd == 1:  # a right Quatro! first (R22): Ana's partner holds a carré
            server.table.set_position(carre)
            phones[0].wait_state(lambda v: v["phase"] == "play" and v["you"]["hand"][0]["rank"] in ("A", "K"))
            assert phones[0].act("call_quatro")["type"] == "ok"
        else:
            phones[1].act("call_contre", team=0)  # then wrong Contres: Blue +1 each (R24)
        v = phones[0].wait_state(lambda v: v["phase"] in ("pause", "over") and v["round"] == rnd)
        if v["phase"] == "over":
            break
        host.host("next_round")
    screen.wait_phase("over")
    screen.wait("document.querySelector('#splash').hidden", timeout=5)
    page.click("#over .tab-story")
    screen.wait("document.querySelector('#over .recap') !== null")
    view = screen.view()
    assert page.locator(".recap-row").count() == len(view["recap"]) >= 3
    assert page.locator(".award").count() == len(view["awards"]) >= 1
    assert "Bruno’s wrong Contre! on Blue\u00a0●" in screen.text(".recap")
    assert "Ana’s right Quatro!" in screen.text(".recap")
    screen.at_rest(0.9)
    screen.shot(screenshot_dir, f"over-story-{seats}")
    page.select_option("#lang", "fr")
    screen.wait("document.querySelector('.recap-title').textContent === 'Manche par manche'")
    assert "Contre\u00a0! faux de Bruno sur Bleu\u00a0●" in screen.text(".recap")
    screen.shot(screenshot_dir, f"over-story-{seats}-fr")
    page.select_option("#lang", "en")
    page.click("#over .tab-scores")
    screen.wait("document.querySelector('#over .final-scores') !== null")
    assert screen.errors == []


ATTRACT_DRAWN = "document.querySelector('#attract .attract-root') ? document.querySelector('#attract').innerText : ''"


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_attract_loop_runs_in_the_lobby_stops_at_the_game_and_replays_at_the_pause(
    live_server, tv_context, screenshot_dir
):
    phones = seated(live_server, [0, 1])
    screen = open_tv(tv_context, live_server)
    page = screen.page
    screen.wait("document.querySelector('#attract .attract-root') !== null")
    first = page.evaluate(ATTRACT_DRAWN)
    screen.shot(screenshot_dir, "attract-lobby-1")
    screen.wait(f"({ATTRACT_DRAWN}) !== {first!r}", timeout=15)  # what is drawn changes over time
    screen.shot(screenshot_dir, "attract-lobby-2")
    page.click("#start-slot .start-game")
    screen.wait_phase("sign")
    screen.wait("document.querySelector('#attract').hidden && !document.querySelector('#attract .attract-root')")
    ready_all(phones)
    phones[1].act("call_contre", team=0)
    screen.wait_phase("pause")
    page.click("#corner .how-to")
    screen.wait("document.querySelector('#attract.replay .attract-root') !== null")
    page.wait_for_timeout(1500)
    screen.shot(screenshot_dir, "attract-replay")
    assert screen.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC)
def test_the_attract_loop_uses_no_transform_under_reduced_motion(live_server, chromium):
    context = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US", reduced_motion="reduce")
    try:
        screen = open_tv(context, live_server)
        screen.wait("document.querySelector('#attract .attract-root') !== null")
        seen = set()
        for _ in range(12):
            seen |= set(
                screen.page.evaluate(
                    """() => [...document.querySelectorAll('#attract *')].flatMap((e) => {
                         const out = [];
                         if (getComputedStyle(e).transform !== 'none') out.push('css ' + e.className);
                         for (const a of e.getAnimations()) for (const k of (a.effect.getKeyframes() || []))
                           if (k.transform && k.transform !== 'none') out.push('anim ' + e.className);
                         return out; })"""
                )
            )
            screen.page.wait_for_timeout(500)
        assert seen == set(), seen
        assert screen.errors == []
    finally:
        context.close()
