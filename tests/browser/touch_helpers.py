"""Real touch input for the phone's browser tests: Chromium's own touch events through the DevTools protocol
(``Input.dispatchTouchEvent``), the way a finger reaches the page — touchstart, a hold, touchend, and whatever
click the browser makes of it — rather than Playwright's tap (which waits until its target is enabled and stable)
or mouse events."""

from __future__ import annotations

from typing import Any


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
        """A quick touch: touchstart and touchend sent back to back by Playwright's driver (the same two
        ``Input.dispatchTouchEvent`` calls as press and lift). From this process, two calls a wait apart took longer
        than a hold (550 ms) on a starved machine, and the page rightly fired the call."""
        self.page.touchscreen.tap(x, y)
