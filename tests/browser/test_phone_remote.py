"""The host's remote stays with its phone: a closed and reopened tab and a host restart keep its Host bar; a
second device opening the same link is told, in plain words, that it was used."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from quatro_party.server import create_app
from quatro_party.server.testing import TEST_HOST_SECRET

from ..timeouts import limit_ms
from .conftest import PHONE_HOST, listen_again, phone_url
from .phone_helpers import join_on_page


def _invite(server) -> str:
    screen = server.screen()
    ref = screen.send({"type": "vip_link"})
    url = screen.expect("vip_link")["url"]
    screen.reply(ref)
    return str(url)


def _second_device_is_told(chromium, port: int, url: str, seat: int = 1) -> None:
    other = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        second, _ = join_on_page(other, phone_url(port), seat, f"Guest{seat}")  # another device, a photo of the QR
        second.goto(url)
        expect(second.locator("#toast")).to_contain_text("Another phone already opened this remote link")
        expect(second.locator("#host-bar")).to_be_hidden()
        assert second.evaluate("localStorage.getItem('quatro.remote')") is None
    finally:
        other.close()


@pytest.mark.browser
def test_the_remote_keeps_its_host_bar_across_a_closed_tab_and_a_restart_and_works_once(
    live_server_factory, phone_context, chromium, tmp_path
):
    journal = tmp_path / "table.jsonl"
    first = live_server_factory(seats=4, public_host=PHONE_HOST, journal=journal)
    url = _invite(first)
    page, _ = join_on_page(phone_context, phone_url(first.port), 0, "Ana")  # the host's own phone, seated
    page.goto(url)
    expect(page.locator("#host-bar")).to_be_visible()
    assert "vip=" not in page.url
    key = page.evaluate("localStorage.getItem('quatro.remote')")
    assert key and key not in journal.read_text()

    _second_device_is_told(chromium, first.port, url)

    page.close()  # the tab is closed (sessionStorage goes with it), then opened again at the plain address
    page = phone_context.new_page()
    page.goto(phone_url(first.port))
    expect(page.locator("#host-bar")).to_be_visible()
    expect(page.locator("#screen-wait")).to_be_visible()  # and its seat
    port = first.port
    first.stop()  # the host goes away and comes back with a new secret: the remote is the same phone's
    app = create_app({"host_secret": TEST_HOST_SECRET, "journal": journal, "join_url": f"http://{PHONE_HOST}:{port}/"})
    thread = listen_again(app, port)
    try:
        page.wait_for_function("() => window.quatroLink && window.quatroLink.online", timeout=limit_ms(10))
        expect(page.locator("#host-bar")).to_be_visible(timeout=limit_ms(10))
        expect(page.locator("#host-bar [data-host='lock']")).to_be_visible()

        _second_device_is_told(chromium, port, url, seat=2)  # the restarted host still knows the link was used
        expect(page.locator("#host-bar")).to_be_visible()
    finally:
        thread.stop()


@pytest.mark.browser
def test_a_remote_that_plays_no_seat_runs_the_table_from_the_join_screen_in_its_players_language(
    live_server_factory, chromium
):
    """The host may run the evening from a phone without playing: opened at the join screen, the remote's bar is
    there, in the language the phone's player picked (the catalogs' words, German here)."""
    server = live_server_factory(seats=4, public_host=PHONE_HOST)
    url = _invite(server)
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.add_init_script("try { localStorage.setItem('quatro.lang', 'de'); } catch (e) {}")
    try:
        page = context.new_page()
        page.goto(url)
        expect(page.locator("#screen-join")).to_be_visible()
        bar = page.locator("#host-bar")
        expect(bar).to_be_visible()
        expect(bar.locator("[data-host='start_game']")).to_have_text("Starten")
        lock = bar.locator("[data-host='lock']")
        expect(lock).to_have_text("Tisch sperren")
        lock.click()
        expect(lock).to_have_text("Tisch öffnen")  # the server's state says the table is locked now
        assert server.screen().state["table"]["locked"] is True
    finally:
        context.close()
