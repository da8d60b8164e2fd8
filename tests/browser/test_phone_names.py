"""A phone whose name another seat already has is numbered by the server ("Ana 2", docs/protocol.md §4.1), and
the page says so once, kindly, in the player's language. Screenshots: ``screenshots/phone-renamed-<size>.png``."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ..timeouts import limit_ms
from .conftest import phone_url
from .phone_helpers import join_on_page, seat_phones, shot

SIZES = [(390, 844), (360, 640)]


@pytest.mark.live_server(public_host="party.test")
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_a_renamed_player_is_told_their_number_once(live_server, chromium, screenshot_dir, size):
    width, height = size
    seat_phones(live_server, {1: "Ana"})
    context = chromium.new_context(
        viewport={"width": width, "height": height},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="en-US",
    )
    try:
        page, errors = join_on_page(context, phone_url(live_server.port), 0, "ana")
        toast = page.locator("#toast")
        expect(toast).to_be_visible()
        expect(toast).to_have_text("Ana is already at the table: here you are ana 2.")
        box = toast.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, box  # the whole line on screen
        shot(page, screenshot_dir, f"renamed-{width}x{height}")
        expect(toast).to_be_hidden(timeout=limit_ms(8))
        # Once: the resume after a reload is not a new rename.
        page.reload()
        expect(page.locator("#screen-wait")).to_be_visible()
        page.wait_for_timeout(600)
        expect(toast).to_be_hidden()

        # In French, and nothing for a name that was free (each phone its own browser: its own saved token).
        for who, seat, name, said in [
            ("chloe", 2, "ANA", "Ana est déjà à la table : ici, tu es ANA 3."),
            ("dora", 3, "Dora", None),
        ]:
            fr = chromium.new_context(
                viewport={"width": width, "height": height},
                device_scale_factor=2,
                is_mobile=True,
                has_touch=True,
                locale="fr-FR",
            )
            try:
                other, other_errors = join_on_page(fr, phone_url(live_server.port), seat, name)
                if said:
                    expect(other.locator("#toast")).to_have_text(said)
                    shot(other, screenshot_dir, f"renamed-fr-{width}x{height}")
                else:
                    other.wait_for_timeout(600)
                    expect(other.locator("#toast")).to_be_hidden()
                errors += other_errors
            finally:
                fr.close()
        assert not errors, errors
    finally:
        context.close()
