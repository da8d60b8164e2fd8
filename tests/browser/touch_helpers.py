"""Real touch input for the phone's browser tests: Chromium's own touch events through the DevTools protocol
(``Input.dispatchTouchEvent``), the way a finger reaches the page — touchstart, a hold, touchend, and whatever
click the browser makes of it — rather than Playwright's tap (which waits until its target is enabled and stable)
or mouse events."""

from __future__ import annotations

import time
from typing import Any

#: How long a quick touch lasts, by its events' own time stamps.
TAP_SECONDS = 0.04


class Finger:
    """One finger on a page: ``press(x, y)``, ``lift()``; ``hold(selector, ms)`` presses a control's centre for
    ``ms`` and lifts at the same point; ``tap(x, y)`` a quick touch."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.at: tuple[float, float] | None = None

    def centre(self, selector: str) -> tuple[float, float]:
        box = self.page.locator(selector).bounding_box()
        assert box, f"{selector} is not on screen"
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def press(self, x: float, y: float) -> None:
        self.at = (x, y)
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})

    def lift(self) -> None:
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        self.at = None

    def hold(self, selector: str, ms: int = 800) -> tuple[float, float]:
        x, y = self.centre(selector)
        self.press(x, y)
        self.page.wait_for_timeout(ms)
        self.lift()
        return x, y

    def tap(self, x: float, y: float) -> None:
        """A quick touch: touchstart and touchend ``TAP_SECONDS`` apart by their own time stamps, however long this
        process takes between the two calls. The page judges a press's length by the events' time stamps (a hold
        heard late by a starved page still calls), and Chromium gives the events the stamps sent with them, so a
        tap stays a tap on a starved machine (two calls from here once reached the page over 550 ms apart)."""
        at = time.time()
        self.cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}], "timestamp": at}
        )
        self.cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [], "timestamp": at + TAP_SECONDS}
        )
