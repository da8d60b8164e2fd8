"""A whole round on a phone, played the way a screen reader user reaches it: every control found by its role and
accessible name (no CSS selector, no test id), every moment of the game read from what the page announces — the
partner's flash of the team's sign, an opponent's emoji flashed again, the call and its result (R17–R18, R22,
R26). The other seats are raw socket phones; the engine's test hook lays the cards out."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import phone_url
from .phone_helpers import round_result, seat_phones, set_position

#: Ana (seat 0, the page) swaps her queen for the centre's jack; her partner Chloé (seat 2) holds four aces.
POSITION = "KKKQ QQJT AAAA JJTT | KQJT"


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=0.4)
def test_r18_r22_r26_a_round_played_by_roles_and_heard_through_the_announcements(live_server, phone_context):
    page = phone_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(phone_url(live_server.port))

    # Join: a name, a seat.
    expect(page.get_by_role("heading", level=1)).to_have_text("Quatro Party")
    page.get_by_label("Your name").fill("Ana")
    page.get_by_role("button", name="Sit on seat 1 in team Blue ●").tap()
    # Seated before the game starts: a tap is only sent, and on a busy machine start_game came first and a bot
    # took the seat (seen once).
    expect(page.get_by_text("You are seated")).to_be_visible()
    others = seat_phones(live_server, {1: "Bruno", 2: "Chloé", 3: "Dora"})
    screen = live_server.screen()
    assert screen.host("start_game")["type"] == "ok"

    # The sign: a radio of the sign group, locked in; ready.
    expect(page.get_by_role("radiogroup", name="Choose your team sign")).to_be_visible()
    page.get_by_role("radio", name="🦊", exact=True).tap()
    page.get_by_role("button", name="Lock in 🦊").tap()
    page.get_by_role("button", name="I am ready").tap()
    for c in others.values():
        assert c.act("ready")["type"] == "ok"

    # Play: a swap, by the cards' names.
    quatro = page.get_by_role("button", name="Quatro: press and hold to call that your partner has a carré")
    expect(quatro).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text("Quatro Party")
    set_position(live_server, POSITION)
    page.get_by_role("button", name=re.compile(r"^Your card 4: Q")).tap()
    page.get_by_role("button", name=re.compile(r"^Centre place 3: J")).tap()
    expect(page.get_by_role("button", name=re.compile(r"^Your card 4: J"))).to_be_visible()

    # The table's moments, heard: the partner flashes the team's sign; an opponent flashes one emoji again and again.
    log = page.get_by_role("log", name="What happens at the table")
    others[2].wait_state(lambda v: v["phase"] == "play")
    assert others[2].act("take_channel")["type"] == "ok"
    assert others[2].act("choose_emoji", emoji="🦊")["type"] == "ok"
    expect(log).to_contain_text("Chloé, your partner, flashes your sign 🦊.")
    assert others[1].act("take_channel")["type"] == "ok"
    assert others[1].act("choose_emoji", emoji="🐙")["type"] == "ok"
    expect(log).to_contain_text("Bruno has flashed 🐙 2 times this round.", timeout=20000)

    # The call, without a hold (Enter on the focused button): the question, then the answer.
    quatro.focus()
    page.keyboard.press("Enter")
    question = page.get_by_role("dialog", name="Quatro!")
    expect(question).to_be_visible()
    question.get_by_role("button", name="Quatro!").tap()

    # The call and its result, said at once; the reveal is there to read.
    expect(page.get_by_role("alert")).to_have_text("Ana called Quatro! — Chloé had a carré. Blue ● scores.")
    assert round_result(others[1])["correct"] is True
    expect(page.get_by_role("heading", name="Quatro Party", level=1)).to_be_attached()
    assert errors == []
