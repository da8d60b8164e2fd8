"""A first-time table learns Quatro from the app itself, across the TV page and real phone pages of one real
game (the coach, the help sheet, the attract loop, the round's story, the recap, the practice round).

* A phone that never played (a fresh browser context) at 390×844, 360×640 and 844×390 (turned sideways), in
  English and French, sees each coach hint at its moment in a real game: the sign phase, the first play, the first
  cooldown, the channel, its partner flashing the team's sign (a socket phone), an opponent's repeated flash, a
  call; no bubble lies over the hand or the centre. A dismissed hint stays dismissed after a reload.
* The help sheet opens and closes during play: the same hand, the same socket, and the table went on meanwhile.
* The TV's attract loop runs in the lobby (what is drawn changes), stops when the game starts, and is replayed
  from the host's pause and from the pause between rounds.
* The reveal's story at 4 and 8 seats, on the TV and on a phone page: exactly the round's emissions, each marked
  sign or decoy, as the server recorded them (R39: nothing of it before the round ends).
* Game over at 4 and 8 seats: the recap of every round and the awards, on the TV and on a phone page (R34).
* A practice round scores nothing, and the game after it starts at 0–0 on every screen.

Screenshots: ``screenshots/qa-first-*.png``.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from quatro_party.server.botstub import StubBot

from .phone_helpers import hold, seat_phones
from .qa_helpers import (
    PUBLIC,
    SIZES,
    close_panel,
    open_panel,
    open_tv,
    ready_pages,
    socket_phone,
    start_on_tv,
    tv_shot,
)
from .screen_helpers import recorded_marks, story_marks

# (hint, words it says in en / fr)
WORDS = {
    "sign": ("everybody sees your flashes", "tout le monde voit ce que tu émets"),
    "hand": ("Tap one of yours", "Touche une des tiennes"),
    "cooldown": ("After a swap you wait", "Après un échange, tu attends"),
    "channel": ("Take the channel", "Prends la main"),
    "partner_sign": ("your sign", "votre signe"),
    "contre": ("keeps flashing", "fait sans cesse"),
    "one_call": ("One call ends the round", "La première annonce termine la manche"),
}

#: The hint bubble is on the screen, its words fit in it, and it leaves the cards in play in sight (lying over the
#: seat strip instead, its control glowing, where no place beside the control would).
FITS = """() => {
  const b = document.querySelector('.coach');
  if (!b || b.hidden) return ['no bubble'];
  const bad = [];
  const r = b.getBoundingClientRect();
  if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) bad.push('off the screen');
  for (const e of b.querySelectorAll('.coach-text, .coach-ok, .coach-label'))
    if (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1) bad.push('overflow ' + e.className);
  for (const id of ['hand-zone', 'centre']) {
    const z = document.getElementById(id);
    if (!z || !z.getClientRects().length) continue;
    const q = z.getBoundingClientRect();
    if (r.left < q.right - 1 && q.left < r.right - 1 && r.top < q.bottom - 1 && q.top < r.bottom - 1) bad.push('covers #' + id);
  }
  if (b.dataset.side === 'over' && b.dataset.hint !== 'sign' && !document.querySelector('.coach-target'))
    bad.push('over the strip, but its control does not glow');
  return bad;
}"""


def hint_shows(page, key: str, lang: str, timeout: float = 15000) -> None:
    bubble = page.locator(f'.coach[data-hint="{key}"]')
    expect(bubble).to_be_visible(timeout=timeout)
    said = bubble.locator(".coach-text").inner_text().replace("\xa0", " ")
    assert WORDS[key][0 if lang == "en" else 1].lower() in said.lower(), (key, said)
    page.wait_for_timeout(300)  # the fade-in
    assert page.evaluate(FITS) == [], key


def dismiss(page, key: str) -> None:
    page.locator(f'.coach[data-hint="{key}"] .coach-ok').tap()
    expect(page.locator(f'.coach[data-hint="{key}"]')).to_have_count(0)


def emitted(client, seat: int, emoji: str, timeout: float = 15) -> None:
    client.expect(
        lambda m: (
            m.get("type") == "state"
            and any(e["type"] == "emitted" and e["seat"] == seat and e["emoji"] == emoji for e in m["events"])
        ),
        timeout=timeout,
    )


@pytest.mark.live_server(seats=4, public_host=PUBLIC, time_scale=0.6)
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_phone_that_never_played_sees_each_hint_at_its_moment_in_a_real_game(
    live_server, screenshot_dir, phone_page, lang, size
):
    ana = phone_page(live_server, 0, "Ana", size=SIZES[size], lang=lang, fresh=True)
    page = ana.page
    others = seat_phones(live_server, {1: "Bruno", 2: "Chloé", 3: "Dora"})
    assert live_server.screen().host("start_game")["type"] == "ok"
    expect(page.locator("#screen-sign")).to_be_visible()
    tag = f"{lang}-{size}"
    # the sign phase
    hint_shows(page, "sign", lang)
    ana.shot(screenshot_dir, f"first-coach-sign-{tag}")
    dismiss(page, "sign")
    page.reload()  # a dismissed hint stays dismissed
    expect(page.locator("#screen-sign")).to_be_visible()
    page.wait_for_timeout(600)
    expect(page.locator(".coach")).to_have_count(0)
    view = others[1].wait_state(lambda v: v["phase"] == "sign")
    partner = view["seats"][0]["team"]
    seat_of = {s["seat"]: s["team"] for s in view["seats"]}
    mate = next(s for s, t in seat_of.items() if t == partner and s != 0)
    rival = next(s for s, t in seat_of.items() if t != partner)
    ready_pages([ana], list(others.values()))
    # the first play: the hand and the centre
    hint_shows(page, "hand", lang)
    ana.shot(screenshot_dir, f"first-coach-hand-{tag}")
    dismiss(page, "hand")
    # the first swap: the cooldown
    page.locator("#hand .card").first.tap()
    page.locator("#centre .card").first.tap()
    hint_shows(page, "cooldown", lang)
    ana.shot(screenshot_dir, f"first-coach-cooldown-{tag}")
    dismiss(page, "cooldown")
    # the channel (it waits for the next frame: an opponent's swap, say)
    others[rival].act("take_channel")
    hint_shows(page, "channel", lang)
    ana.shot(screenshot_dir, f"first-coach-channel-{tag}")
    dismiss(page, "channel")
    # the partner flashes the team's sign
    sign = others[mate].wait_state(lambda v: v["phase"] == "play")["you"]["sign"]
    assert others[mate].act("take_channel")["type"] == "ok"
    assert others[mate].act("choose_emoji", emoji=sign)["type"] == "ok"
    emitted(others[mate], mate, sign)
    hint_shows(page, "partner_sign", lang)
    assert sign in page.locator(".coach .coach-text").inner_text()
    ana.shot(screenshot_dir, f"first-coach-partner-sign-{tag}")
    dismiss(page, "partner_sign")
    assert others[mate].act("release_channel")["type"] in ("ok", "refused")
    # an opponent flashes the same emoji again and again
    decoy = next(e for e in view["signs"] if e != sign)
    assert others[rival].act("choose_emoji", emoji=decoy)["type"] == "ok"
    emitted(others[rival], rival, decoy)
    emitted(others[rival], rival, decoy)
    hint_shows(page, "contre", lang)
    ana.shot(screenshot_dir, f"first-coach-contre-{tag}")
    dismiss(page, "contre")
    # a call ends the round
    assert others[rival].act("call_contre", team=partner)["type"] == "ok"
    expect(page.locator("#screen-reveal")).to_be_visible()
    hint_shows(page, "one_call", lang)
    ana.shot(screenshot_dir, f"first-coach-one-call-{tag}")
    dismiss(page, "one_call")
    seen = json.loads(page.evaluate("localStorage.getItem('quatro.coach.seen')"))
    assert set(WORDS) <= set(seen)
    assert ana.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_help_sheet_opens_and_closes_during_play_with_the_hand_and_the_socket_kept(
    live_server, tv_context, screenshot_dir, phone_page
):
    ana, bruno = phone_page(live_server, 0, "Ana"), socket_phone(live_server, 1, "Bruno")
    page = ana.page
    tv = open_tv(tv_context, live_server)
    start_on_tv(tv, [ana], [bruno])
    live_server.table.set_position("AAKQ KKJJ QQJT TTJK | AAQT")
    expect(page.locator("#hand .card .rank")).to_have_text(["A", "A", "K", "Q"])
    page.evaluate("() => { window.__ws = window.quatroLink.ws; }")
    page.locator("#help").tap()
    expect(page.locator("#help-sheet")).to_be_visible()
    # the table goes on under the sheet: Bruno swaps a card with the centre
    mine = bruno.wait_state(lambda v: v["phase"] == "play" and v["you"]["hand"][0]["rank"] == "K")
    centre = mine["centre"]
    card = mine["you"]["hand"][0]
    assert bruno.act("swap", card=card["id"], place=0, expected=centre[0]["id"])["type"] == "ok"
    ana.shot(screenshot_dir, "first-help-open")
    tv.wait("window.quatroScreen.view.seats[0].connected === true")
    page.locator("#help-close").tap()
    expect(page.locator("#help-sheet")).to_have_count(0)
    expect(page.locator("#hand .card .rank")).to_have_text(["A", "A", "K", "Q"])
    expect(page.locator("#centre .card .rank").first).to_have_text(card["rank"])  # what changed meanwhile
    assert page.evaluate("window.quatroLink.ws === window.__ws && window.quatroLink.online")
    assert live_server.summary()["view"]["seats"][0]["connected"] is True
    ana.shot(screenshot_dir, "first-help-closed")
    assert ana.errors == [] and tv.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_help_sheet_shows_the_rules_inside_it_during_play(live_server, screenshot_dir, phone_page):
    ana = phone_page(live_server, 0, "Ana")
    others = seat_phones(live_server, {1: "Bruno", 2: "Chloé", 3: "Dora"})
    assert live_server.screen().host("start_game")["type"] == "ok"
    ready_pages([ana], list(others.values()))
    ana.page.locator("#help").tap()
    expect(ana.page.locator("#help-sheet")).to_be_visible()
    expect(ana.page.locator("#help-rules article")).to_contain_text("Quatro")  # the host's /rules, in the sheet
    ana.shot(screenshot_dir, "first-help-rules")
    assert ana.errors == []


ATTRACT = "document.querySelector('#attract .attract-root') ? document.querySelector('#attract').innerText : ''"


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_tv_attract_loop_runs_stops_at_the_game_and_replays_from_the_pause(
    live_server, tv_context, screenshot_dir, phone_page
):
    ana, bruno = phone_page(live_server, 0, "Ana"), socket_phone(live_server, 1, "Bruno")
    tv = open_tv(tv_context, live_server)
    tv.wait("document.querySelector('#attract .attract-root') !== null")
    drawn = [tv.page.evaluate(ATTRACT)]
    tv_shot(tv, screenshot_dir, "first-attract-1")
    for n in (2, 3):
        tv.wait(f"({ATTRACT}) !== {drawn[-1]!r}", timeout=20)  # what is drawn changes over time
        tv.page.wait_for_timeout(700)
        drawn.append(tv.page.evaluate(ATTRACT))
        tv_shot(tv, screenshot_dir, f"first-attract-{n}")
    assert len(set(drawn)) == 3
    tv.page.click("#start-slot .start-game")
    tv.wait_phase("sign")
    tv.wait("document.querySelector('#attract').hidden && !document.querySelector('#attract .attract-root')")
    ready_pages([ana], [bruno])
    # the host pauses: the loop can be replayed from the pause card
    open_panel(tv)
    tv.page.click("#panel .pause-game")
    tv.wait("!document.querySelector('#paused').hidden")
    close_panel(tv)
    tv.page.click("#paused .how-to")
    tv.wait("document.querySelector('#attract .attract-root') !== null")
    replay = tv.page.evaluate(ATTRACT)
    tv.wait(f"({ATTRACT}) !== {replay!r}", timeout=20)  # it runs, not a still picture
    tv_shot(tv, screenshot_dir, "first-attract-replay-paused")
    expect(ana.page.locator("#paused-bar")).to_be_visible()
    # skip it, resume: the game is where it was
    skip = tv.page.locator("#attract .att-skip")
    if skip.count():
        skip.click()
    tv.wait("!document.querySelector('#attract .attract-root')", timeout=5)
    tv.page.click("#paused .resume")
    tv.wait("document.querySelector('#paused').hidden")
    assert live_server.summary()["view"]["phase"] == "play"
    # and from the pause between rounds
    assert bruno.act("call_contre", team=0)["type"] == "ok"
    tv.wait_phase("pause")
    tv.page.click("#corner .how-to")
    tv.wait("document.querySelector('#attract .attract-root') !== null")
    tv.page.wait_for_timeout(1200)
    tv_shot(tv, screenshot_dir, "first-attract-replay-between-rounds")
    assert tv.errors == [] and ana.errors == []


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
    picker = ana.page.locator(f'#modal [data-action="team-{target}"]')
    if picker.count():
        picker.first.tap()
    tv.wait_phase("pause")
    story = server.summary()["view"]["result"]["story"]["events"]
    emits = [e for e in story if e["kind"] == "emit" and e["seat"] == 1]
    assert [(e["emoji"], e["sign"]) for e in emits][:2] == [(decoy, False), (sign, True)]
    assert any(e["kind"] == "call" and e["seat"] == 0 for e in story)
    tv.wait("document.querySelector('.story') !== null", timeout=15)
    assert sorted(story_marks(tv.page), key=str) == sorted(recorded_marks(story), key=str)
    assert tv.page.locator(".story-row").count() == seats
    tv.page.wait_for_timeout(600)
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
    tv.page.wait_for_timeout(900)
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
def test_the_attract_loop_leaves_the_real_seat_plates_clear(live_server, tv_context):
    tv = open_tv(tv_context, live_server)
    tv.wait("document.querySelector('#attract .att-plate') !== null")
    tv.page.wait_for_timeout(1500)
    assert tv.overlaps("#attract .att-plate, #attract .att-card", ".seat") == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC, bot_factory=StubBot)
def test_the_practice_rounds_reveal_says_in_words_that_nobody_scores(live_server, phone_page):
    import re

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


def test_the_tvs_game_over_card_leaves_the_plates_clear(live_server_factory, tv_context, phone_page):
    from .screen_helpers import self_check

    server = live_server_factory(seats=4, public_host=PUBLIC, bot_factory=StubBot)
    ana, tv = play_to_game_over(server, phone_page, tv_context, 4)
    tv.page.click("#over .tab-scores")
    tv.wait("document.querySelector('#over .final-scores') !== null")
    tv.page.wait_for_timeout(900)
    assert self_check(tv.page) == []
