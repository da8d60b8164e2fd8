"""The big screen's moments: calls, votes, swaps and emissions seen from the sofa, in a real Chromium.

* Drawing only what changed: a swap leaves every other seat's plate and every other place as the same nodes.
* A splash for every call: a right Quatro!, a false Quatro! and a Contre!, each naming the caller, each with its
  own sound for right and wrong.
* The reshuffle vote's tally as the answers arrive, then who refused (R28).
* An emission's burst leaves the emitter's name readable, at every seat of an 8-seat table (R18).
Rules cited: R14 (public swaps), R18 (emissions), R22 (Quatro!), R24 (Contre!), R26 (the round ends), R28 (vote).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from quatro_party.server.testing import LiveServer

from .screen_helpers import ScreenPage

PUBLIC = "party.test"
NAMES = ["Ana", "Bruno", "Chloé", "Dan", "Eve", "Farid", "Gaïa", "Hugo"]

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


def seated(server: LiveServer, count: int) -> list[Any]:
    phones = []
    for seat in range(count):
        p = server.phone()
        p.join(seat, NAMES[seat])
        phones.append(p)
    return phones


def open_tv(context: Any, server: LiveServer) -> ScreenPage:
    screen = ScreenPage(context, server.screen_url(host=True))
    screen.wait("document.body.dataset.phase && document.body.dataset.phase !== 'loading'")
    return screen


def to_play(phones: list[Any], rnd: int = 1) -> None:
    for p in phones:
        p.wait_state(lambda v: v["phase"] == "sign" and v["round"] == rnd)
        assert p.act("ready")["type"] == "ok"
    for p in phones:
        p.wait_state(lambda v: v["phase"] == "play" and v["round"] == rnd)


@pytest.mark.live_server(seats=4, public_host=PUBLIC)
def test_r14_a_swap_redraws_only_its_seat_and_its_place(live_server, tv_context, screenshot_dir):
    """R14: a state that changes one swap leaves the other seats' plates and the other places untouched — the
    same DOM nodes, no re-creation, no mutation — while the swapper's plate and the place get a brief highlight."""
    phones = seated(live_server, 4)
    screen = open_tv(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    to_play(phones)
    screen.wait_phase("play")
    page.wait_for_timeout(600)  # the opening notices settle
    page.evaluate(
        """() => {
          window.__nodes = [...document.querySelectorAll('#seats *, #seats .seat, #places *')];
          window.__mutated = [];
          window.__observer = new MutationObserver((records) => {
            for (const r of records) window.__mutated.push(r.target);
          });
          for (const root of [document.querySelector('#seats'), document.querySelector('#places')])
            window.__observer.observe(root, {subtree: true, childList: true, attributes: true, characterData: true});
        }"""
    )
    view = phones[1].wait_state(lambda v: v["phase"] == "play")
    card = view["you"]["hand"][0]
    assert phones[1].act("swap", card=card["id"], place=2, expected=view["centre"][2]["id"])["type"] == "ok"
    screen.wait(f"document.querySelector('#places .card[data-place=\"2\"]').dataset.card === '{card['id']}'")
    page.wait_for_timeout(300)
    report = page.evaluate(
        """() => {
          const plate = document.querySelector('.seat[data-seat="1"]');
          const place = document.querySelector('#places .card[data-place="2"]');
          const mine = (n) => plate.contains(n) || place.contains(n);
          const strays = window.__mutated.filter((n) => !mine(n))
            .map((n) => (n.nodeType === 1 ? n.className : n.parentElement.className));
          const replaced = window.__nodes.filter((n) => !n.isConnected).map((n) => n.className);
          const now = [...document.querySelectorAll('#seats *, #seats .seat, #places *')];
          const added = now.filter((n) => !window.__nodes.includes(n)).map((n) => n.className);
          return {strays, replaced, added, swapping: plate.classList.contains('swapping'),
                  marked: place.classList.contains('just-swapped'), mutated: window.__mutated.length};
        }"""
    )
    assert report["strays"] == [], f"other seats or places changed: {report['strays']}"
    assert report["replaced"] == [] and report["added"] == [], report
    assert report["mutated"] > 0  # the place did change (its card), and the plate got its highlight
    assert report["swapping"] and report["marked"], report
    screen.shot(screenshot_dir, "swap-mark")
    assert screen.errors == []


def splash_of(screen: ScreenPage) -> dict[str, Any]:
    screen.wait("!document.querySelector('#splash').hidden", timeout=5)
    return screen.page.evaluate(
        """() => ({word: document.querySelector('.splash-word').textContent,
                   who: document.querySelector('.splash-who').textContent,
                   verdict: document.querySelector('.splash-verdict').textContent,
                   cls: document.querySelector('#splash').className})"""
    )


@pytest.mark.live_server(seats=4, public_host=PUBLIC)
def shot_splash(screen: ScreenPage, folder: Any, name: str) -> None:
    """The splash at its height (0.7 s in), whatever the machine's frame rate, then let it run on."""
    page = screen.page
    page.evaluate(
        "() => { for (const a of document.querySelector('#splash').getAnimations({subtree: true})) {"
        " a.currentTime = 700; a.pause(); } }"
    )
    screen.shot(folder, name)
    page.evaluate(
        "() => { for (const a of document.querySelector('#splash').getAnimations({subtree: true})) a.play(); }"
    )


def test_r22_r24_every_call_has_its_splash_with_the_callers_name(live_server, chromium, screenshot_dir):
    """R22, R24, R26: a right Quatro!, a false Quatro! and a Contre! each show the splash with the caller's name
    and whom it was on, and a right call and a wrong one sound different."""
    context = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US")
    context.add_init_script(FAKE_AUDIO)
    try:
        phones = seated(live_server, 4)
        screen = open_tv(context, live_server)
        page = screen.page
        page.click("#start-slot .start-game")  # also the gesture that lets the page make sound
        table = live_server.table

        # Round 1: Ana's partner Chloé holds four kings — a right Quatro!
        to_play(phones, 1)
        table.set_position("AQJT AQJT KKKK AQJT | AQJT")
        phones[0].wait_state(lambda v: v["phase"] == "play" and v["you"]["hand"][0]["rank"] == "A")
        tones = page.evaluate("window.__tones.length")
        assert phones[0].act("call_quatro")["type"] == "ok"
        s = splash_of(screen)
        assert s["word"] == "QUATRO!" and s["who"] == "Ana → Chloé" and s["verdict"] == "✓ Right!", s
        assert "right" in s["cls"]
        shot_splash(screen, screenshot_dir, "splash-quatro-right")
        right = page.evaluate("(n) => window.__tones.slice(n)", tones)
        freqs = [f for f, _ in right]
        assert any(freqs[i : i + 3] == [784, 988, 1319] for i in range(len(freqs))), right  # the fanfare
        assert all(kind != "sawtooth" for _, kind in right), right
        screen.wait("document.querySelector('#splash').hidden", timeout=5)  # short: gone by itself
        page.click(".next-round")

        # Round 2: nobody holds a carré — Ana's Quatro! is false.
        to_play(phones, 2)
        table.set_position("AQJT AQJT KQJT AQJT | AKKK")
        phones[0].wait_state(lambda v: v["phase"] == "play" and v["you"]["hand"][0]["rank"] == "A")
        tones = page.evaluate("window.__tones.length")
        assert phones[0].act("call_quatro")["type"] == "ok"
        s = splash_of(screen)
        assert s["word"] == "QUATRO!" and s["who"] == "Ana → Chloé" and s["verdict"] == "✗ Wrong!", s
        shot_splash(screen, screenshot_dir, "splash-quatro-wrong")
        wrong = page.evaluate("(n) => window.__tones.slice(n)", tones)
        assert [330, "sawtooth"] in wrong and [1319, "sine"] not in wrong, wrong  # a low buzz, not the fanfare
        screen.wait("document.querySelector('#splash').hidden", timeout=5)
        page.click(".next-round")

        # Round 3: Bruno calls Contre! on team Blue.
        to_play(phones, 3)
        assert phones[1].act("call_contre", team=0)["type"] == "ok"
        s = splash_of(screen)
        assert s["word"] == "CONTRE!" and s["who"] == "Bruno → team Blue\u00a0●", s
        shot_splash(screen, screenshot_dir, "splash-contre")
        # In French the colour agrees with "l’équipe": "l’équipe bleue ●", not "l’équipe Bleu ●".
        screen.wait("document.querySelector('#splash').hidden", timeout=5)
        page.select_option("#lang", "fr")
        screen.wait("document.querySelector('.sentence').textContent.startsWith('Bruno a annoncé Contre\u00a0!')")
        assert "sur l’équipe bleue\u00a0●" in screen.text(".sentence")
        assert screen.text_colour(".sentence", "●") == "rgb(86, 135, 213)"  # the shape still wears the colour
        page.select_option("#lang", "en")
        shown = page.evaluate("window.quatroScreen.splashes.map((s) => [s.kind, s.correct, s.caller])")
        assert shown[:2] == [["quatro", True, "Ana"], ["quatro", False, "Ana"]] and shown[2][::2] == ["contre", "Bruno"]
        assert screen.errors == []
    finally:
        context.close()


@pytest.mark.live_server(seats=4, public_host=PUBLIC)
def test_r22_under_reduced_motion_the_splash_only_fades(live_server, chromium):
    """R22: with prefers-reduced-motion the call's splash is still shown, for as long, with a fade and no zoom."""
    context = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US", reduced_motion="reduce")
    try:
        phones = seated(live_server, 4)
        screen = open_tv(context, live_server)
        screen.page.click("#start-slot .start-game")
        to_play(phones, 1)
        assert phones[0].act("call_quatro")["type"] == "ok"
        s = splash_of(screen)
        assert s["word"] == "QUATRO!" and s["who"] == "Ana → Chloé" and "fade" in s["cls"]
        motion = screen.page.evaluate(
            """() => [...document.querySelector('#splash').getAnimations({subtree: true})].map((a) =>
                 [a.animationName, a.effect.getComputedTiming().duration,
                  a.effect.getKeyframes().some((k) => k.transform && k.transform !== 'none')])"""
        )
        assert motion and all(name == "splash-fade" and ms >= 1500 and not moves for name, ms, moves in motion), motion
        assert screen.errors == []
    finally:
        context.close()


@pytest.mark.live_server(seats=4, public_host=PUBLIC)
def test_r28_the_vote_tally_shows_each_answer_as_it_arrives(live_server, tv_context, screenshot_dir):
    """R28: who asked, who said yes, who is still to answer, the time left; then who said no."""
    phones = seated(live_server, 4)
    screen = open_tv(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    to_play(phones)
    screen.wait_phase("play")
    assert phones[2].act("request_reshuffle")["type"] == "ok"
    screen.wait("!document.querySelector('#vote').hidden")
    tally = lambda: page.evaluate(  # noqa: E731
        "[...document.querySelectorAll('#vote .voter')].map((c) => [c.textContent, c.className.split(' ')[1]])"
    )
    assert screen.text("#vote .vote-ask") == "🔀 Chloé asks to reshuffle — vote on your phones"
    assert tally() == [["…Ana", "wait"], ["…Bruno", "wait"], ["…Dan", "wait"]]
    assert phones[0].act("answer_vote", accept=True)["type"] == "ok"
    screen.wait("document.querySelector('#vote .voter.yes') !== null")
    assert tally() == [["✓Ana", "yes"], ["…Bruno", "wait"], ["…Dan", "wait"]]
    assert phones[1].act("answer_vote", accept=True)["type"] == "ok"
    screen.wait("document.querySelectorAll('#vote .voter.yes').length === 2")
    assert tally() == [["✓Ana", "yes"], ["✓Bruno", "yes"], ["…Dan", "wait"]]
    assert re.fullmatch(r"\d+ s", screen.text("#vote .vote-left"))  # the seconds alone, no stray separator
    screen.shot(screenshot_dir, "vote-tally")
    assert phones[3].act("answer_vote", accept=False)["type"] == "ok"
    screen.wait("document.querySelector('#vote.ended') !== null")
    assert screen.text("#vote .vote-ask") == "Reshuffle refused: Dan said no"
    assert tally() == [["✓Ana", "yes"], ["✓Bruno", "yes"], ["✗Dan", "no"]]
    screen.shot(screenshot_dir, "vote-refused")
    assert screen.errors == []


@pytest.mark.live_server(seats=8, public_host=PUBLIC, time_scale=0.4)
def test_r18_a_burst_leaves_the_emitters_name_readable_at_every_seat(live_server, tv_context, screenshot_dir):
    """R18: at 8 seats each seat emits; no burst's ring (240 px) covers its emitter's name."""
    phones = seated(live_server, 8)
    screen = open_tv(tv_context, live_server)
    page = screen.page
    page.evaluate(
        """() => {
          window.__bursts = {};
          new MutationObserver(() => {
            for (const b of document.querySelectorAll('#fx .burst')) {
              if (window.__bursts[b.dataset.seat]) continue;
              const c = b.getBoundingClientRect();
              const n = document.querySelector(`.seat[data-seat="${b.dataset.seat}"] .name`).getBoundingClientRect();
              const r = 120;
              const dx = Math.max(n.left - c.left, 0, c.left - n.right);
              const dy = Math.max(n.top - c.top, 0, c.top - n.bottom);
              window.__bursts[b.dataset.seat] = Math.hypot(dx, dy) >= r ? 'clear' : 'covers ' + Math.round(Math.hypot(dx, dy));
            }
          }).observe(document.querySelector('#fx'), {childList: true});
        }"""
    )
    page.click("#start-slot .start-game")
    to_play(phones)
    for p, emoji in zip(phones, ["🦊", "🐙", "🌵", "🍉", "🎸", "🦄", "🐝", "🍄"]):
        assert p.act("take_channel")["type"] == "ok"
        assert p.act("choose_emoji", emoji=emoji)["type"] == "ok"
    screen.wait("Object.keys(window.__bursts).length === 8", timeout=15)
    screen.shot(screenshot_dir, "bursts-8")
    assert page.evaluate("window.__bursts") == {str(s): "clear" for s in range(8)}
    assert screen.errors == []
