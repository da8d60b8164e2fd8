"""The phone controller in a real headless Chromium, on a non-secure LAN-like origin, against the real server.

What a player does on the phone: join through the URL decoded from the QR image, pick a sign, get ready, swap by tapping,
see the cooldown, lose a race and retry at once, take the channel and emit, call Quatro with and without the
R23 reminder, call Contre at 6 seats naming a team, run a reshuffle vote, resume the same seat after closing and
reopening the page. Other seats are raw WebSocket clients speaking the phone protocol; positions are laid out
with the engine's test hook so carrés and races are deterministic. Every state is screenshotted at 390×844 into
``screenshots/phone-<state>.png``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ..timeouts import limit_ms
from .conftest import phone_url
from .phone_helpers import (
    StateGate,
    decode_qr,
    everybody_ready,
    game_with_page,
    hand_ids,
    hold,
    join_on_page,
    latest_view,
    page_bytes,
    seat_phones,
    set_position,
    shot,
)
from .pictures import snap

VIBRATE_SPY = """
window.__vibrations = [];
Object.defineProperty(Navigator.prototype, 'vibrate', {
  configurable: true, value: function (pattern) { window.__vibrations.push(pattern); return true; },
});
"""


def ranks(page, where: str):
    return page.locator(f"{where} .card .rank")


# time_scale=2: every rule duration doubled (a 4 s swap cooldown), so a loaded CI machine still taps within it.
@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=2.0)
def test_phone_qr_join_sign_swap_race_channel_vote_and_quatro(live_server, phone_context, screenshot_dir):
    """R8, R10, R11, R14–R16, R17–R19, R22–R23, R28–R29 through the phone's own screen."""
    phone_context.add_init_script(VIBRATE_SPY)
    # The join URL as a phone's camera reads it from the QR code: a non-secure http origin.
    url = decode_qr(live_server.url + "/qr.png")
    assert url == f"http://party.test:{live_server.port}/"
    page = phone_context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    gate = StateGate()
    gate.route(page)
    page.goto(url)

    # Join: name (remembered), seat picker with the teams, waiting room.
    expect(page.locator('#seat-list [data-seat="0"]')).to_be_enabled()
    assert page.evaluate("window.isSecureContext") is False
    shot(page, screenshot_dir, "join")
    page.locator('#seat-list [data-seat="0"]').tap()
    expect(page.locator("#join-msg")).to_have_text("Type your name first")
    page.fill("#name", "Zoé")
    page.locator('#seat-list [data-seat="0"]').tap()
    expect(page.locator("#screen-wait")).to_be_visible()
    assert page.evaluate("localStorage.getItem('quatro.token')")
    assert page.evaluate("localStorage.getItem('quatro.name')") == "Zoé"
    others = seat_phones(live_server, {1: "Bruno", 2: "Chloé", 3: "Dora"})
    expect(page.locator("#wait-body .me-card")).to_contain_text("Chloé")  # the partner, opposite (R2)
    shot(page, screenshot_dir, "lobby")

    # Sign phase: pick, lock in, the partner's phone shows it, nobody else's does (R8, R38).
    screen = live_server.screen()
    assert screen.host("start_game")["type"] == "ok"
    expect(page.locator("#screen-sign")).to_be_visible()
    expect(page.locator("#sign-body .emoji-tile")).to_have_count(24)
    shot(page, screenshot_dir, "sign")
    page.locator('#sign-body [data-emoji="🦊"]').tap()
    page.locator("#btn-lock").tap()
    expect(page.locator(".sign-big.fixed #team-sign")).to_have_text("🦊")
    others[2].wait_state(lambda v: v["you"]["sign"] == "🦊")
    assert latest_view(others[1])["you"]["sign"] is None
    everybody_ready(page, others)

    # Play: a fixed position. Hands Zoé AAKQ, Bruno KKJJ, Chloé QQJT, Dora TTJK; centre A A Q 10.
    set_position(live_server, "AAKQ KKJJ QQJT TTJK | AAQT")
    expect(ranks(page, "#hand")).to_have_text(["A", "A", "K", "Q"])
    expect(ranks(page, "#centre")).to_have_text(["A", "A", "Q", "10"])
    expect(page.locator("#top-sign")).to_have_text("🦊")  # the team sign, always in a corner
    shot(page, screenshot_dir, "play")

    # Swap by tapping: the card lifts, then a centre place; the cooldown ring drains around the hand (R15).
    page.locator('#hand [data-slot="2"]').tap()
    expect(page.locator('#hand [data-slot="2"]')).to_have_class(re.compile(r"\blifted\b"))
    shot(page, screenshot_dir, "selected")
    gate.freeze()  # the state that shows the swap is held back: only the ok reaches the page
    page.locator('#centre [data-place="0"]').tap()
    expect(page.locator("#finger")).to_have_text("Swapped")  # answered at the finger
    for _ in range(5):  # no flicker: the swap stays shown until a view confirms it
        assert ranks(page, "#hand").all_text_contents() == ["A", "A", "A", "Q"]
        assert ranks(page, "#centre").all_text_contents() == ["K", "A", "Q", "10"]
        page.wait_for_timeout(60)
    gate.release()
    expect(ranks(page, "#hand")).to_have_text(["A", "A", "A", "Q"])
    expect(ranks(page, "#centre")).to_have_text(["K", "A", "Q", "10"])
    expect(page.locator("#hand-ring")).to_have_class(re.compile(r"\bon\b"))
    shot(page, screenshot_dir, "cooldown")
    assert page.evaluate("window.__vibrations.length") >= 1  # the haptic tick of an own successful swap
    # During the cooldown a swap is not even sent: the phone says how long to wait.
    page.locator('#hand [data-slot="3"]').tap()
    page.locator('#centre [data-place="2"]').tap()
    expect(page.locator("#finger")).to_contain_text("Wait")
    expect(page.locator("#hand-ring")).not_to_have_class(re.compile(r"\bon\b"), timeout=limit_ms(8))

    # Lose a race (R16): Bruno takes the ace at place 1 while this phone still shows it.
    gate.freeze()
    bruno = latest_view(others[1])
    jack = hand_ids(others[1])["J"][0]
    assert others[1].act("swap", card=jack, place=1, expected=bruno["centre"][1]["id"])["type"] == "ok"
    expect(ranks(page, "#centre")).to_have_text(["K", "A", "Q", "10"])  # stale on purpose
    expect(page.locator('#hand [data-slot="3"]')).to_have_class(re.compile(r"\blifted\b"))
    page.locator('#centre [data-place="1"]').tap()
    expect(page.locator("#finger")).to_have_text("Just taken — try again")
    expect(page.locator("#finger")).to_have_class(re.compile(r"\blost\b"))
    expect(page.locator("#hand-ring")).not_to_have_class(re.compile(r"\bon\b"))  # it cost nothing
    expect(page.locator('#hand [data-slot="3"]')).to_have_class(re.compile(r"\blifted\b"))  # still lifted
    shot(page, screenshot_dir, "race")
    gate.release()
    expect(ranks(page, "#centre")).to_have_text(["K", "J", "Q", "10"])
    page.locator('#centre [data-place="1"]').tap()  # retry at once, on the card that is there now
    expect(ranks(page, "#hand")).to_have_text(["A", "A", "A", "J"])
    expect(page.locator("#hand-ring")).to_have_class(re.compile(r"\bon\b"))

    # Channel: take it, choose an emoji, see it go out; the whole table saw it (R17–R18).
    page.locator("#btn-channel").tap()
    expect(page.locator("#btn-channel")).to_be_checked()
    expect(page.locator("#tray")).to_be_visible()
    expect(page.locator("#tray-line")).to_have_text("Nothing chosen: nothing goes out.")
    page.locator('#tray-grid [data-emoji="🐙"]').tap()
    expect(page.locator('#tray-line[data-state="out"]')).to_have_text("🐙 went out ✓")
    others[3].expect(
        lambda m: (
            m.get("type") == "state"
            and any(e["type"] == "emitted" and e["seat"] == 0 and e["emoji"] == "🐙" for e in m["events"])
        )
    )
    expect(page.locator('#strip [data-seat="0"] .chip-emoji')).to_have_text("🐙")
    shot(page, screenshot_dir, "channel")
    # Screen kept awake: no Wake Lock API on this plain-http origin, so the muted inline video plays.
    assert page.evaluate("'wakeLock' in navigator") is False
    page.wait_for_function("(() => { const v = document.getElementById('nosleep'); return !!v && !v.paused; })()")
    # … and after a moment it loops a tiny generated video file, as NoSleep does (best effort: if recording
    # is not supported it keeps playing the live canvas stream).
    page.wait_for_function(
        "(() => { const v = document.getElementById('nosleep');"
        " return !v.paused && (v.src.startsWith('blob:') || !!v.srcObject); })()"
    )
    assert page.evaluate("window.quatroAwake()") == "video"

    # Back from a locked screen on a socket that looks open but is dead: the phone asks for a fresh view,
    # hears nothing, and replaces the socket by itself (the new hello resumes the seat).
    assert gate.connections == 1
    gate.kill_current()
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    gate.wait_for_connections(page, 2)  # about 3 s of silence, then a new socket
    expect(page.locator("#status")).to_be_hidden()
    expect(ranks(page, "#hand")).to_have_text(["A", "A", "A", "J"])

    # Ask for a reshuffle; one voter refuses; the next vote is 30 s away (R28–R29).
    page.locator("#btn-reshuffle").tap()
    expect(page.locator("#btn-reshuffle")).to_contain_text("Waiting for votes (0/3)")
    assert others[2].act("answer_vote", accept=False)["type"] == "ok"
    expect(page.locator("#play-msg")).to_have_text("No reshuffle.")  # in the message line, never over the cards
    expect(page.locator("#btn-reshuffle")).to_contain_text(re.compile(r"Reshuffle in \d+ s"))
    expect(page.locator("#btn-reshuffle")).to_have_attribute("aria-disabled", "true")
    page.locator("#btn-reshuffle").tap(force=True)  # aria-disabled: told why at the finger, nothing sent
    expect(page.locator("#finger")).to_contain_text(re.compile(r"Reshuffle in \d+ s"))

    # Quatro while holding a carré: the R23 reminder, cancel, then confirm.
    set_position(live_server, "AAAA KKJJ QQJT TTJK | KQQT")
    expect(page.locator("#carre-badge")).to_be_visible()
    expect(page.locator("#hand-zone")).to_have_class(re.compile(r"\bcarre\b"))
    expect(page.locator("#btn-quatro small")).to_contain_text("partner")
    shot(page, screenshot_dir, "carre")
    page.locator("#btn-quatro").tap()  # a stray tap does nothing but say how to call
    expect(page.locator("#finger")).to_have_text("Hold to call")
    expect(page.locator("#modal")).to_be_hidden()
    # Held: a ring fills at the finger (read at once, in the page, while the finger is still down).
    box = page.locator("#btn-quatro").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    ring = page.evaluate("""() => { const r = document.querySelector('#hold-ring'); const b = r.getBoundingClientRect();
        return {shown: !r.hasAttribute('hidden'), filling: r.classList.contains('filling'), x: b.left + b.width / 2, y: b.top + b.height / 2}; }""")
    snap(page, screenshot_dir / "phone-holding.png")
    page.wait_for_timeout(800)
    page.mouse.up()
    assert ring["shown"] and ring["filling"], ring
    assert abs(ring["x"] - x) < 2 and abs(ring["y"] - y) < 2, (ring, x, y)  # centred on the finger
    expect(page.locator('#modal[data-kind="r23"]')).to_be_visible()
    expect(page.locator("#modal-text")).to_contain_text("PARTNER")
    shot(page, screenshot_dir, "quatro-reminder")
    page.locator('#modal [data-action="cancel"]').tap()
    expect(page.locator("#modal")).to_be_hidden()
    assert latest_view(others[1])["phase"] == "play"  # nothing was sent
    hold(page, "#btn-quatro")
    page.locator('#modal [data-action="confirm"]').tap()
    expect(page.locator("#screen-reveal")).to_be_visible()
    expect(page.locator("#result-sentence")).to_have_text("Zoé called Quatro! — Chloé had no carré. Orange ▲ scores.")
    expect(page.locator(".score-row.team-1 .big-score")).to_have_text("1")
    shot(page, screenshot_dir, "reveal")

    # Round 2: last round's sign is disabled (R10); Quatro without a carré of your own goes straight out,
    # and it wins the game (Blue is put at 4 points first: R34).
    assert screen.host("next_round")["type"] == "ok"
    expect(page.locator("#screen-sign")).to_be_visible()
    expect(page.locator('#sign-body [data-emoji="🦊"]')).to_have_attribute("aria-disabled", "true")  # told why
    expect(page.locator('#sign-body [data-emoji="🐙"]')).to_have_attribute("aria-disabled", "false")
    shot(page, screenshot_dir, "sign-round2")
    page.locator('#sign-body [data-emoji="🐙"]').tap()
    everybody_ready(page, others)
    expect(page.locator("#top-sign")).to_have_text("🐙")
    set_position(live_server, "AKJT AKJT QQQQ AKJT | AKJT")
    live_server.table.call(lambda: setattr(live_server.table.game.teams[0], "score", 4))
    live_server.table.changed()
    expect(ranks(page, "#hand")).to_have_text(["A", "K", "J", "10"])
    hold(page, "#btn-quatro")
    expect(page.locator("#screen-over")).to_be_visible()
    expect(page.locator("#result-sentence")).to_have_text("Zoé called Quatro! — Chloé had a carré. Blue ● scores.")
    expect(page.locator(".winners.won")).to_have_text("Your team won!")
    expect(page.locator(".score-row.team-0 .big-score")).to_have_text("5")
    shot(page, screenshot_dir, "game-over")
    assert not errors, errors


@pytest.mark.live_server(seats=6, public_host="party.test")
def test_phone_six_seats_vote_contre_resume_reconnect(live_server, phone_context, chromium, screenshot_dir):
    """R24 (naming the accused team at 6 seats), R28 (answering a vote), R33 (resume), reconnection, FR."""
    page, errors = join_on_page(phone_context, phone_url(live_server.port), 0, "Ana")
    token = page.evaluate("localStorage.getItem('quatro.token')")
    others = seat_phones(live_server, {seat: f"P{seat}" for seat in range(1, 6)})
    screen = live_server.screen()
    assert screen.host("start_game")["type"] == "ok"
    expect(page.locator("#screen-sign")).to_be_visible()
    everybody_ready(page, others)
    # 6 seats: A K Q J 10 9 8. P2 (team 2, Green) holds four tens.
    set_position(live_server, "AKQJ AKQJ TTTT AKQJ AKQJ 9988 | 9988")
    expect(ranks(page, "#hand")).to_have_text(["A", "K", "Q", "J"])
    expect(page.locator("#strip .chip")).to_have_count(6)

    # Somebody else asks for a reshuffle: accept / refuse with the 20 s countdown; play goes on meanwhile.
    assert others[1].act("request_reshuffle")["type"] == "ok"
    expect(page.locator("#vote-bar")).to_be_visible()
    expect(page.locator("#vote-title")).to_have_text("P1 asks for a reshuffle")
    expect(page.locator("#vote-secs")).to_have_text(re.compile(r"^(20|19) s$"))
    shot(page, screenshot_dir, "vote")
    page.locator('#vote-bar [data-action="accept"]').tap()
    expect(page.locator("#vote-bar")).to_be_hidden()
    others[1].expect(
        lambda m: (
            m.get("type") == "state"
            and any(e["type"] == "vote_answered" and e["seat"] == 0 and e["accept"] for e in m["events"])
        )
    )
    for seat in (2, 3, 4, 5):
        assert others[seat].act("answer_vote", accept=True)["type"] == "ok"
    expect(page.locator("#btn-reshuffle")).to_have_text("Already reshuffled")
    expect(page.locator("#btn-reshuffle")).to_have_attribute("aria-disabled", "true")

    # The smallest supported phone (360×640) with the channel tray open: everything still fits.
    page.locator("#btn-channel").tap()
    expect(page.locator("#tray")).to_be_visible()
    page.set_viewport_size({"width": 360, "height": 640})
    page.wait_for_timeout(150)
    snap(page, screenshot_dir / "phone-small-360x640.png")
    box = page.locator("#hand-zone").bounding_box()
    assert box["y"] + box["height"] <= 640, box
    page.set_viewport_size({"width": 390, "height": 844})

    # Contre at 6 seats: name the accused team.
    set_position(live_server, "AKQJ AKQJ TTTT AKQJ AKQJ 9988 | 9988")
    expect(ranks(page, "#hand")).to_have_text(["A", "K", "Q", "J"])
    hold(page, "#btn-contre")
    expect(page.locator('#modal[data-kind="contre"]')).to_be_visible()
    expect(page.locator("#modal-actions .team-btn")).to_have_count(2)
    expect(page.locator('#modal [data-action="team-2"]')).to_contain_text("P2 & P5")
    shot(page, screenshot_dir, "contre")
    page.locator('#modal [data-action="team-2"]').tap()
    expect(page.locator("#screen-reveal")).to_be_visible()
    expect(page.locator("#result-sentence")).to_have_text(
        "Ana called Contre! on Green ■ — P2 had a carré. Blue ● scores."
    )
    # Each team label: the shape wears the team's colour, the word keeps the sentence's, and a no-break space
    # holds them on one line.
    labels = page.locator("#result-sentence .team-word").evaluate_all(
        "spans => spans.map((s) => [s.firstChild.textContent, s.querySelector('.shape').textContent])"
    )
    assert labels == [["Green\u00a0", "■"], ["Blue\u00a0", "●"]], labels
    expect(page.locator(".score-row.team-2 .mini-hand.carre")).to_have_count(1)
    shot(page, screenshot_dir, "contre-reveal")

    # Close the page: the seat stays (R33); reopen: the same seat, no join screen.
    page.close()
    others[1].wait_state(lambda v: v["seats"][0]["connected"] is False)
    page = phone_context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(phone_url(live_server.port))
    expect(page.locator("#screen-reveal")).to_be_visible()
    expect(page.locator("#screen-join")).to_be_hidden()
    assert page.evaluate("localStorage.getItem('quatro.token')") == token
    others[1].wait_state(lambda v: v["seats"][0]["connected"] is True)
    shot(page, screenshot_dir, "resume")

    # The server drops every socket: the phone says so and comes back by itself.
    live_server.table.close_all(1001, "test: network blip")
    expect(page.locator("#status")).to_be_visible()
    expect(page.locator("#status")).to_have_text("Connection lost — reconnecting…")
    shot(page, screenshot_dir, "reconnecting")
    expect(page.locator("#status")).to_be_hidden(timeout=limit_ms(8))
    expect(page.locator("#screen-reveal")).to_be_visible()

    # The host lets the seat move (a seat link): it opens on another device, which takes the seat over.
    screen = live_server.screen()  # the blip closed every socket, the test's screen too
    screen.wait_state(lambda v: v["seats"][0]["connected"] is True)
    assert screen.host("allow_move", seat=0)["type"] == "ok"
    expect(page.locator('#modal[data-kind="seat_link"]')).to_be_visible()
    link = re.search(r"http://\S+", page.locator("#modal-text").inner_text()).group(0)
    assert link.startswith(f"http://party.test:{live_server.port}/?seat=")
    shot(page, screenshot_dir, "seat-link")
    other_device = chromium.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True, locale="fr-FR"
    )
    try:
        moved = other_device.new_page()
        moved.on("pageerror", lambda e: errors.append(str(e)))
        moved.goto(link)
        expect(moved.locator("#screen-reveal")).to_be_visible()
        expect(moved.locator(".score-row.mine")).to_contain_text("Ana")
        assert moved.evaluate("location.search") == ""  # the link's secret leaves the address bar
        assert moved.evaluate("localStorage.getItem('quatro.token')") not in (None, token)
        expect(page.locator("#screen-join")).to_be_visible()  # the old page lost the seat, and says why
        expect(page.locator("#join-msg")).to_have_text("Your seat was opened on another page or device.")
        # French from the browser language, switchable.
        expect(moved.locator("#result-sentence")).to_contain_text("Ana a annoncé Contre !")
        expect(moved.locator("html")).to_have_attribute("lang", "fr")
        moved.locator("#lang").select_option("en")
        expect(moved.locator("#result-sentence")).to_contain_text("Ana called Contre!")
        moved.locator("#lang").select_option("fr")
        shot(moved, screenshot_dir, "fr")
    finally:
        other_device.close()
    assert not errors, errors


def test_phone_secure_origin_uses_the_wake_lock_api(live_server, phone_context):
    """On a secure origin (here 127.0.0.1) the Screen Wake Lock API keeps the screen on; no video is needed."""
    page = phone_context.new_page()
    page.goto(live_server.url + "/")
    page.fill("#name", "Lou")
    page.locator('#seat-list [data-seat="0"]').tap()
    expect(page.locator("#screen-wait")).to_be_visible()
    assert page.evaluate("window.isSecureContext") is True
    page.wait_for_function("window.quatroAwake() === 'wakelock'")
    assert page.locator("#nosleep").count() == 0


def test_phone_page_weight_under_120_kb():
    """The whole controller (html, css, scripts and the shared modules it loads) stays under 120 KB."""
    sizes = page_bytes()
    assert "phone.js" in sizes and "common/socket.js" in sizes
    assert sum(sizes.values()) <= 120 * 1024, sizes


@pytest.mark.live_server(seats=4, public_host="party.test", time_scale=0.05)
def test_r12_r32_random_sign_shown_to_its_team_then_a_void_round(live_server, phone_context, screenshot_dir):
    """R12: nobody picks, the team's drawn sign is shown (to that team only); R32: no call, the round is void."""
    page, errors, others, _ = game_with_page(live_server, phone_context, page_name="Zoé")
    everybody_ready(page, others)  # nobody picked a sign

    drawn = latest_view(others[2])["you"]["sign"]  # the partner's phone knows it (R38)
    assert drawn and drawn in latest_view(others[2])["signs"]
    expect(page.locator("#top-sign")).to_have_text(drawn)
    expect(page.locator("#play-msg")).to_contain_text(f"your sign was drawn — {drawn}")
    # Held to its dash by a no-break space: on a narrow phone the sign never wraps onto a line of its own.
    assert f"\u2014\u00a0{drawn}" in page.locator("#play-msg").text_content()
    shot(page, screenshot_dir, "random-sign")

    # Three minutes (× 0.05) with no call: the round is void, nobody scores (R32).
    expect(page.locator("#screen-reveal")).to_be_visible(timeout=limit_ms(20))
    expect(page.locator("#reveal-body")).to_contain_text("Time is up: nobody called. No point this round.")
    shot(page, screenshot_dir, "void")
    assert errors == []
