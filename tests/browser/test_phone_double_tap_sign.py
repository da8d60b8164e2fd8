"""A double tap on "Lock in" fixes the team's sign once (R8): the phone must not then claim that the partner
picked it, which is what a second pick_sign, refused as already fixed, used to make it say."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .phone_helpers import game_with_page


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r8_double_tap_on_lock_in_does_not_blame_the_partner(live_server, phone_context):
    page, errors, others, _ = game_with_page(live_server, phone_context)
    page.locator('#sign-body [data-emoji="🦊"]').tap()
    page.locator("#btn-lock").dblclick()
    expect(page.locator(".sign-big.fixed #team-sign")).to_have_text("🦊")
    others[2].wait_state(lambda v: v["you"]["sign"] == "🦊")
    page.wait_for_timeout(500)  # any refusal would be back by now; read at once: the toast fades
    toast = page.locator("#toast")
    assert toast.is_hidden() or "partner" not in toast.inner_text(), toast.inner_text()
    assert errors == []


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_r11_double_tap_on_ready_says_ready_without_a_refusal(live_server, phone_context):
    page, errors, others, _ = game_with_page(live_server, phone_context)
    page.locator('#sign-body [data-emoji="🦊"]').tap()
    page.locator("#btn-ready").dblclick()  # picks the sign and says ready, once each
    expect(page.locator("#btn-ready")).to_be_disabled()
    expect(page.locator(".sign-big.fixed #team-sign")).to_have_text("🦊")
    page.wait_for_timeout(500)  # any refusal would be back by now; read at once: the toast fades
    toast = page.locator("#toast")
    assert toast.is_hidden(), toast.inner_text()
    assert errors == []
