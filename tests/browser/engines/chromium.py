"""Chromium (Debian's, through Playwright) behind the same small interface as the WebKit and Firefox drivers, so
one test runs the phone's main flow in all three engines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .base import Engine


class Chromium(Engine):
    """A touch-enabled phone context of the session's Chromium (see tests/browser/conftest.py)."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(
            viewport={"width": 390, "height": 844},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            locale="en-US",
        )
        from ..phone_helpers import SEEN_EVERY_HINT

        self.context.add_init_script(
            SEEN_EVERY_HINT
        )  # the main flow, not the coach (tests/browser/test_phone_evening.py)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def viewport(self, width: int, height: int) -> None:
        self.page.set_viewport_size({"width": width, "height": height})

    def goto(self, url: str) -> None:
        self.page.goto(url)

    def reload(self) -> None:
        self.page.reload()

    def js(self, expression: str) -> Any:
        return json.loads(self.page.evaluate(f"async () => JSON.stringify(await ({expression}))") or "null")

    def tap(self, selector: str) -> None:
        self.page.locator(selector).tap(force=True)

    def press(self, selector: str) -> None:
        box = self.page.locator(selector).bounding_box()
        assert box, f"{selector} is not visible"
        self.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.page.mouse.down()

    def release(self) -> None:
        self.page.mouse.up()

    def type(self, selector: str, text: str) -> None:
        self.page.locator(selector).fill("")
        self.page.locator(selector).type(text)

    def screenshot(self, path: Path) -> None:
        self.page.screenshot(path=str(path))

    def close(self) -> None:
        self.context.close()
