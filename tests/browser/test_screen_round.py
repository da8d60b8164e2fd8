"""A round on the TV, in a real Chromium against the real host, with bots and socket phones: the sign phase, the
re-deal notice, play with a swap and an emission, a Quatro! and its reveal, and a void round at eight seats in
French under reduced motion.

Screenshots at 1920×1080: ``screenshots/screen-<phase>.png``.
Rules cited: R6/R12 (notices), R8, R11 (ready), R14 (swaps are public), R17–R18 (channel, emissions), R22–R26 (calls
and the reveal), R32 (pause, next round, a void round).
"""

from __future__ import annotations

import re

import pytest

from quatro_party.server.botstub import make_bot as make_stub

from .screen_helpers import (
    TV,
    assert_names_readable,
    join,
    open_screen,
    to_play,
    without_sign_list,
)

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


@pytest.mark.live_server(seats=4, public_host=PUBLIC)
def test_sign_phase_shows_who_is_ready_and_the_countdown_never_the_sign(live_server, tv_context, screenshot_dir):
    """R8, R11, R12: who is ready and the countdown (60 s: a game's first sign phase); the sign never shows."""
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
    assert 55 <= count <= 60
    assert re.fullmatch(r"0:5\d|1:00", screen.text("#clock"))
    if count != 55:
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


# Stand-in bots that swap but never call: a real bot may crack the sign of the partner holding four kings and end the
# round with a Contre! before Ana's Quatro! (it did on a loaded machine, where the steps below take seconds).
@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=make_stub)
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
        # Her 10, a card no bot wants: the stub bots collect the rank they hold most of, and seat 3's tie goes to
        # the queen; given the queen, seat 3 could take it from place 0 before the screen showed it.
        card = next(c for c in view["you"]["hand"] if c["rank"] == "10")
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
    screen.at_rest(1.0)  # the reveal's animation, for the picture
    screen.assert_fits()
    screen.shot(screenshot_dir, "reveal")

    # "team Blue ●": the shape wears the team's colour in the sentence, as everywhere else (not white).
    assert screen.text_colour(".sentence", "●") == "rgb(86, 135, 213)"

    # Switching the TV's language changes the words, it does not turn the hands over again.
    page.select_option("#lang", "fr")
    screen.wait("document.querySelector('.sentence').textContent.startsWith('Ana a annoncé Quatro\u00a0! sur ')")
    started = page.evaluate(
        """() => document.getAnimations().filter((a) => a.effect && a.effect.target &&
                     a.effect.target.matches('.seat')).map((a) => a.animationName || 'anim')"""
    )
    assert started == [], f"animations replayed on the plates: {started}"
    assert screen.text_colour(".sentence", "●") == "rgb(86, 135, 213)"
    page.select_option("#lang", "en")
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
        assert screen.text(".sentence") == f"{length} secondes sans annonce\u00a0: manche nulle — aucun point"
        ticks = page.evaluate("window.__tones.filter(([f, type]) => f === 440 && type === 'triangle').length")
        assert ticks >= 2, "a soft tick in the round's last seconds"
        assert page.locator(".seat .hand .card").count() == 32  # every hand turned over (R26)
        screen.at_rest(0.7)  # the reveal's fade (reduced motion: 0.6 s)
        screen.assert_fits()
        assert_names_readable(screen)
        screen.shot(screenshot_dir, "void-8")
        assert screen.errors == []
    finally:
        context.close()
