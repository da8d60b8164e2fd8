"""The big screen for a first-time table, with real sockets on the other seats:

* the lobby's demonstration is an inset — a framed example whose players never bear a seated player's name (they
  change the moment somebody sits down under one), with a score in words, not pills like the top bar's;
* the marker of a random sign is words, never one of the 24 signs (R12: "🎲" is a sign);
* the reshuffle vote counts down without a stray separator;
* a finished round keeps its players' names after a bot's seat is taken over between rounds (R26, R33), and the
  Contre! sentence names who held the carré;
* the host ending the game early says so, and who led, in English and French (R35);
* at 1536×864 (a 1920×1080 laptop at 125 %), 8 seats: no seat plate ever lies over a resting centre card, the
  reveal's sentence or its story, through play and the reveal.

Screenshots: ``screenshots/screen-first-<what>.png``.
"""

from __future__ import annotations

import re
import time
import unicodedata

import pytest

from quatro_party.server.botstub import StubBot

from .pictures import snap
from .screen_helpers import ScreenPage

PUBLIC = "party.test"


def key(name: str) -> str:
    """A name as the server compares names: no case, no accents, no extra spaces."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


#: The example's players and sentence, its frame and its score's look.
INSET = """() => {
  const box = document.querySelector('#attract');
  const score = box.querySelector('.att-score');
  const cs = score ? getComputedStyle(score) : null;
  return {
    names: [...box.querySelectorAll('.att-name')].map((e) => e.textContent),
    caption: box.querySelector('.att-caption').textContent,
    title: box.querySelector('.att-title').textContent,
    frame: getComputedStyle(box).borderTopStyle,
    pill: cs ? cs.borderTopStyle !== 'none' && parseFloat(cs.borderTopWidth) > 0 : null,
  };
}"""


def test_the_lobby_demonstration_is_a_framed_example_that_never_borrows_a_seated_name(
    live_server_factory, chromium, screenshot_dir
):
    server = live_server_factory(seats=4, public_host=PUBLIC)
    phones = {}
    for seat, name in enumerate(["Ana", "bruno", "CHLOÉ", "Dev"]):  # the example's own names, as people type them
        phones[seat] = server.phone()
        phones[seat].join(seat, name)
    context = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US")
    try:
        tv = ScreenPage(context, server.screen_url(host=True))
        tv.wait("document.querySelectorAll('#attract .att-name').length === 4")
        seated = lambda: [s["name"] for s in tv.view()["seats"] if s["kind"] != "empty"]  # noqa: E731
        got = tv.page.evaluate(INSET)
        assert got["frame"] == "dashed" and got["title"].startswith("Example")
        assert got["pill"] is False, "the example's score looks like the top bar's pills"
        taken = {key(n) for n in seated()}
        assert not {key(n) for n in got["names"]} & taken, (got["names"], seated())
        assert not any(key(n) in key(got["caption"]) for n in seated() if len(n) > 2), got["caption"]
        snap(tv.page, screenshot_dir / "screen-first-inset.png")
        # somebody sits down under a name the example shows right now: the example's player changes at once
        shown = got["names"][1]
        assert phones[1].act("leave")["type"] == "ok"
        newcomer = server.phone()
        newcomer.join(1, shown)
        tv.wait(f"window.quatroScreen.view.seats[1].name === {shown!r}")
        tv.wait(f"![...document.querySelectorAll('#attract .att-name')].some((e) => e.textContent === {shown!r})")
        names = tv.page.evaluate(INSET)["names"]
        assert not {key(n) for n in names} & {key(n) for n in seated()}, (names, seated())
        assert tv.errors == []
    finally:
        context.close()


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_r12_the_random_sign_marker_is_words_and_the_vote_counts_down_plainly(live_server, tv_context):
    """R12: nobody picked, both teams drew a sign: the marker names no emoji. R28: a vote's seconds, plainly."""
    ana, bruno = live_server.phone(), live_server.phone()
    ana.join(0, "Ana")
    bruno.join(1, "Bruno")
    tv = ScreenPage(tv_context, live_server.screen_url(host=True))
    host = live_server.screen()
    assert host.host("start_game")["type"] == "ok"
    for p in (ana, bruno):
        p.wait_state(lambda v: v["phase"] == "sign")
        assert p.act("ready")["type"] == "ok"
    tv.wait_phase("play")
    tv.wait("document.querySelectorAll('#scores .random-tag').length === 2")
    signs = tv.view()["signs"]
    tags = tv.page.locator("#scores .random-tag").all_inner_texts()
    assert all(tag.strip() for tag in tags), tags
    notice = tv.page.locator("#notice-list").inner_text()  # shown for a few seconds: maybe gone on a busy machine
    for text in [*tags, notice]:
        assert not any(s in text for s in signs), text
    assert bruno.act("request_reshuffle")["type"] == "ok"
    tv.wait(
        "!document.querySelector('#vote').hidden && /\\d/.test(document.querySelector('#vote .vote-left').textContent)"
    )
    assert re.fullmatch(r"\d+ s", tv.text("#vote .vote-left")), tv.text("#vote .vote-left")
    assert tv.errors == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_r26_the_reveal_keeps_its_players_and_the_host_ending_says_who_led(live_server_factory, chromium, lang):
    """R26, R33, R35: Bruno's Contre! cracks Chloé's carré; a newcomer takes the bot's seat between rounds: the
    sentence still names the round's own players; then the host ends the game at 1–0."""
    server = live_server_factory(seats=4, public_host=PUBLIC, bot_factory=StubBot)
    bruno, chloe = server.phone(), server.phone()
    bruno.join(1, "Bruno")
    chloe.join(2, "Chloé")
    host = server.screen()
    context = chromium.new_context(
        viewport={"width": 1920, "height": 1080}, locale="fr-FR" if lang == "fr" else "en-US"
    )
    try:
        tv = ScreenPage(context, server.screen_url(host=True))
        assert host.host("start_game")["type"] == "ok"
        for p in (bruno, chloe):
            p.wait_state(lambda v: v["phase"] == "sign")
            assert p.act("ready")["type"] == "ok"
        bruno.wait_state(lambda v: v["phase"] == "play")
        bot = host.wait_state(lambda v: v["phase"] == "play")["seats"][0]["name"]
        server.table.set_position("KQJT KQJT AAAA KQJT | KQJT")
        assert bruno.act("call_contre", team=0)["type"] == "ok"
        tv.wait_phase("pause")
        sentence = tv.text(".sentence")
        assert "Bruno" in sentence and "Chloé" in sentence, sentence  # who called, and who held the carré
        newcomer = server.phone()
        assert newcomer.join(0, "Dana")["type"] == "joined"  # the bot's seat, between rounds
        tv.wait("window.quatroScreen.view.seats[0].name === 'Dana'")
        assert tv.text(".sentence") == sentence
        assert host.host("end_game")["type"] == "ok"
        tv.wait_phase("over")
        said = [tv.text(f"#over {part}").replace("\xa0", " ") for part in (".over-title", ".over-winners")]
        if lang == "en":
            assert said == ["GAME OVER · THE HOST ENDED IT", "Orange ▲ led with 1 point"], said
        else:
            assert said == ["PARTIE TERMINÉE · ARRÊTÉE PAR L’HÔTE", "Orange ▲ menait avec 1 point"], said
        tv.wait("document.querySelector('#over .tab-story') !== null")
        tv.page.click("#over .tab-story")
        recap = tv.text("#over .recap")
        assert "Bruno" in recap and "Dana" not in recap and bot not in recap
        assert tv.errors == []
    finally:
        context.close()


#: Seat plates over what the middle of the table shows: the resting centre cards (a card flying between a seat and
#: its place, R14, is meant to cross a plate), the reveal's sentence and the story.
PLATE_OVER = """() => {
  const moving = (el) => document.getAnimations().some((a) => a.playState === 'running' && a.effect && a.effect.target
    && (a.effect.target === el || a.effect.target.contains(el)));
  const middle = [...document.querySelectorAll('#places .card, #centre .sentence, #below .story')]
    .filter((e) => e.getBoundingClientRect().width && !moving(e));
  const out = [];
  for (const s of document.querySelectorAll('.seat')) {
    const p = s.getBoundingClientRect();
    for (const c of middle) {
      const q = c.getBoundingClientRect();
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left), h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (w > 2 && h > 2) out.push(`seat ${s.dataset.seat} over ${c.className} (${Math.round(100 * w * h / (q.width * q.height))} %)`);
    }
  }
  return out;
}"""

NAMES8 = {0: "Maximilien-Alexandre", 3: "Marie-Bénédicte Roux", 4: "Wolfgang Amadeus Moz"}


@pytest.mark.timeout(240)
@pytest.mark.parametrize("dpr", [1, 1.25])
def test_r26_at_1536x864_no_plate_covers_the_middle_of_eight_seats_in_play_or_at_the_reveal(
    live_server_factory, chromium, screenshot_dir, dpr
):
    """R14, R26: 8 seats, long names, bots swapping; sampled every 100 ms through 4 s of play and 9 s of the
    reveal (the hands at the plates, then the story)."""
    server = live_server_factory(seats=8, public_host=PUBLIC, bot_factory=StubBot)
    phones = {}
    for seat, name in NAMES8.items():
        phones[seat] = server.phone()
        phones[seat].join(seat, name)
    host = server.screen()
    context = chromium.new_context(viewport={"width": 1536, "height": 864}, device_scale_factor=dpr, locale="en-US")
    try:
        tv = ScreenPage(context, server.screen_url(host=True))
        assert host.host("start_game")["type"] == "ok"
        for p in phones.values():
            p.wait_state(lambda v: v["phase"] == "sign")
            assert p.act("ready")["type"] == "ok"
        tv.wait_phase("play")
        found: list[str] = []

        def sample(seconds: float, what: str) -> None:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                found.extend(f"{what}: {o}" for o in tv.page.evaluate(PLATE_OVER))
                tv.page.wait_for_timeout(100)

        sample(4, "play")
        server.table.set_position("KKKQ QQJJ JJTT TT99 AAAA 9988 8877 7766 | 66KQ")
        phones[0].wait_state(lambda v: v["phase"] == "play" and v["you"]["hand"][0]["rank"] == "K")
        assert phones[0].act("call_quatro")["type"] == "ok"
        tv.wait_phase("pause")
        sample(2, "reveal")
        snap(tv.page, screenshot_dir / f"screen-first-reveal8-1536x864@{dpr}.png")
        tv.wait("document.querySelector('#below .story') !== null", timeout=12)
        sample(1.5, "story")
        snap(tv.page, screenshot_dir / f"screen-first-story8-1536x864@{dpr}.png")
        assert found == [], "\n".join(sorted(set(found)))
        assert tv.errors == []
    finally:
        context.close()


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_host_panels_question_ignores_a_double_click_then_takes_a_deliberate_one(live_server, tv_context):
    """ "End the game now…" opens its question where the host just clicked: a second click at once (a double
    click, a double tap on a touch laptop) on "Yes" does nothing; a click a beat later ends the game. The page's
    clock is held still between the two clicks, so that "at once" holds on a busy machine too."""
    ana = live_server.phone()
    ana.join(0, "Ana")
    tv_context.clock.install()
    tv = ScreenPage(tv_context, live_server.screen_url(host=True))
    host = live_server.screen()
    assert host.host("start_game")["type"] == "ok"
    ana.wait_state(lambda v: v["phase"] == "sign")
    tv.wait_phase("sign")
    tv.page.click("#host-menu")
    tv.wait("!document.querySelector('#panel').hidden")
    page = tv.page
    page.clock.pause_at(page.evaluate("Date.now()") + 50)

    def click_at(selector: str) -> None:  # a plain click where the thing is, as a mouse makes it: no waiting
        box = page.locator(selector).bounding_box()
        assert box, f"{selector} is not on screen"
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    click_at("#panel .end-game")
    click_at("#panel .confirm-yes")  # the double click's second click
    page.wait_for_timeout(300)
    assert tv.view()["phase"] == "sign", "the second click of a double click ended the game"
    assert page.locator("#panel .confirm-yes").is_disabled()
    page.clock.run_for(800)  # a beat later
    page.clock.resume()
    page.click("#panel .confirm-yes")
    tv.wait_phase("over")
    assert tv.errors == []
