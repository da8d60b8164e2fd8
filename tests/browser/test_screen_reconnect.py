"""The TV page survives its host: a server restart on the same port (it reconnects by itself and redraws from the
fresh view) and a reload.

Screenshots at 1920×1080: ``screenshots/screen-offline.png``, ``screenshots/screen-reconnected.png``.
"""

from __future__ import annotations

from quatro_party.server import create_app
from quatro_party.server.testing import TEST_HOST_SECRET

from .conftest import listen_again
from .screen_helpers import (
    join,
    open_screen,
)

PUBLIC = "party.test"


def test_page_reconnects_after_server_restart_and_reload(live_server_factory, tv_context, screenshot_dir):
    """The page survives a server restart (socket closed, host gone, host back on the same port) and a reload."""
    first = live_server_factory(seats=4, public_host=PUBLIC)
    ana = join(first, 0, "Ana")
    screen = open_screen(tv_context, first)
    page = screen.page
    screen.wait("document.querySelector('.seat[data-seat=\"0\"] .name').textContent === 'Ana'")
    port = first.port
    ana.close()
    first.stop()
    screen.wait("!document.querySelector('#offline').hidden", timeout=5)
    assert "reconnecting" in screen.text("#offline")
    screen.shot(screenshot_dir, "offline")

    # A new host on the same port, with 6 seats: the page reconnects by itself and redraws from the fresh view.
    app = create_app({"seats": 6, "host_secret": TEST_HOST_SECRET, "seed": 2, "join_url": f"http://{PUBLIC}:{port}/"})
    thread = listen_again(app, port)
    try:
        screen.wait(
            "document.querySelectorAll('.seat').length === 6 && document.querySelector('#offline').hidden", timeout=10
        )
        assert page.locator("#host-bar .seats-6.on").count() == 1  # still the host: the hello was re-sent
        screen.shot(screenshot_dir, "reconnected")
        # A reload draws the same table again.
        page.reload()
        screen.wait("document.querySelectorAll('.seat').length === 6")
        assert screen.errors == []
    finally:
        thread.stop()
