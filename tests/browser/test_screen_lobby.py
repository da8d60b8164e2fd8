"""The TV's lobby and the host's seat controls, in a real Chromium against the real host, with socket phones.

Screenshots at 1920×1080: ``screenshots/screen-<state>.png``.
Rules cited: R1–R3 (seats, partners, names), R33 (a seat moved to another device, a freed seat, a bot on it).
"""

from __future__ import annotations

import pytest

from .screen_helpers import (
    TV,
    join,
    open_screen,
    to_play,
)

PUBLIC = "party.test"


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
    page.select_option("#lang", "fr")
    screen.wait("document.querySelector('#join-title').textContent === 'Scannez pour jouer'")
    screen.assert_fits()
    screen.shot(screenshot_dir, "lobby-fr")
    page.reload()
    screen.wait("document.querySelector('#join-title').textContent === 'Scannez pour jouer'")
    assert page.get_attribute("#mute", "aria-pressed") == "true"
    page.click("#mute")
    page.select_option("#lang", "en")
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
    spectator.wait("(b => b && !b.hidden)(document.querySelector('#lost-rights'))")
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
    screen.at_rest(0.5)
    screen.assert_fits()
    screen.shot(screenshot_dir, "play-freed-seat")
    page.click('.seat[data-seat="1"] .add-bot')
    screen.wait("window.quatroScreen.view.seats[1].kind === 'bot'", timeout=5)
    screen.wait("document.querySelector('.seat[data-seat=\"1\"].freed') === null", timeout=5)
    assert "bot" in plate.inner_text().lower()
    assert live_server.summary()["bots"] == {1: "easy"}
    assert screen.errors == []
