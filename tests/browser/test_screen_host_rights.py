"""The laptop's TV tab keeps the host's rights across a host restart, with no secret in its address; a screen that
lost them says so in plain words (English and French), with how to get them back."""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import expect

from quatro_party.server import create_app

from ..timeouts import limit_ms
from .conftest import listen_again


def _is_host(page) -> bool:
    return bool(page.evaluate("() => !!(window.quatroScreen.table && window.quatroScreen.table.host)"))


@pytest.mark.browser
def test_the_tv_tab_is_the_hosts_again_within_2_s_of_a_restart_with_a_new_secret(
    live_server_factory, tv_context, tmp_path
):
    journal = tmp_path / "table.jsonl"
    first = live_server_factory(seats=4, journal=journal)
    page = tv_context.new_page()
    page.goto(first.screen_url())
    expect(page.locator("#host-menu")).to_be_visible()
    assert "host=" not in page.url  # the secret left the address bar at once
    key = page.evaluate("sessionStorage.getItem('quatro.screen.key')")
    assert key and key not in journal.read_text()  # the journal keeps its hash only

    port = first.port
    first.stop()  # the host goes away (its journal is written line by line: what a kill -9 leaves too)
    page.wait_for_function("() => window.quatroScreen.status !== 'open'")
    app = create_app({"host_secret": "a-new-secret", "journal": journal})
    thread = listen_again(app, port)
    back = time.monotonic()
    try:
        page.wait_for_function("() => window.quatroScreen.table && window.quatroScreen.table.host", timeout=limit_ms(5))
        took = time.monotonic() - back
        print(json.dumps({"host_rights_back_s": round(took, 3)}))
        assert took <= 2.0, took
        expect(page.locator("#host-menu")).to_be_visible()
        expect(page.locator("#lost-rights")).to_be_hidden()
        assert "host=" not in page.url and "a-new-secret" not in page.content()
        for line in journal.read_text().splitlines():  # nothing a phone could use: hashes, never keys
            assert key not in line
    finally:
        thread.stop()


@pytest.mark.browser
def test_a_screen_that_lost_the_host_rights_says_how_to_get_them_back_in_english_and_french(
    live_server_factory, tv_context
):
    server = live_server_factory(seats=4)
    page = tv_context.new_page()
    page.goto(f"http://127.0.0.1:{server.port}/screen#host=an-old-secret")  # the tab of a host that restarted
    banner = page.locator("#lost-rights")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("no longer has the host’s controls")
    expect(banner).to_contain_text("open the address printed in the host’s terminal")
    assert not _is_host(page)
    expect(page.locator("#host-menu")).to_be_hidden()
    page.select_option("#lang", "fr")
    expect(banner).to_contain_text("n’a plus les commandes de l’hôte")
    expect(banner).to_contain_text("terminal de l’hôte")
    # The right address gives the rights back (the page takes the new secret and says hello again), the banner goes.
    page.goto(server.screen_url())
    expect(page.locator("#host-menu")).to_be_visible()
    expect(banner).to_be_hidden()
