"""Browser fixtures: a real headless Chromium (Debian's), driven by Playwright.

A phone on the LAN opens a plain-http page on a non-secure origin; to see what it
sees while staying on loopback, Chromium maps ``party.test`` to 127.0.0.1 and
pages are opened as ``http://party.test:PORT/…`` (its traffic stays on loopback). Screenshots go
to ``screenshots/`` at the project root (or ``$QUATRO_SCREENSHOTS``).

Fixtures: ``chromium`` (one browser per test process, for the whole session: every test opens
contexts of it, which cost milliseconds where a browser costs seconds), ``phone_context``,
``tv_context``, ``phone_page`` (see each), ``screenshot_dir``. Under pytest-xdist each worker
has its own Chromium; the tests share nothing else but the screenshots folder, where every
picture has a name of its own.

Speed: ``pictures.snap(page, path)`` takes the same screenshot as Playwright's ``page.screenshot``
in a third of the processor time (every picture of a Chromium page's viewport goes through it;
the sweeps, which keep only a failed check's, use ``pictures.camera_of(page)``);
``phone_helpers.resize(page, w, h)`` waits for a resized page to lay itself out (no fixed pause);
``ScreenPage.at_rest(seconds)`` waits until what moves on the TV has stopped, at most that long;
``screen_checks.settle(page, w, h)`` does both for a resized TV. Wait on an event, not on time, wherever the page offers one.

Time limits: Playwright's defaults here (``EXPECT_SECONDS`` for ``expect``, ``ACTION_SECONDS``
for the rest), ``ScreenPage.wait``, and any limit written with ``tests.timeouts.limit`` /
``limit_ms`` are multiplied by ``QUATRO_TEST_TIMEOUT_FACTOR`` (tests/timeouts.py).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from ..timeouts import limit, limit_ms
from .pictures import remember_device

if TYPE_CHECKING:
    from quatro_party.server import ServerThread

CHROMIUM = os.environ.get("QUATRO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SCREENSHOTS = Path(os.environ.get("QUATRO_SCREENSHOTS", Path(__file__).resolve().parents[2] / "screenshots"))
PHONE_HOST = "party.test"
#: Playwright's limits when a test gives none (× ``QUATRO_TEST_TIMEOUT_FACTOR``): an ``expect(…)`` assertion (its
#: own default is 5 s, short for a page that reconnects on a busy machine), and every other wait or action.
EXPECT_SECONDS = 10
ACTION_SECONDS = 30

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
    from playwright.sync_api import expect

    expect.set_options(timeout=limit_ms(EXPECT_SECONDS))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # The host's Content-Security-Policy forbids eval, and Playwright's wait_for_function("…") evaluates its
        # text in the page: test contexts bypass the CSP unless they ask otherwise. The pages are checked under
        # the real CSP by tests/browser/test_hardening_csp.py.
        real_new_context = browser.new_context

        def new_context(**kwargs: object) -> object:
            kwargs.setdefault("bypass_csp", True)
            context = real_new_context(**kwargs)
            remember_device(context, kwargs.get("device_scale_factor"), kwargs.get("is_mobile"))
            context.set_default_timeout(limit_ms(ACTION_SECONDS))
            return context

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

    deadline = time.monotonic() + limit(5)
    while True:
        try:
            return ServerThread(app, "127.0.0.1", port).start()  # type: ignore[arg-type]
        except OSError:
            if time.monotonic() > deadline:
                raise AssertionError(f"could not listen on port {port} again") from None
            time.sleep(0.1)
