"""The pages run under the host's real Content-Security-Policy (the other browser tests bypass it for their own
string predicates): the TV, a phone and the rules page load, play into a round and report no violation."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import phone_url

#: Every violation the page meets is kept where the test can read it.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + (e.sourceFile || ''));
});
"""


def _strict_page(chromium, **options):
    context = chromium.new_context(bypass_csp=False, **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(RECORD_VIOLATIONS)
    return context, page, errors


@pytest.mark.live_server(seats=4, public_host="party.test")
def test_tv_phone_and_rules_run_under_the_real_policy(live_server, chromium):
    tv_context, tv, tv_errors = _strict_page(chromium, viewport={"width": 1920, "height": 1080}, locale="en-US")
    phone_context, phone, phone_errors = _strict_page(
        chromium, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-US"
    )
    try:
        response = tv.goto(live_server.screen_url())
        assert response is not None and "content-security-policy" in response.headers  # lower-cased here
        phone.goto(phone_url(live_server.port))
        phone.fill("#name", "Ana")
        phone.locator('#seat-list [data-seat="0"]').tap()
        expect(phone.locator("#screen-wait")).to_be_visible()
        screen = live_server.screen()
        assert screen.host("start_game")["type"] == "ok"  # the other seats get bots
        screen.wait_state(lambda v: v["phase"] == "sign")
        expect(tv.locator("body")).to_contain_text("Ana")
        phone.goto(phone_url(live_server.port, "/rules"))
        expect(phone.locator("body")).to_contain_text("Quatro")
        for page, errors in ((tv, tv_errors), (phone, phone_errors)):
            assert page.evaluate("window.__csp") == []
            assert errors == []
    finally:
        tv_context.close()
        phone_context.close()
