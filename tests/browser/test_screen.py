"""The big screen in a real Chromium against the real host, with bots and socket phones.

Every test writes its screenshots at 1920×1080 to ``screenshots/screen-<phase>.png``.
Rules cited: R1–R2 (seats, partners), R6/R12 (notices), R11 (ready), R14 (swaps are public),
R17–R18 (channel, emissions), R22–R26 (calls and the reveal), R28 (vote), R32 (pause, next round),
R34–R35 (winners), R36–R39 (nothing private before the reveal).
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from quatro_party.server import create_app
from quatro_party.server.botstub import StubBot
from quatro_party.server.testing import TEST_HOST_SECRET, LiveServer

from .conftest import listen_again
from .screen_helpers import TV, ScreenPage, without_sign_list

PUBLIC = "party.test"

#: A stand-in AudioContext that records every tone (frequency, waveform) the page plays.
FAKE_AUDIO = """
window.__tones = [];
class FakeParam { setValueAtTime(v) { this.v = v; } exponentialRampToValueAtTime() {} }
class FakeNode { connect(n) { return n; } }
window.AudioContext = class {
  constructor() { this.state = 'running'; this.currentTime = 0; this.destination = new FakeNode(); }
  resume() { return Promise.resolve(); }
  createGain() { const g = new FakeNode(); g.gain = new FakeParam(); return g; }
  createOscillator() {
    const o = new FakeNode(); o.frequency = new FakeParam(); o.type = 'sine';
    o.start = () => window.__tones.push([o.frequency.v, o.type]); o.stop = () => {};
    return o;
  }
};
"""


def open_screen(context: Any, server: LiveServer, host: bool = True) -> ScreenPage:
    screen = ScreenPage(context, server.screen_url(host=host))
    screen.wait("document.body.dataset.phase && document.body.dataset.phase !== 'loading'")
    return screen


def all_keys(obj: Any) -> set[str]:
    """Every key of every object nested in ``obj``."""
    if isinstance(obj, dict):
        return set(obj) | set().union(*(all_keys(v) for v in obj.values()))
    if isinstance(obj, list):
        return set().union(*(all_keys(v) for v in obj))
    return set()


def join(server: LiveServer, seat: int, name: str) -> Any:
    phone = server.phone()
    phone.join(seat, name)
    return phone


def assert_names_readable(screen: ScreenPage) -> None:
    """Every seat's name is shown whole, or at least 14 of its characters: people find their plate by it."""
    shown = screen.name_chars_shown()
    short = {name: n for name, n in shown.items() if n < min(len(name), 14)}
    assert short == {}, f"names cut on their plates (characters shown): {short}"
    hidden = screen.overlaps(".seat .name", ".seat .sign-badge, .seat .caller-badge")
    assert hidden == [], f"names under a badge: {hidden}"


def to_play(phones: list[Any]) -> dict[str, Any]:
    for p in phones:
        p.wait_state(lambda v: v["phase"] == "sign")
        assert p.act("ready")["type"] == "ok"
    return phones[0].wait_state(lambda v: v["phase"] == "play")


# --- lobby ------------------------------------------------------------------------------------------


@pytest.mark.live_server(seats=4, public_host=PUBLIC)
def test_lobby_qr_join_url_seats_and_host_controls(live_server, tv_context, chromium, screenshot_dir):
    """Lobby: QR hero, join URL, seats on the oval with badges (R1–R3); host: 6 seats, add a bot, fill, FR."""
    ana = join(live_server, 0, "Ana")
    bruno = join(live_server, 1, "Bruno")
    screen = open_screen(tv_context, live_server)
    page = screen.page
    screen.wait("document.querySelectorAll('.seat').length === 4")

    # The QR code is the hero: a real image, at least 420 px, and the join URL under it in large type.
    qr = page.locator("#qr")
    box = qr.bounding_box()
    assert box["width"] >= 420 and box["height"] >= 420
    assert page.evaluate("document.querySelector('#qr').naturalWidth") > 0
    assert screen.text("#join-url") == f"{PUBLIC}:{live_server.port}"
    assert float(page.evaluate("parseFloat(getComputedStyle(document.querySelector('#join-url')).fontSize)")) >= 40

    # Seats: names, phone badge, connection; free seats say so; partners opposite (R2).
    assert "Ana" in screen.text('.seat[data-seat="0"]') and "phone" in screen.text('.seat[data-seat="0"]')
    assert page.locator('.seat[data-seat="1"] .conn.on').count() == 1
    assert page.locator(".seat.kind-empty").count() == 2
    pos = {s: page.locator(f'.seat[data-seat="{s}"]').bounding_box() for s in range(4)}
    centre = lambda b: (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)  # noqa: E731
    (x0, y0), (x2, y2) = centre(pos[0]), centre(pos[2])
    assert abs(x0 - x2) < 5 and y0 > y2 + 300  # seat 0 at the bottom, its partner (2) at the top

    # How to play: the attract loop plays in the middle of the table, and the rules are linked.
    screen.wait(
        "document.querySelector('#attract.lobby .attract-root') !== null && "
        "document.querySelector('#attract .attract-root').childElementCount > 0"
    )
    assert page.get_attribute("#join-rules", "href") == "/rules?lang=en"
    screen.assert_fits()
    screen.shot(screenshot_dir, "lobby")

    # Host controls: 6 seats, then a bot on seat 2.
    page.click("#host-bar .seats-6")
    screen.wait("document.querySelectorAll('.seat').length === 6")
    page.click('.seat[data-seat="2"] .add-bot')
    screen.wait("document.querySelector('.seat[data-seat=\"2\"]').classList.contains('kind-bot')")
    assert "bot" in screen.text('.seat[data-seat="2"] .badge')
    assert screen.view()["seat_count"] == 6
    screen.assert_fits()
    screen.shot(screenshot_dir, "lobby-6")

    # The sound cue has a visible mute, remembered across reloads.
    assert page.get_attribute("#mute", "aria-pressed") == "false"
    page.click("#mute")
    assert page.get_attribute("#mute", "aria-pressed") == "true" and screen.text("#mute") == "🔇"

    # French, switchable and remembered (so is the mute).
    page.click("#lang")
    screen.wait("document.querySelector('#join-title').textContent === 'Scannez pour jouer'")
    screen.assert_fits()
    screen.shot(screenshot_dir, "lobby-fr")
    page.reload()
    screen.wait("document.querySelector('#join-title').textContent === 'Scannez pour jouer'")
    assert page.get_attribute("#mute", "aria-pressed") == "true"
    page.click("#mute")
    page.click("#lang")
    screen.wait("document.querySelector('#join-title').textContent === 'Scan to play'")

    # Fill with bots: every seat is held.
    page.click("#host-bar .fill-bots")
    screen.wait("document.querySelectorAll('.seat.kind-empty').length === 0")
    assert page.locator(".seat.kind-bot").count() == 4

    # A spectator screen (no host secret) shows the table but no controls.
    spectator = open_screen(chromium.new_context(viewport=TV, locale="en-US"), live_server, host=False)
    spectator.wait("document.querySelectorAll('.seat').length === 6")
    assert spectator.page.locator("#host-bar button, .seat-controls button, .start-game").count() == 0
    assert spectator.text("#spectator").startswith("Spectator screen")
    # … and so does one opened with a wrong host link, which says so.
    with spectator.page.expect_navigation():  # the page reloads itself on a new host link
        spectator.page.goto(live_server.screen_url(host=False) + "#host=not-the-secret")
    spectator.wait("document.querySelector('#notice-list').textContent.includes('Wrong host link')")
    assert spectator.page.locator("#host-bar button, .seat-controls button, .start-game").count() == 0
    spectator.page.context.close()

    # A phone that leaves shows as offline: a hollow dot and the word, not colour alone.
    bruno.close()
    screen.wait("document.querySelector('.seat[data-seat=\"1\"] .conn.off') !== null", timeout=10)
    assert "offline" in screen.text('.seat[data-seat="1"] .conn')

    # Remove a bot, free a phone's seat.
    page.click('.seat[data-seat="2"] .remove-bot')
    screen.wait("document.querySelector('.seat[data-seat=\"2\"]').classList.contains('kind-empty')")
    page.click('.seat[data-seat="1"] .free-seat')
    screen.wait("document.querySelector('.seat[data-seat=\"1\"]').classList.contains('kind-empty')")
    assert screen.errors == []
    ana.close()


# --- sign phase ---------------------------------------------------------------------------------------


@pytest.mark.live_server(seats=4, public_host=PUBLIC)
def test_sign_phase_shows_who_is_ready_and_the_countdown_never_the_sign(live_server, tv_context, screenshot_dir):
    """R8, R11, R12: who is ready and the 30 s countdown; the sign itself never reaches the screen."""
    ana = join(live_server, 0, "Ana")
    bruno = join(live_server, 1, "Bruno")
    screen = open_screen(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    screen.wait_phase("sign")
    ana.wait_state(lambda v: v["phase"] == "sign")
    assert ana.act("pick_sign", sign="🐳")["type"] == "ok"
    assert ana.act("ready")["type"] == "ok"
    screen.wait("document.querySelector('.seat[data-seat=\"0\"] .ready-tag.yes') !== null")
    assert page.locator('.seat[data-seat="1"] .ready-tag.no').count() == 1
    assert screen.text(".ready-count") == "3 / 4 ready"  # the two bots are always ready (R11)
    count = int(screen.text(".sign-count"))
    assert 25 <= count <= 30
    assert re.fullmatch(r"0:(2\d|30)", screen.text("#clock"))
    if count != 25:
        # interpolated locally between states: it ticks down within a second or so (waited for, not slept on: a
        # loaded machine may run the page's timer late)
        screen.wait(f"parseInt(document.querySelector('.sign-count').textContent) < {count}", timeout=5)
    html = page.content()
    assert "🐳" not in html and all("🐳" not in without_sign_list(f) for f in screen.frames)
    screen.assert_fits()
    screen.shot(screenshot_dir, "sign")

    # Bruno never picks: his team gets a random sign (R12), the room is told — never which one.
    assert bruno.act("ready")["type"] == "ok"
    screen.wait_phase("play")
    screen.wait("document.querySelector('#notice-list').textContent.includes('random sign')")
    assert "Orange" in screen.text("#notice-list")
    assert screen.text_colour("#notice-list", "▲") == "rgb(255, 175, 56)"  # the team's shape in its colour
    assert page.locator('.score[data-team="1"] .random-tag').count() == 1
    assert page.locator('.score[data-team="0"] .random-tag').count() == 0
    assert screen.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC)
def test_host_lets_a_player_move_to_another_device(live_server, tv_context):
    """R33: the host's "Move" sends that seat's phone a one-time seat link; it opens the same seat elsewhere."""
    ana = join(live_server, 0, "Ana")
    screen = open_screen(tv_context, live_server)
    screen.wait("document.querySelector('.seat[data-seat=\"0\"] .allow-move') !== null")
    assert screen.page.locator('.seat[data-seat="1"] .allow-move').count() == 0  # only seated humans
    screen.page.click('.seat[data-seat="0"] .allow-move')
    link = ana.expect("seat_link")
    assert link["seat"] == 0 and link["url"].endswith(f"?seat={link['token']}")
    other = live_server.phone(token=link["token"])
    other.wait_state(lambda v: (v.get("you") or {}).get("seat") == 0)
    assert any(m["type"] == "joined" and m["seat"] == 0 for m in other.messages)
    assert screen.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_level="easy")
def test_r33_a_freed_seat_looks_free_and_the_host_can_put_a_bot_there(live_server, tv_context, screenshot_dir):
    """R33: "Free" on an offline player's seat in a game changes what the TV shows: the seat (hand kept) says it
    can be taken over from a phone, and its host control is now "+ Bot", which puts a bot on that hand."""
    phones = [join(live_server, s, n) for s, n in enumerate(["Ana", "Bruno", "Chloé", "Dan"])]
    screen = open_screen(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    to_play(phones)
    screen.wait_phase("play")
    phones[1].close()  # Bruno's phone dies: offline, still his (R33)
    plate = page.locator('.seat[data-seat="1"]')
    screen.wait("document.querySelector('.seat[data-seat=\"1\"] .free-seat') !== null")
    assert "offline" in plate.inner_text() and plate.locator(".add-bot").count() == 0
    assert "take over" not in plate.inner_text()
    page.click('.seat[data-seat="1"] .free-seat')
    screen.wait("document.querySelector('.seat[data-seat=\"1\"].freed') !== null", timeout=5)
    text = plate.inner_text()
    assert "Bruno" in text and "scan to take over" in text and "hand kept" in text
    assert "offline" not in text and plate.locator(".free-seat").count() == 0
    assert plate.locator(".add-bot").count() == 1
    assert page.locator(".seat.freed").count() == 1  # only that one
    time.sleep(0.5)
    screen.assert_fits()
    screen.shot(screenshot_dir, "play-freed-seat")
    page.click('.seat[data-seat="1"] .add-bot')
    screen.wait("window.quatroScreen.view.seats[1].kind === 'bot'", timeout=5)
    screen.wait("document.querySelector('.seat[data-seat=\"1\"].freed') === null", timeout=5)
    assert "bot" in plate.inner_text().lower()
    assert live_server.summary()["bots"] == {1: "easy"}
    assert screen.errors == []


@pytest.mark.live_server(seats=8, public_host=PUBLIC, bot_level="easy")
def test_r6_a_screen_opened_mid_round_still_says_the_hands_were_redealt(live_server, tv_context):
    """R6: the re-deal notice is not only an event: a big screen opened (or reloaded) after the deal shows it too."""
    host = live_server.screen()
    assert host.host("fill_bots")["type"] == "ok" and host.host("start_game")["type"] == "ok"
    view = host.wait_state(lambda v: v["phase"] == "play")
    assert view["redeals"] > 0  # seed 1 at 8 seats: the first deal was thrown back
    screen = open_screen(tv_context, live_server)
    screen.wait_phase("play")
    screen.wait("document.querySelector('#notice-list').textContent.includes('re-dealt')", timeout=5)
    assert screen.errors == []


# --- play, emission, swap, call, reveal, pause --------------------------------------------------------------


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_level="easy")
def test_full_round_play_emission_swap_call_and_reveal(live_server, tv_context, screenshot_dir):
    """R14, R17–R18, R22, R26, R32: a round with an emission and a swap, ended by a Quatro!, then the reveal."""
    ana = join(live_server, 0, "Ana")
    bruno = join(live_server, 1, "Bruno")
    screen = open_screen(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    to_play([ana, bruno])
    screen.wait_phase("play")
    # Ana's partner (seat 2, a bot) holds four kings: her Quatro! will be right.
    table = live_server.table
    table.call(lambda: table.game.set_position("AQJT AQJT KKKK AQJT | AQJT"))
    assert ana.act("take_channel")["type"] == "ok"
    screen.wait("document.querySelector('.seat[data-seat=\"0\"]').classList.contains('held')")  # R17: the lamp

    # R14: Ana swaps a card with place 0; the centre shows it, sliding in from her seat.
    for _ in range(3):  # a bot may take place 0 first (R16): then look again and retry
        view = ana.wait_state(
            lambda v: v["phase"] == "play" and {c["rank"] for c in v["you"]["hand"]} == {"A", "Q", "J", "10"}
        )
        expected = view["centre"][0]
        card = next(c for c in view["you"]["hand"] if c["rank"] != expected["rank"])
        reply = ana.act("swap", card=card["id"], place=0, expected=expected["id"])
        if reply["type"] == "ok":
            break
    assert reply["type"] == "ok", reply
    screen.wait(f"document.querySelector('#places .card[data-place=\"0\"]').dataset.card === '{card['id']}'")
    assert page.locator('#places .card[data-place="0"].just-swapped').count() == 1

    # R18: she shows a fox: the screen bursts it, big, at her seat.
    assert ana.act("choose_emoji", emoji="🦊")["type"] == "ok"
    screen.wait("document.querySelector('#fx .burst[data-seat=\"0\"]') !== null", timeout=5)
    assert "🦊" in screen.text('#fx .burst[data-seat="0"]')
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#fx .burst-emoji')).fontSize)")
    assert size >= 160
    screen.freeze_fx(450)  # mid-burst, whatever the machine's frame rate
    screen.shot(screenshot_dir, "play")
    screen.thaw_fx()
    heights = page.evaluate("[...document.querySelectorAll('#places .card')].map(c => c.offsetHeight)")
    assert len(heights) == 4 and min(heights) >= 200
    ranks = page.evaluate(
        "[...document.querySelectorAll('#places .rank')].map(r => parseFloat(getComputedStyle(r).fontSize))"
    )
    assert min(ranks) >= 110
    assert re.fullmatch(r"[23]:\d\d", screen.text("#clock"))
    screen.assert_fits()

    # R22: Quatro! on her partner, who holds four kings.
    assert ana.act("call_quatro")["type"] == "ok"
    screen.wait_phase("pause")
    result = screen.view()["result"]
    partner = screen.view()["seats"][2]["name"]
    sentence = screen.text(".sentence")
    assert result["caller"] == 0 and result["correct"] is True
    assert sentence == f"Ana called Quatro! on {partner}: four kings — team Blue\u00a0● +1"
    # R26: every hand turned over, the carré glowing, every team's sign shown.
    for seat in range(4):
        minis = page.locator(f'.seat[data-seat="{seat}"] .hand .card')
        assert minis.count() == 4
    assert page.locator('.seat.carre[data-seat="2"]').count() == 1
    assert page.locator(".seat.carre").count() == 1
    signs = [s for s in result["signs"] if s]
    assert len(signs) == 2
    for team, sign in enumerate(result["signs"]):
        assert page.locator(f".seat.team-{team} .sign-badge").first.inner_text() == sign
    assert page.locator('.score[data-team="0"] .points').inner_text() == "1"
    assert page.locator(".score .plus").all_inner_texts() == ["+1"]  # only Blue scored, said at the top too
    assert page.locator("#clock-label").text_content() == "Next round" and screen.text("#clock").startswith("0:")
    time.sleep(1.0)  # let the reveal animation settle for the picture
    screen.assert_fits()
    screen.shot(screenshot_dir, "reveal")

    # "team Blue ●": the shape wears the team's colour in the sentence, as everywhere else (not white).
    assert screen.text_colour(".sentence", "●") == "rgb(86, 135, 213)"

    # Switching the TV's language changes the words, it does not turn the hands over again.
    started = page.evaluate(
        """() => { document.querySelector('#lang').click();
                   return document.getAnimations().filter((a) => a.effect && a.effect.target &&
                     a.effect.target.matches('.seat')).map((a) => a.animationName || 'anim'); }"""
    )
    assert screen.text(".sentence").startswith("Ana a annoncé Quatro ! sur ")
    assert started == [], f"animations replayed on the plates: {started}"
    assert screen.text_colour(".sentence", "●") == "rgb(86, 135, 213)"
    page.click("#lang")
    screen.wait("document.querySelector('.sentence').textContent.startsWith('Ana called')")

    # R24: the sentence for a right Contre! names who held the carré (same words the page uses live).
    contre = dict(result, end="contre", caller=1, target=0, correct=True, scorers=[1])
    said = page.evaluate("async (r) => (await import('/screen.js')).resultSentence(r)", contre)
    assert said == f"Bruno called Contre! on team Blue\u00a0●: {partner} has four kings — team Orange\u00a0▲ +1"

    # R32: the host cuts the pause short.
    page.click(".next-round")
    screen.wait_phase("sign")
    assert screen.text("#round") == "Round 2"
    assert page.locator(".seat .hand .card").count() == 0  # the old reveal is gone from the seats
    assert screen.errors == []


# --- notices: vote, re-deal ------------------------------------------------------------------------------


@pytest.mark.live_server(seats=4, public_host=PUBLIC)
def test_nothing_private_before_the_reveal_frames_and_dom(live_server, tv_context, screenshot_dir):
    """R36–R39: the screen's frames and DOM hold no hand and no sign before the reveal; afterwards they do.

    Four phones (no bots, who could legitimately emit their team's sign), with signs 🐳 and 🦉.
    Also shows the running reshuffle vote with its countdown (R28) and a Contre! reveal (R24).
    """
    phones = [join(live_server, s, n) for s, n in enumerate(["Ana", "Bruno", "Chloé", "Dan"])]
    screen = open_screen(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    for p in phones:
        p.wait_state(lambda v: v["phase"] == "sign")
    assert phones[0].act("pick_sign", sign="🐳")["type"] == "ok"
    assert phones[1].act("pick_sign", sign="🦉")["type"] == "ok"
    to_play(phones)
    screen.wait_phase("play")
    hands = {}
    for p in phones:
        v = p.wait_state(lambda v: v["phase"] == "play" and v["you"]["hand"])
        hands[p.seat] = {c["id"] for c in v["you"]["hand"]}
    # Play a little: a decoy emission, a swap, a reshuffle vote.
    assert phones[0].act("take_channel")["type"] == "ok"
    assert phones[0].act("choose_emoji", emoji="🍩")["type"] == "ok"
    v = phones[1].wait_state(lambda v: v["phase"] == "play")
    hand1 = v["you"]["hand"]
    assert phones[1].act("swap", card=hand1[0]["id"], place=1, expected=v["centre"][1]["id"])["type"] == "ok"
    assert phones[2].act("request_reshuffle")["type"] == "ok"
    screen.wait("!document.querySelector('#vote').hidden")
    notice = screen.text("#vote .vote-ask")
    assert notice.startswith("🔀 Chloé asks to reshuffle"), notice
    assert re.fullmatch(r"· (1\d|20) s", screen.text("#vote .vote-left"))
    # R28: who still has to answer (the other connected humans), none of them has said yes yet
    assert screen.page.locator("#vote .voter.wait").count() == 3
    screen.wait("document.querySelector('#fx .burst[data-seat=\"0\"]') === null", timeout=5)
    screen.assert_fits()
    screen.shot(screenshot_dir, "vote")

    # Before the reveal: nothing private in any frame…
    before = list(screen.frames)
    assert before
    for raw in before:
        msg = json.loads(raw)
        if msg.get("type") != "state":
            assert "🐳" not in raw and "🦉" not in raw, raw[:200]
            continue
        v = msg["view"]
        assert len(v.pop("signs")) == 24  # the public list of the 24 emojis (R8), the same for everybody
        assert "🐳" not in json.dumps(msg, ensure_ascii=False) and "🦉" not in json.dumps(msg, ensure_ascii=False)
        assert "you" not in v and v["result"] is None
        assert not any(e["type"] == "round_ended" for e in msg["events"])
        assert not all_keys(msg) & {"hand", "hands", "has_carre", "channel_choice", "sign", "last_sign", "carres"}
        public = {c["id"] for c in v["centre"]}
        for e in msg["events"]:
            for k in ("put", "took"):
                if k in e:
                    public.add(e[k]["id"])
            for c in e.get("centre", []):
                public.add(c["id"])
        shown = {int(x) for x in re.findall(r'"id": ?(\d+)', raw)}
        assert shown <= public, "card ids outside the centre and the public swaps"
    # … and nothing private in the DOM: cards only in the centre (and a swap's taken card flying off).
    dom = page.content()
    assert "🐳" not in dom and "🦉" not in dom
    assert page.locator(".card").count() == page.locator("#places .card, #fx .card").count()
    centre_ids = set(page.evaluate("[...document.querySelectorAll('#places .card')].map(c => +c.dataset.card)"))
    current = phones[3].wait_state(lambda v: v["phase"] == "play")
    assert centre_ids == {c["id"] for c in current["centre"]}
    assert page.locator(".sign-badge, .hand .card").count() == 0

    # R24: Bruno calls Contre! on team Blue; the reveal then shows everything (the checks above can see it).
    assert phones[1].act("call_contre", team=0)["type"] == "ok"
    screen.wait_phase("pause")
    result = screen.view()["result"]
    assert result["end"] == "contre" and result["signs"] == ["🐳", "🦉"]
    dom = page.content()
    assert "🐳" in dom and "🦉" in dom
    assert page.locator(".seat .hand .card").count() == 16
    assert screen.text(".sentence").startswith("Bruno called Contre! on team Blue\u00a0●: ")
    assert any("🐳" in f for f in screen.frames[len(before) :])
    assert screen.errors == []


# --- game over ---------------------------------------------------------------------------------------------


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_level="easy")
def test_game_over_winners_final_scores_and_new_game(live_server, tv_context, screenshot_dir):
    """R34: five rounds of a wrong Contre! by Bruno give Blue its 5 points; then a new game (host)."""
    ana = join(live_server, 0, "Ana")
    bruno = join(live_server, 1, "Bruno")
    screen = open_screen(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    for rnd in range(1, 13):  # a bot may call first now and then; Blue still gets there
        for p in (ana, bruno):
            p.wait_state(lambda v: v["phase"] == "sign" and v["round"] == rnd)
            p.act("ready")
        bruno.wait_state(lambda v: v["round"] == rnd and v["phase"] in ("play", "pause", "over"))
        bruno.act("call_contre", team=0)  # refused if a bot called first: fine
        v = ana.wait_state(lambda v: v["phase"] in ("pause", "over") and v["round"] == rnd)
        if v["phase"] == "over":
            break
        screen.wait(f"document.body.dataset.phase === 'pause' && window.quatroScreen.view.round === {rnd}")
        page.click(".next-round")
    screen.wait_phase("over")
    winners = screen.view()["winners"]
    assert winners, "the game ended with winners"
    names = {0: "Blue", 1: "Orange"}
    title = screen.text(".over-winners")
    assert title.endswith("wins!") and names[winners[0]] in title
    rows = page.locator(".final")
    assert rows.count() == 2
    assert page.locator(".final.winner .points").first.inner_text() == "5"
    time.sleep(1.0)
    screen.assert_fits()
    screen.shot(screenshot_dir, "over")
    page.click("#over .new-game")
    screen.wait_phase("lobby")
    assert page.locator(".score .points").all_inner_texts() == ["0", "0"]
    assert screen.errors == []


@pytest.mark.live_server(seats=6, public_host=PUBLIC)
def test_two_teams_win_together_after_false_quatros(live_server, tv_context, screenshot_dir):
    """R22, R35: at 6 seats a false Quatro! gives a point to both other teams; five of them → two winners."""
    names = ["Ana", "Bruno", "Chloé", "Dan", "Eve", "Farid"]
    phones = [join(live_server, s, n) for s, n in enumerate(names)]
    screen = open_screen(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    for rnd in range(1, 6):
        for p in phones:
            p.wait_state(lambda v: v["phase"] == "sign" and v["round"] == rnd)
            p.act("ready")
        phones[0].wait_state(lambda v: v["phase"] == "play" and v["round"] == rnd)
        assert phones[0].act("call_quatro")["type"] == "ok"  # Dan (seat 3) holds no carré: nobody swapped
        v = phones[0].wait_state(lambda v: v["phase"] in ("pause", "over") and v["round"] == rnd)
        if rnd == 1:
            screen.wait_phase("pause")
            assert screen.text(".sentence") == (
                "Ana called Quatro! on Dan: no carré — team Orange\u00a0▲ and team Green\u00a0■ +1"
            )
        if v["phase"] == "over":
            break
        screen.wait(f"document.body.dataset.phase === 'pause' && window.quatroScreen.view.round === {rnd}")
        page.click(".next-round")
    screen.wait_phase("over")
    assert sorted(screen.view()["winners"]) == [1, 2]
    assert screen.text(".over-winners") == "Orange\u00a0▲ and Green\u00a0■ win together!"
    assert screen.text_colour(".over-winners", "▲") == "rgb(255, 175, 56)"
    assert screen.text_colour(".over-winners", "■") == "rgb(0, 255, 204)"
    assert page.locator(".final.winner").count() == 2
    assert page.locator(".score.winner").count() == 2
    time.sleep(1.0)
    screen.assert_fits()
    screen.shot(screenshot_dir, "over-together")
    assert screen.errors == []


@pytest.mark.live_server(seats=8, public_host=PUBLIC, bot_factory=StubBot)
def test_game_over_at_eight_seats_leaves_every_hand_visible(live_server, tv_context, screenshot_dir):
    """R26, R34: the game-over box sits between the plates: at 8 seats it used to cover half of them, the
    winning carré included. No plate (hand and all) may be under it."""
    zoe = join(live_server, 0, "Zoé")
    maxi = join(live_server, 4, "Maxime")
    screen = open_screen(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    to_play([zoe, maxi])
    table = live_server.table
    table.call(lambda: setattr(table.game.teams[0], "score", 4))  # Blue at 4: this round's call ends the game
    table.set_position("KKKQ QQJJ JJTT TT99 AAAA 9988 8877 7766 | 66KQ")
    assert zoe.act("call_quatro")["type"] == "ok"  # R22: her partner Maxime holds four aces
    screen.wait_phase("over")
    assert screen.view()["winners"] == [0]
    time.sleep(1.0)  # the box's entrance
    screen.assert_fits()
    screen.shot(screenshot_dir, "over-8")
    under = page.evaluate(
        """() => {
          const box = document.querySelector('#over').getBoundingClientRect();
          const out = [];
          for (const p of document.querySelectorAll('.seat')) {
            const r = p.getBoundingClientRect();
            if (r.left < box.right && r.right > box.left && r.top < box.bottom && r.bottom > box.top)
              out.push(p.querySelector('.name').textContent);
          }
          return out;
        }"""
    )
    assert under == [], f"plates under the game-over box: {under}"
    assert page.locator(".seat.carre .hand .card").count() == 4
    assert page.locator("#over .new-game").is_visible()
    assert screen.errors == []


# --- reconnection -----------------------------------------------------------------------------------------------


def test_page_reconnects_after_server_restart_and_reload(live_server_factory, tv_context, screenshot_dir):
    """The page survives a server restart (socket closed, host gone, host back on the same port) and a reload."""
    first = live_server_factory(seats=4, public_host=PUBLIC)
    ana = join(first, 0, "Ana")
    screen = open_screen(tv_context, first)
    page = screen.page
    screen.wait("document.querySelector('.seat[data-seat=\"0\"] .name').textContent === 'Ana'")
    port = first.port
    ana.close()
    first.stop()
    screen.wait("!document.querySelector('#offline').hidden", timeout=5)
    assert "reconnecting" in screen.text("#offline")
    screen.shot(screenshot_dir, "offline")

    # A new host on the same port, with 6 seats: the page reconnects by itself and redraws from the fresh view.
    app = create_app({"seats": 6, "host_secret": TEST_HOST_SECRET, "seed": 2, "join_url": f"http://{PUBLIC}:{port}/"})
    thread = listen_again(app, port)
    try:
        screen.wait(
            "document.querySelectorAll('.seat').length === 6 && document.querySelector('#offline').hidden", timeout=10
        )
        assert page.locator("#host-bar .seats-6.on").count() == 1  # still the host: the hello was re-sent
        screen.shot(screenshot_dir, "reconnected")
        # A reload draws the same table again.
        page.reload()
        screen.wait("document.querySelectorAll('.seat').length === 6")
        assert screen.errors == []
    finally:
        thread.stop()


# --- void round, amber clock, eight seats, French, reduced motion ----------------------------------------------


@pytest.mark.live_server(seats=8, public_host=PUBLIC, time_scale=0.07)
def test_void_round_amber_clock_eight_seats_french_reduced_motion(live_server, chromium, screenshot_dir):
    """R32: no call → a void round, said in one sentence; the clock turns amber in its last sixth (0:30 of 3:00).

    Eight phones (so nobody calls), a French browser, and prefers-reduced-motion: bursts only fade.
    """
    context = chromium.new_context(viewport=TV, locale="fr-FR", reduced_motion="reduce")
    context.add_init_script(FAKE_AUDIO)  # headless Chromium has no speakers: count the tones instead
    try:
        # Long names (up to the 20-character limit) on the bottom, the top, the sides and the diagonals.
        names = [
            "Maximilien-Alexandre",
            "Anne-Charlotte",
            "Jean-Baptiste",
            "Dan",
            "Wolfgang Amadeus Moz",
            "Fatou",
            "Marie-Bénédicte",
            "Hélène",
        ]
        phones = [join(live_server, s, n) for s, n in enumerate(names)]
        screen = open_screen(context, live_server)
        page = screen.page
        assert screen.text("#join-title") == "Scannez pour jouer"  # the browser's language
        screen.wait("document.querySelectorAll('.seat.kind-human').length === 8")
        screen.assert_fits()
        assert_names_readable(screen)
        screen.shot(screenshot_dir, "lobby-8-fr")
        page.click("#start-slot .start-game")  # also the user gesture that lets the page make sound
        screen.wait_phase("sign")
        screen.assert_fits()
        assert_names_readable(screen)
        screen.shot(screenshot_dir, "sign-8")
        screen.wait_phase("play", timeout=10)  # nobody says ready: the sign phase times out (R11, R12)
        # The bottom seat emits while the random signs are told (R12): the burst leaves the notice line readable.
        assert phones[0].act("take_channel")["type"] == "ok"
        assert phones[0].act("choose_emoji", emoji="🎸")["type"] == "ok"
        screen.wait("document.querySelector('#fx .burst[data-seat=\"0\"]') !== null", timeout=5)
        assert page.evaluate("getComputedStyle(document.querySelector('#fx .burst-emoji')).animationName") == "fade"
        screen.freeze_fx(450)
        assert page.locator("#notices .notice:not([hidden])").count() >= 1
        covered = page.evaluate(
            """() => {
              const b = document.querySelector('#fx .burst').getBoundingClientRect();  // its centre
              const emoji = document.querySelector('#fx .burst-emoji').getBoundingClientRect();
              const r = Math.max(120, emoji.width / 2, emoji.height / 2);  // the ring at rest (240 px) or the emoji
              const out = [];
              for (const n of document.querySelectorAll('#notices .notice:not([hidden])')) {
                const q = n.getBoundingClientRect();
                if (b.left - r < q.right && q.left < b.left + r && b.top - r < q.bottom && q.top < b.top + r)
                  out.push([n.textContent, JSON.stringify(q), JSON.stringify(b), r]);
              }
              return out;
            }"""
        )
        assert covered == [], f"the burst covers the notices: {covered}"
        screen.assert_fits()
        assert_names_readable(screen)
        screen.shot(screenshot_dir, "play-8")
        screen.thaw_fx()
        screen.wait("document.querySelector('#clock-box').classList.contains('amber')", timeout=15)
        screen.wait("getComputedStyle(document.querySelector('#clock')).color === 'rgb(255, 176, 0)'", timeout=2)
        assert re.fullmatch(r"0:0[0-3]", screen.text("#clock"))
        screen.wait("document.querySelector('.sentence.end-void') !== null", timeout=5)
        # The words follow the table's clock (here every duration × 0.07): not the rules' default three minutes.
        length = round(screen.view()["timing"]["round_length"])
        assert screen.text(".sentence") == f"{length} secondes sans annonce : manche nulle — aucun point"
        ticks = page.evaluate("window.__tones.filter(([f, type]) => f === 440 && type === 'triangle').length")
        assert ticks >= 2, "a soft tick in the round's last seconds"
        assert page.locator(".seat .hand .card").count() == 32  # every hand turned over (R26)
        time.sleep(0.7)  # the reveal's fade (reduced motion: 0.6 s)
        screen.assert_fits()
        assert_names_readable(screen)
        screen.shot(screenshot_dir, "void-8")
        assert screen.errors == []
    finally:
        context.close()
