"""The pages work under the host's real Content-Security-Policy, and the TV's address bar keeps no secret."""

from __future__ import annotations

import time

import pytest

from quatro_party.server.testing import LiveServer

pytestmark = pytest.mark.browser


def _poll(page, expression: str, timeout: float = 10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = page.evaluate(expression)
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"never true: {expression}")


@pytest.fixture
def strict(chromium):
    """Contexts under the real CSP (the test suite's other contexts bypass it)."""
    made = []

    def make(**kwargs):
        made.append(chromium.new_context(bypass_csp=False, **kwargs))
        return made[-1]

    yield make
    for c in made:
        c.close()


def test_the_phone_and_the_tv_run_under_the_csp_and_the_tv_url_keeps_no_secret(strict):
    with LiveServer(public_host="party.test") as server:
        violations: list[str] = []
        tv = strict(viewport={"width": 1920, "height": 1080}).new_page()
        phone = strict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
        rules = strict().new_page()
        for page in (tv, phone, rules):
            page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
            page.add_init_script(
                "document.addEventListener('securitypolicyviolation',"
                " e => { (window.__csp = window.__csp || []).push(e.violatedDirective + ' ' + e.blockedURI); });"
            )
        tv.goto(server.screen_url())
        phone.goto(f"http://party.test:{server.port}/")
        _poll(phone, "() => document.body.innerText.length > 20")
        _poll(tv, "() => document.body.innerText.length > 20")
        t = time.monotonic()
        while server.summary()["connections"] < 2 and time.monotonic() - t < 10:
            time.sleep(0.1)
        assert server.summary()["connections"] >= 2  # both pages opened their sockets under connect-src
        time.sleep(0.5)
        for page in (tv, phone):
            assert page.evaluate("() => window.__csp || []") == []
        assert violations == []
        assert server.host_secret not in tv.evaluate("() => location.href")
        rules.goto(f"{server.url}/rules")
        with rules.expect_navigation():  # its script (rules.js, the language links) runs under the same CSP
            rules.click('a.lang-switch[hreflang="fr"]')
        assert rules.evaluate("() => document.documentElement.lang") == "fr"
        assert rules.evaluate("() => window.__csp || []") == [] and violations == []
