"""What the phone drivers (Chromium, WebKit, Firefox) share, so that one test runs the phone's main flow in each
engine: the polling wait, which every engine builds the same way on its own ``js``."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from typing import Any

from ...timeouts import limit


class Engine(ABC):
    """One phone page in one browser engine. Besides :meth:`js` and :meth:`wait`, each driver offers
    ``viewport(width, height)``, ``goto(url)``, ``reload()``, ``tap(selector, hold_ms=0)``, ``type(selector, text)``,
    ``screenshot(path)`` and ``close()``."""

    #: What ``js`` raises while the page is navigating: :meth:`wait` polls on through it. A driver narrows it to
    #: its own error where it has one, so that a broken driver still fails at once.
    NAVIGATING: tuple[type[Exception], ...] = (Exception,)

    @abstractmethod
    def js(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (awaited if it is a promise), as JSON data."""

    def wait(self, expression: str, timeout: float = 10.0, what: str = "") -> Any:
        """Poll a JavaScript expression until it is truthy, at most ``timeout`` seconds (×
        ``QUATRO_TEST_TIMEOUT_FACTOR``); its value."""
        end = time.monotonic() + limit(timeout)
        last = None
        while time.monotonic() < end:
            try:
                last = self.js(expression)
            except self.NAVIGATING:
                last = None
            if last:
                return last
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what or expression} (last: {last!r})")
