"""Moving a seat to another device (docs/protocol.md §4.4): the phone shows the one-time seat link as a QR code the
other phone can scan — drawn by the host (``POST /seat-link/qr.png``), no internet — beside the text and a Copy
button, during a game on the 390×844 and the 360×640 phone. Screenshots: ``screenshots/phone-seat-link-<size>.png``.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .phone_helpers import decode_qr_png, everybody_ready, game_with_page, shot

SIZES = [(390, 844), (360, 640)]


def phone(chromium, width: int, height: int):
    return chromium.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="en-US",
    )


def inside(box, width: int, height: int) -> bool:
    return box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width and box["y"] + box["height"] <= height


@pytest.mark.live_server(public_host="party.test", time_scale=0.2)
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_seat_link_shows_a_qr_code_of_exactly_the_link(live_server, chromium, screenshot_dir, size):
    width, height = size
    context = phone(chromium, width, height)
    if width == 360:  # the worst phone: no Clipboard API (plain http) and the old copy refused too
        context.add_init_script("document.execCommand = () => false;")
    posted: list[str] = []
    context.on("request", lambda r: posted.append(f"{r.method} {r.url}") if "seat-link" in r.url else None)
    try:
        page, errors, others, screen = game_with_page(live_server, context)
        everybody_ready(page, others)
        assert screen.host("allow_move", seat=0)["type"] == "ok"
        modal = page.locator('#modal[data-kind="seat_link"]')
        expect(modal).to_be_visible()
        link = re.search(r"http://\S+", page.locator("#modal-text").inner_text()).group(0)  # the text stays
        assert link.startswith(f"http://party.test:{live_server.port}/?seat=")
        qr = modal.locator("img.link-qr")
        page.wait_for_function("""() => { const img = document.querySelector('#modal img.link-qr.shown');
            return img && img.complete && img.naturalWidth > 0 && getComputedStyle(img).opacity === '1'; }""")
        assert decode_qr_png(qr.screenshot(), "the phone's QR code") == link
        assert posted == [f"POST http://party.test:{live_server.port}/seat-link/qr.png"]  # never in a URL
        box = qr.bounding_box()
        assert box and box["width"] >= 180 and abs(box["width"] - box["height"]) < 1, box  # big enough to scan
        for what in ("img.link-qr", "#modal-text", "[data-action=copy]", "[data-action=close]"):
            b = modal.locator(what).bounding_box()
            assert b and inside(b, width, height), (what, b)
        shot(page, screenshot_dir, f"seat-link-{width}x{height}")

        # Plain http (a LAN address): no Clipboard API. Copy still copies the old way, or selects the link.
        assert page.evaluate("!!(navigator.clipboard && window.isSecureContext)") is False
        modal.locator("[data-action=copy]").tap()
        if width == 360:  # the link is left selected, for the phone's own Copy (its long-press menu is allowed)
            expect(modal.locator("[data-action=copy]")).to_have_text("Link selected")
            assert page.evaluate("getSelection().toString()") == link
            shot(page, screenshot_dir, f"seat-link-{width}x{height}-selected")
        else:
            expect(modal.locator("[data-action=copy]")).to_have_text(re.compile("Copied ✓|Link selected"))
        expect(modal).to_be_visible()  # copying does not close the box

        # The code opens the seat on the other phone.
        other = phone(chromium, width, height)
        try:
            moved = other.new_page()
            moved.goto(link)
            expect(moved.locator("#screen-play")).to_be_visible()
        finally:
            other.close()
        expect(page.locator("#screen-join")).to_be_visible()
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.live_server(public_host="party.test")
def test_seat_link_copy_button_uses_the_clipboard_api_where_there_is_one(live_server, chromium):
    """On a secure origin (here 127.0.0.1) Copy puts exactly the link on the clipboard."""
    context = phone(chromium, 390, 844)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/")
        page.fill("#name", "Ana")
        page.locator('#seat-list [data-seat="0"]').tap()
        expect(page.locator("#screen-wait")).to_be_visible()
        screen = live_server.screen()
        assert screen.host("allow_move", seat=0)["type"] == "ok"
        modal = page.locator('#modal[data-kind="seat_link"]')
        expect(modal.locator("img.link-qr.shown")).to_be_visible()
        link = re.search(r"http://\S+", page.locator("#modal-text").inner_text()).group(0)
        modal.locator("[data-action=copy]").tap()
        expect(modal.locator("[data-action=copy]")).to_have_text("Copied ✓")
        assert page.evaluate("navigator.clipboard.readText()") == link
    finally:
        context.close()
