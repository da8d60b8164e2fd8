"""Browser fixtures: a real headless Chromium (Debian's), driven by Playwright.

A phone on the LAN opens a plain-http page on a non-secure origin; to see what it
sees while staying on loopback, Chromium maps ``party.test`` to 127.0.0.1 and
pages are opened as ``http://party.test:PORT/…`` (its traffic stays on loopback). Screenshots go
to ``screenshots/`` at the project root (or ``$QUATRO_SCREENSHOTS``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from quatro_party.server import ServerThread

CHROMIUM = os.environ.get("QUATRO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = Path(os.environ.get("QUATRO_SCREENSHOTS", Path(__file__).resolve().parents[2] / "screenshots"))
PHONE_HOST = "party.test"

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
    f"--host-resolver-rules=MAP {PHONE_HOST} 127.0.0.1",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/browser drives a real browser: mark it, so that ``-m "not browser"`` is the fast tier."""
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """One Chromium for the whole session. A missing Chromium is a failure, never a skip."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install chromium fonts-noto-color-emoji")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # The host's Content-Security-Policy forbids eval, and Playwright's wait_for_function("…") evaluates its
        # text in the page: test contexts bypass the CSP unless they ask otherwise. The pages are checked under
        # the real CSP by tests/browser/test_hardening_csp.py.
        real_new_context = browser.new_context

        def new_context(**kwargs: object) -> object:
            kwargs.setdefault("bypass_csp", True)
            return real_new_context(**kwargs)

        browser.new_context = new_context  # type: ignore[method-assign]
        yield browser
        browser.close()


@pytest.fixture
def phone_context(chromium):
    """A phone-sized, touch-enabled browser context (390×844, like a recent phone) of a device that has seen every
    coach hint already (tests about the coach open a fresh context of their own)."""
    from .phone_helpers import SEEN_EVERY_HINT

    context = chromium.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="en-US",
    )
    context.add_init_script(SEEN_EVERY_HINT)
    yield context
    context.close()


@pytest.fixture
def tv_context(chromium):
    """A 1920×1080 context, like the laptop's browser on the TV."""
    context = chromium.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US")
    yield context
    context.close()


@pytest.fixture
def phone_page(chromium):
    """``phone_page(server, seat=None, name="", size=(390, 844), lang="en", fresh=False, path="/")``: a phone page
    (``PhonePage`` of tests/browser/qa_helpers.py) in a touch context of its own, seated by tapping when ``seat`` is
    given; ``fresh``, a device that never played. Every context it opened is closed after the test."""
    from .qa_helpers import open_phone
    from .qa_helpers import phone_context as new_context

    contexts = []

    def open_page(server, seat=None, name="", *, size=(390, 844), lang="en", fresh=False, path="/"):
        context = new_context(chromium, size, lang, fresh)
        contexts.append(context)
        return open_phone(context, server, seat, name, path)

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def phone_url(port: int, path: str = "/") -> str:
    """The URL a phone on the LAN would open: a non-secure origin that stays on loopback."""
    return f"http://{PHONE_HOST}:{port}{path}"


def listen_again(app: object, port: int) -> ServerThread:
    """A restarted host: serve ``app`` on the ``port`` the previous one used (the pages keep their URL), as soon
    as the system lets it go."""
    import time

    from quatro_party.server import ServerThread

    for _ in range(50):
        try:
            return ServerThread(app, "127.0.0.1", port).start()  # type: ignore[arg-type]
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"could not listen on port {port} again")
