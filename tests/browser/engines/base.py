"""What the phone drivers (Chromium, WebKit, Firefox) share, so that one test runs the phone's main flow in each
engine: the polling wait, which every engine builds the same way on its own ``js``."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from typing import Any

from ...timeouts import limit


class Engine(ABC):
    """One phone page in one browser engine. Besides :meth:`js` and :meth:`wait`, each driver offers
    ``viewport(width, height)``, ``goto(url)``, ``reload()``, ``tap(selector)``, ``press(selector)`` and
    ``release()`` (a finger put down on an element's middle, then lifted), ``type(selector, text)``,
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
        raise AssertionError(f"timed out waiting for {what or expression} (last: {last!r}); {self.shows()}")

    def shows(self) -> str:
        """What the page shows, for a failure's message: its visible text, shortened (a wait that timed out once
        beside two CPU-bound processes told nothing of where the page stood)."""
        try:
            text = self.js("document.body ? document.body.innerText : ''")
        except Exception as exc:  # the page is gone or navigating: say so rather than hide the first failure
            return f"the page could not be read ({exc})"
        lines = [line.strip() for line in str(text).splitlines() if line.strip()]
        return "the page shows: " + " | ".join(lines)[:600]

    @abstractmethod
    def press(self, selector: str) -> None:
        """Put a finger (or the mouse's button) down on the element's middle, and leave it there."""

    @abstractmethod
    def release(self) -> None:
        """Lift what :meth:`press` put down."""

    def hold(self, selector: str, until: str, what: str = "") -> None:
        """Press the element and keep it pressed until the JavaScript expression ``until`` is truthy (at most 10 s ×
        ``QUATRO_TEST_TIMEOUT_FACTOR``), then let go: held until the page shows the hold has done its work, as a
        player keeps a thumb down until the ring has filled. A hold of a fixed length measured the machine: a page
        starved for longer than the hold handled the release before its own timer and took the hold for a tap."""
        self.press(selector)
        try:
            self.wait(until, what=what or until)
        finally:
            self.release()
