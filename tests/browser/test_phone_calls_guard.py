"""A call goes out only when meant (R22–R23). Holding Quatro! with a carré of your own asks first; the question
opens once the finger has lifted, away from the button, and its answers ignore input for a beat: the release of
the press that asked it — which some browsers turn into a click on whatever now lies under the finger — can
never answer it. Real touch events (Chromium's, through the DevTools protocol), in portrait and sideways; then a
deliberate tap on "Yes" calls. The same guard holds for the other questions that may open under a finger:
leaving one's seat, and the host's remote ending the game.
Screenshots: ``screenshots/phone-guard-<what>-<size>.png``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .phone_helpers import everybody_ready, game_with_page, latest_view, round_result, set_position, shot
from .touch_helpers import Finger

#: The page's seat 0 holds four aces: a Quatro! of its own is R23's mistake.
CARRE = "AAAA KKJJ QQJT TTJK | KQQT"

#: Which answer of the open question lies under a point, and where each answer is.
UNDER = """([x, y, sel]) => {
  const hit = document.elementFromPoint(x, y);
  const call = document.querySelector(sel).getBoundingClientRect();
  const answers = [...document.querySelectorAll('#modal .modal-actions button')].map((b) => {
    const r = b.getBoundingClientRect();
    return {action: b.dataset.action, over: r.left < call.right && call.left < r.right && r.top < call.bottom && call.top < r.bottom};
  });
  return {hit: hit && hit.closest('#modal button') ? hit.closest('#modal button').dataset.action : null, answers};
}"""

#: Seat 0 holds no carré, its partner (seat 2) four queens: seat 0's Quatro! goes straight out, and is right.
PARTNERS_CARRE = "AKJT AKJT QQQQ AKJT | AKJT"

#: A press and its release ``ms`` apart, heard by a page too busy to run anything in between (a starved phone): both
#: events reach the page before its own hold timer can run. A synthetic event's time stamp is its creation's, which
#: a loaded machine may delay (a 250 ms tap once came out a hold): the release's is set to the thumb's.
STARVED_PRESS = """([sel, ms]) => {
  const b = document.querySelector(sel); const r = b.getBoundingClientRect();
  const at = {bubbles: true, cancelable: true, pointerId: 41, pointerType: 'touch', isPrimary: true, button: 0,
    clientX: r.left + r.width / 2, clientY: r.top + r.height / 2};
  const press = new PointerEvent('pointerdown', at);
  b.dispatchEvent(press);
  const until = performance.now() + ms;
  while (performance.now() < until) { /* the page is busy elsewhere */ }
  const release = new PointerEvent('pointerup', at);
  Object.defineProperty(release, 'timeStamp', {value: press.timeStamp + ms});
  b.dispatchEvent(release);
}"""


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r22_a_hold_heard_late_by_a_starved_page_still_calls_and_a_tap_does_not(live_server, phone_context):
    """The press's length is the thumb's (the events' own times), not whether the page's timer got to run first."""
    page, errors, others, _ = game_with_page(live_server, phone_context, ("Bruno", "Chloé", "Dora"))
    everybody_ready(page, others)
    set_position(live_server, PARTNERS_CARRE)
    expect(page.locator("#btn-quatro")).to_have_attribute("aria-disabled", "false")
    page.evaluate(STARVED_PRESS, ["#btn-quatro", 250])  # a tap, however late it is heard
    expect(page.locator("#finger")).to_have_text("Hold to call")
    page.wait_for_timeout(1000)  # the hold's own timer, long gone by: it must not have called
    assert latest_view(others[1])["phase"] == "play"
    page.evaluate(STARVED_PRESS, ["#btn-quatro", 700])  # held past the hold, heard only at the release
    expect(page.locator("#screen-reveal")).to_be_visible()
    result = round_result(others[1])
    assert (result["end"], result["caller"], result["target"]) == ("quatro", 0, 2)
    assert errors == []


@pytest.mark.parametrize("size", [(390, 844), (844, 390)], ids=["portrait", "landscape"])
@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
def test_r23_lifting_the_thumb_never_answers_the_warning_a_deliberate_tap_calls(
    live_server, phone_context, screenshot_dir, size
):
    page, errors, others, _ = game_with_page(live_server, phone_context, ("Bruno", "Chloé", "Dora"))
    page.set_viewport_size({"width": size[0], "height": size[1]})
    everybody_ready(page, others)
    set_position(live_server, CARRE)
    expect(page.locator("#carre-badge")).to_be_visible()
    finger = Finger(page)
    x, y = finger.hold("#btn-quatro", 800)  # held past the call's hold, lifted where it was pressed
    page.wait_for_timeout(1200)  # whatever the release became has happened by now
    assert latest_view(others[1])["phase"] == "play", "the release sent a Quatro!"
    modal = page.locator('#modal[data-kind="r23"]')
    expect(modal).to_be_visible()  # still open: the release did not cancel it unread either
    where = page.evaluate(UNDER, [x, y, "#btn-quatro"])
    assert where["hit"] is None, f"an answer lies where the thumb was: {where}"
    assert not any(a["over"] for a in where["answers"]), f"an answer lies over the call button: {where}"
    shot(page, screenshot_dir, f"guard-r23-{size[0]}x{size[1]}")
    # a second, quick touch where the thumb was (a double tap) answers nothing either
    finger.tap(x, y)
    page.wait_for_timeout(400)
    expect(modal).to_be_visible()
    assert latest_view(others[1])["phase"] == "play"
    # read, then a deliberate tap on "Yes": the call goes out (R23's confirmed Quatro! on the partner's hand)
    page.locator('#modal [data-action="confirm"]').tap()
    expect(page.locator("#screen-reveal")).to_be_visible()
    result = round_result(others[1])
    assert (result["end"], result["caller"], result["target"]) == ("quatro", 0, 2)
    assert errors == []


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_a_new_questions_answers_ignore_a_tap_for_a_beat_then_take_one(live_server, phone_context):
    """Leaving one's seat asks first; a second tap at once (the page's clock held still, so that "at once" holds on
    a busy machine) on "Yes" does nothing; a beat later it leaves."""
    from .conftest import phone_url

    page = phone_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.clock.install()
    page.goto(phone_url(live_server.port))
    page.fill("#name", "Ana")
    page.locator('#seat-list [data-seat="1"]').tap()
    expect(page.locator("#screen-wait")).to_be_visible()
    page.clock.pause_at(page.evaluate("Date.now()") + 50)
    finger = Finger(page)
    finger.tap(*finger.centre("#btn-leave"))
    expect(page.locator('#modal[data-kind="leave"]')).to_be_visible()
    yes = page.locator('#modal [data-action="leave-yes"]')
    finger.tap(*finger.centre('#modal [data-action="leave-yes"]'))  # a double tap's second touch
    page.wait_for_timeout(300)
    expect(page.locator('#modal[data-kind="leave"]')).to_be_visible()
    assert live_server.summary()["view"]["seats"][1]["name"] == "Ana"  # still seated
    page.clock.run_for(800)  # a beat later
    expect(yes).to_be_enabled()
    page.clock.resume()
    yes.tap()
    expect(page.locator("#screen-join")).to_be_visible()
    assert live_server.summary()["view"]["seats"][1]["kind"] == "empty"
    assert errors == []
