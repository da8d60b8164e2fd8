"""The phone's coach (web/phone/coach.js) in a harness page drawn with the phone's own layout and styles, fed
synthetic seat views built from docs/samples (the shapes of docs/protocol.md).

A phone that never played sees each hint at its moment, next to its control, one at a time; a dismissed hint
stays dismissed after a reload; "Show hints again" (reset) brings them back. Every text fits its box at 390×844
and 360×640, in English and French. Screenshots: ``screenshots/coach-<hint>-<lang>-<size>.png``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .phone_helpers import entered
from .pictures import snap
from .teach_helpers import static_server

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"
SIZES = [(390, 844), (360, 640)]


def sample(name: str) -> dict:
    return json.loads((SAMPLES / name).read_text(encoding="utf-8"))


def sign_view() -> dict:
    view = sample("seat_sign.json")
    view["you"].update(seat=0, team=0, partner=3, sign=None)
    view["seats"][0]["ready"] = False
    return view


def play_view(channel_held: bool = False, **you) -> dict:
    """The sample play view, seen by a player (seat 0) who holds no channel unless ``channel_held``."""
    view = sample("seat_play.json")
    view["reshuffle"] = {"done": False, "vote": None, "next_vote_in": None}
    view["you"].update({"swap_wait": 0.0, "channel_choice": None, "voter": False, **you})
    view["seats"][view["you"]["seat"]]["channel"] = {"held": channel_held, "emoji": None}
    return view


def vote_view() -> dict:
    view = play_view(voter=True)
    view["reshuffle"]["vote"] = {"requester": 1, "voters": [0, 2], "accepted": [], "left": 19.5}
    return view


def pause_view() -> dict:
    view = sample("seat_pause.json")
    view["you"].update(seat=0, team=0, partner=3)
    return view


ROUND_OPEN = [{"type": "round_opened", "round": 1, "length": 180.0}, {"type": "dealt", "centre": [], "redeals": 0}]

# (hint, view, events, the control it points at, words it must say in en / fr)
STEPS = [
    ("sign", sign_view, [], "#btn-lock", ("everybody sees your flashes", "tout le monde voit ce que tu émets")),
    ("hand", play_view, ROUND_OPEN, "#centre", ("Tap one of yours", "Touche une des tiennes")),
    ("cooldown", lambda: play_view(swap_wait=1.6), [], "#hand-zone", ("you wait 2 s", "tu attends 2 s")),
    ("channel", play_view, [], "#channel-toggle", ("every 5 s", "toutes les 5 s")),
    (
        "partner_sign",
        play_view,
        [{"type": "emitted", "seat": 3, "emoji": "🦊"}],
        "#btn-quatro",
        ("Bot Dora just flashed 🦊", "Bot Dora vient de faire 🦊"),
    ),
    (
        "contre",
        play_view,
        [{"type": "emitted", "seat": 1, "emoji": "🐙"}],
        "#btn-contre",
        ("Bruno keeps", "Bruno fait"),
    ),
    ("vote", vote_view, [], "#vote-actions", ("silence means no", "sans réponse, c’est non")),
    ("reshuffle", play_view, [], "#btn-reshuffle", ("Nobody wants the centre", "Plus personne ne veut")),
    ("one_call", pause_view, [], "#result", ("One call ends the round", "La première annonce termine la manche")),
]

CHECK = """([hint, sel]) => {
  const bubble = document.querySelector('.coach');
  if (!bubble || bubble.hidden) return ['no bubble'];
  const bad = [];
  if (bubble.dataset.hint !== hint) bad.push(`showing ${bubble.dataset.hint}`);
  if (document.querySelectorAll('.coach').length !== 1) bad.push('more than one hint');
  const b = bubble.getBoundingClientRect();
  const a = document.querySelector(sel).getBoundingClientRect();
  if (b.left < 0 || b.top < 0 || b.right > innerWidth || b.bottom > innerHeight) bad.push('off the screen');
  for (const el of bubble.querySelectorAll('.coach-text, .coach-ok, .coach-label')) {
    const r = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) bad.push(`overflow ${el.className}`);
    if (r.right > b.right + 0.5 || r.bottom > b.bottom + 0.5) bad.push(`out of the bubble ${el.className}`);
  }
  // next to its control: touching it above or below (10 px for the arrow), never covering it; or, where that
  // would cover the cards, over the seat strip with its control glowing
  const gap = Math.max(a.top - b.bottom, b.top - a.bottom);
  const overlapX = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  if (bubble.dataset.side === 'over') {
    if (!document.querySelector(sel).classList.contains('coach-target')) bad.push(`${sel} does not glow`);
  } else if (!(gap >= 0 && gap <= 40 && overlapX > 0)) bad.push(`not next to ${sel}: gap ${gap}, overlap ${overlapX}`);
  if (document.querySelectorAll('.coach-target').length > (bubble.dataset.side === 'over' ? 1 : 0)) bad.push('a stale glow');
  // the cards stay in sight: no bubble lies over the hand or the centre (but the hint about them, beside them)
  for (const zone of ['#hand-zone', '#centre']) {
    const z = document.querySelector(zone);
    if (!z || !z.getClientRects().length || z.contains(document.querySelector(sel))) continue;
    const q = z.getBoundingClientRect();
    if (b.left < q.right - 1 && q.left < b.right - 1 && b.top < q.bottom - 1 && q.top < b.bottom - 1) bad.push(`covers ${zone}`);
  }
  return bad;
}"""


@pytest.fixture(scope="module")
def site():
    with static_server() as url:
        yield url


def phone(chromium, size, locale="en-US"):
    return chromium.new_context(
        viewport={"width": size[0], "height": size[1]},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale=locale,
    )


def open_harness(context, site, lang):
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site}/fixtures/coach.html?lang={lang}")
    page.wait_for_function("window.harnessReady === true")
    return page, errors


def feed(page, view: dict, events: list | None = None):
    return page.evaluate("([v, e]) => window.feed(v, e)", [view, events or []])


def placed(page) -> None:
    """Until the bubble's placement is final: its stylesheet (linked on first use) has loaded, which places it
    again, and a frame has passed for that. On a loaded machine a check made before saw an unstyled bubble."""
    page.wait_for_function("[...document.querySelectorAll('link[rel=\"stylesheet\"]')].every((l) => l.sheet)")
    page.wait_for_function("!document.querySelector('.coach[data-styling]')")
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def text_of(page) -> str:
    """The words of the bubble as a player reads them: once it is in sight (it comes when the page holds still)."""
    expect(page.locator(".coach")).to_be_visible()
    return page.locator(".coach .coach-text").inner_text().replace("\xa0", " ")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_each_hint_comes_at_its_moment_and_fits(chromium, site, screenshot_dir, lang, size):
    context = phone(chromium, size, "fr-FR" if lang == "fr" else "en-US")
    try:
        page, errors = open_harness(context, site, lang)
        for hint, make, events, anchor, words in STEPS:
            if hint == "contre":
                assert feed(page, make(), events) is None  # one flash of an emoji is no pattern yet
            if hint == "reshuffle":
                page.evaluate("window.coachClock(26000)")  # nobody swapped for a while
            assert feed(page, make(), copy.deepcopy(events)) == hint
            said = words[0 if lang == "en" else 1]
            assert said.lower() in text_of(page).lower(), (hint, text_of(page))
            assert "Quatro" in text_of(page) or hint != "partner_sign"
            placed(page)
            entered(page.locator(".coach"))  # the fade-in
            snap(page, screenshot_dir / f"coach-{hint}-{lang}-{size[0]}x{size[1]}.png")
            assert page.evaluate(CHECK, [hint, anchor]) == [], hint
            page.locator(".coach .coach-ok").click()
            assert page.locator(".coach").count() == 0
        assert errors == []
    finally:
        context.close()


def test_a_hint_is_unseen_until_its_stylesheet_comes(chromium, site):
    """On slow Wi-Fi coach.css (linked when the first hint comes) may take seconds: until it applies the bubble is
    not shown (unstyled, it flowed over the page's controls); then it comes as usual."""
    context = phone(chromium, (390, 844))
    try:
        held: list = []
        context.route("**/phone/coach.css", lambda route: held.append(route))
        page, errors = open_harness(context, site, "en")
        assert feed(page, sign_view()) == "sign"
        page.wait_for_timeout(500)  # far more than the two still frames a styled bubble waits
        assert held, "the coach's stylesheet was asked for"
        assert page.evaluate("getComputedStyle(document.querySelector('.coach')).visibility") == "hidden"
        held[0].continue_()
        expect(page.locator(".coach")).to_be_visible()
        placed(page)
        assert page.evaluate(CHECK, ["sign", "#btn-lock"]) == []
        assert errors == []
    finally:
        context.close()


def test_a_dismissed_hint_stays_dismissed_after_a_reload_until_reset(chromium, site):
    context = phone(chromium, (390, 844))
    try:
        page, errors = open_harness(context, site, "en")
        assert feed(page, sign_view()) == "sign"
        page.locator(".coach .coach-x").click()
        page.reload()
        page.wait_for_function("window.harnessReady === true")
        assert feed(page, sign_view()) is None
        assert page.locator(".coach").count() == 0
        assert feed(page, play_view(), ROUND_OPEN) == "hand"  # the others still come
        assert json.loads(page.evaluate("localStorage.getItem('quatro.coach.seen')")) == ["sign"]
        # "Show hints again"
        page.evaluate("window.coach.reset()")
        assert feed(page, sign_view()) == "sign"
        page.evaluate("window.coach.dismissAll()")
        assert page.locator(".coach").count() == 0
        page.reload()
        page.wait_for_function("window.harnessReady === true")
        assert feed(page, play_view(), ROUND_OPEN) is None
        assert errors == []
    finally:
        context.close()


def test_one_hint_at_a_time_and_the_urgent_one_first(chromium, site):
    context = phone(chromium, (390, 844))
    try:
        page, errors = open_harness(context, site, "en")
        assert feed(page, play_view(), ROUND_OPEN) == "hand"
        # the partner flashes the team's sign: that hint takes the place of the calmer one at once
        assert feed(page, play_view(), [{"type": "emitted", "seat": 3, "emoji": "🦊"}]) == "partner_sign"
        assert page.locator(".coach").count() == 1
        page.locator(".coach .coach-ok").click()
        # the calmer hint was on screen only a moment: it comes back
        assert feed(page, play_view()) == "hand"
        # an opponent's flash of a DIFFERENT emoji each time is no pattern; a teammate's is never a Contre
        page.locator(".coach .coach-ok").click()
        feed(page, play_view(swap_wait=1.0))
        page.locator(".coach .coach-ok").click()
        feed(page, play_view())
        page.locator(".coach .coach-ok").click()  # channel
        for emoji, seat in [("🐙", 1), ("🚀", 1), ("🍍", 3), ("🍍", 3)]:
            assert feed(page, play_view(), [{"type": "emitted", "seat": seat, "emoji": emoji}]) is None
        # a view's own numbers are quoted, not the rules' defaults
        slow = play_view()
        slow["timing"]["emission_period"] = 7.5
        page.evaluate("localStorage.setItem('quatro.coach.seen', JSON.stringify(['sign', 'hand', 'cooldown']))")
        page.reload()
        page.wait_for_function("window.harnessReady === true")
        assert feed(page, slow, ROUND_OPEN) == "channel"
        assert "every 7.5 s" in text_of(page)
        # the language switches on the hint shown
        page.evaluate("window.coach.setLang('fr')")  # the French catalog is fetched first, then the hint is redrawn
        expect(page.locator(".coach .coach-ok")).to_have_text("Compris")
        assert "toutes les 7.5 s" in text_of(page)
        assert errors == []
    finally:
        context.close()


def test_while_you_hold_a_carre_only_the_carre_hints_speak(chromium, site):
    """A first-timer's carré: the Contre hint (its bubble lies over the hand and the channel toggle) waits; the
    channel hint says how to flash the sign; the calmer hint comes back with the next deal."""
    context = phone(chromium, (390, 844))
    try:
        page, errors = open_harness(context, site, "en")
        page.evaluate("localStorage.setItem('quatro.coach.seen', JSON.stringify(['sign', 'hand', 'cooldown']))")
        page.reload()
        page.wait_for_function("window.harnessReady === true")
        twice = [{"type": "emitted", "seat": 1, "emoji": "🐙"}, {"type": "emitted", "seat": 1, "emoji": "🐙"}]
        assert feed(page, play_view(), ROUND_OPEN + twice) == "contre"
        # the carré comes: the Contre hint gives way to the channel's, which points at the toggle it is about
        assert feed(page, play_view(has_carre=True)) == "channel"
        placed(page)
        assert page.evaluate(CHECK, ["channel", "#channel-toggle"]) == []
        # taking the channel is doing what it says: it goes, and comes back while the channel is not held
        assert feed(page, play_view(channel_held=True, has_carre=True)) is None
        assert feed(page, play_view(has_carre=True)) == "channel"
        page.locator(".coach .coach-ok").click()
        assert feed(page, play_view(has_carre=True)) is None
        # the partner's sign still speaks (it is about calling, and points at Quatro)
        assert feed(page, play_view(has_carre=True), [{"type": "emitted", "seat": 3, "emoji": "🦊"}]) == "partner_sign"
        page.locator(".coach .coach-ok").click()
        # no carré any more (the round went on): the Contre hint had not been read, it comes back
        assert feed(page, play_view(has_carre=False)) == "contre"
        assert errors == []
    finally:
        context.close()


def test_a_hint_whose_moment_passed_goes_away(chromium, site):
    context = phone(chromium, (390, 844))
    try:
        page, errors = open_harness(context, site, "en")
        assert feed(page, sign_view()) == "sign"
        page.evaluate("window.coachClock(5000)")  # read for a while…
        assert feed(page, play_view(), ROUND_OPEN) == "hand"  # …the round opened: the sign hint is gone, and seen
        assert page.locator('.coach[data-hint="sign"]').count() == 0
        assert "sign" in json.loads(page.evaluate("localStorage.getItem('quatro.coach.seen')"))
        assert errors == []
    finally:
        context.close()


def test_a_practice_round_shows_every_hint_again(chromium, site):
    context = phone(chromium, (390, 844))
    try:
        page, errors = open_harness(context, site, "en")
        page.evaluate(
            "localStorage.setItem('quatro.coach.seen', JSON.stringify(" + json.dumps([s[0] for s in STEPS]) + "))"
        )
        page.reload()
        page.wait_for_function("window.harnessReady === true")
        assert feed(page, sign_view()) is None  # a device that has seen them all
        practice = sign_view()
        practice["practice"] = True
        assert feed(page, practice) == "sign"  # the practice round is there to learn
        page.locator(".coach .coach-ok").click()
        assert feed(page, practice) is None
        after = play_view()
        assert feed(page, after, ROUND_OPEN) is None  # the real game: what was seen stays seen
        assert errors == []
    finally:
        context.close()


def test_the_bubble_follows_its_control_when_the_page_under_it_lays_out_late(chromium, site):
    """A slow phone may lay the play screen out after the bubble came: when the cards move up with no new view,
    the bubble moves with them (a bubble placed too early covered the hand, once, on a loaded machine)."""
    context = phone(chromium, (390, 844))
    try:
        page, errors = open_harness(context, site, "en")
        assert feed(page, play_view(), ROUND_OPEN) == "hand"
        placed(page)
        assert page.evaluate(CHECK, ["hand", "#centre"]) == []
        before = page.locator(".coach").evaluate("(b) => b.style.top")
        page.evaluate("document.getElementById('strip').style.flex = '0 0 100px'")  # the cards move up
        expect(page.locator(".coach")).not_to_have_css("top", before)
        placed(page)
        assert page.evaluate(CHECK, ["hand", "#centre"]) == []
        assert errors == []
    finally:
        context.close()
