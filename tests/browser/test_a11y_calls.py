"""The calls without a hold (R22–R24): a player who cannot press and hold — a screen reader user, whose double tap
the reader turns into a tap, or anyone with a keyboard — double-taps Quatro! or Contre!, or presses it with Enter.
That opens the question a hold would ask (R23's warning, the accused team) or a plain confirm; it never sends the
call by itself, and the question keeps the guard of a held call's: it opens once the finger has lifted, away from
the button, and the release that opened it answers nothing. Real touch events (Chromium's, through the DevTools
protocol), as in tests/browser/test_phone_calls_guard.py."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .phone_helpers import everybody_ready, game_with_page, latest_view, round_result, set_position
from .touch_helpers import Finger

#: Nobody holds a carré but the page's partner (seat 2): Ana's Quatro! is right.
PARTNER_CARRE = "KKKQ QQJT AAAA JJTT | KQJT"
#: The page's seat 0 holds a carré itself: a Quatro! of its own is R23's mistake.
OWN_CARRE = "AAAA KKJJ QQJT TTJK | KQQT"

#: Whether an answer of the open question lies under a point.
ANSWER_AT = """([x, y]) => { const hit = document.elementFromPoint(x, y);
  return !!(hit && hit.closest('#modal .modal-actions button')); }"""


def hold_the_clock(page: Any) -> None:
    """From now the page's clock moves only when the test moves it: "a double tap", "at once" and "a beat later"
    then mean the same on a starved machine, where two taps sent 120 ms apart reached the page over 800 ms apart
    (a tap, then another: no question) or a tap's two halves over a hold apart (a call)."""
    page.clock.pause_at(page.evaluate("Date.now()") + 50)


def double_tap(finger: Finger, x: float, y: float) -> None:
    """Two quick taps 120 ms apart on the page's held clock, then the release's settling (250 ms) run out."""
    finger.tap(x, y)
    finger.page.clock.run_for(120)
    finger.tap(x, y)
    finger.page.clock.run_for(300)


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
def test_r22_a_double_tap_on_quatro_asks_first_and_only_an_answer_calls(live_server, phone_context):
    phone_context.clock.install()
    page, errors, others, _ = game_with_page(live_server, phone_context)
    everybody_ready(page, others)
    set_position(live_server, PARTNER_CARRE)
    expect(page.locator("#hand .card").first).to_contain_text("K")
    finger = Finger(page)
    x, y = finger.centre("#btn-quatro")
    hold_the_clock(page)
    double_tap(finger, x, y)
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(page.locator('#modal[data-kind="confirm"]')).to_be_visible()
    assert not page.evaluate(ANSWER_AT, [x, y]), "an answer lies where the finger tapped"
    finger.tap(x, y)  # a third touch, at once, where the finger was: it answers nothing
    page.wait_for_timeout(300)
    expect(dialog).to_be_visible()
    assert latest_view(others[1])["phase"] == "play", "a double tap sent the call"
    page.clock.run_for(800)  # a beat later
    page.clock.resume()
    dialog.get_by_role("button", name="Quatro!").tap()  # read, then a deliberate answer
    expect(page.locator("#screen-reveal")).to_be_visible()
    result = round_result(others[1])
    assert (result["end"], result["caller"], result["correct"]) == ("quatro", 0, True)
    assert errors == []


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
def test_r23_a_double_tap_with_a_carre_of_ones_own_gets_the_warning(live_server, phone_context):
    phone_context.clock.install()
    page, errors, others, _ = game_with_page(live_server, phone_context)
    everybody_ready(page, others)
    set_position(live_server, OWN_CARRE)
    expect(page.locator("#carre-badge")).to_be_visible()
    finger = Finger(page)
    hold_the_clock(page)
    double_tap(finger, *finger.centre("#btn-quatro"))
    expect(page.locator('#modal[data-kind="r23"]')).to_be_visible()  # the very question a hold asks
    page.clock.run_for(800)  # a beat later, its answers take a tap
    page.clock.resume()
    page.get_by_role("dialog").get_by_role("button", name="Cancel").tap()
    expect(page.get_by_role("dialog")).to_be_hidden()
    assert latest_view(others[1])["phase"] == "play"
    assert errors == []


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
def test_r24_contre_by_keyboard_at_four_seats_names_the_team_before_it_goes(live_server, phone_context):
    """At 4 seats a held Contre! goes at once (one team to accuse); pressed with Enter it asks which team first."""
    page, errors, others, _ = game_with_page(live_server, phone_context)
    everybody_ready(page, others)
    set_position(live_server, PARTNER_CARRE)
    page.get_by_role("button", name="Contre: press and hold to accuse a team of holding a carré").focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    assert latest_view(others[1])["phase"] == "play", "Enter sent the call without a question"
    dialog.get_by_role("button", name="Accuse Orange ▲").click()
    expect(page.locator("#screen-reveal")).to_be_visible()
    result = round_result(others[1])
    assert (result["end"], result["caller"], result["target"], result["correct"]) == ("contre", 0, 1, False)
    assert errors == []


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
def test_the_calls_tell_a_screen_reader_how_to_call_without_holding(live_server, phone_context):
    page, errors, others, _ = game_with_page(live_server, phone_context)
    everybody_ready(page, others)
    for name in ("Quatro", "Contre"):
        button = page.get_by_role("button", name=f"{name}: press and hold", exact=False)
        expect(button).to_have_accessible_description("Or tap it twice: you are asked to confirm first.")
    page.evaluate("localStorage.setItem('quatro.lang', 'fr')")  # a player who reads French, back at the table
    page.reload()
    expect(page.get_by_role("button", name="Quatro : appui long", exact=False)).to_have_accessible_description(
        "Ou touche-le deux fois : on te demande de confirmer d’abord."
    )
    assert errors == []
