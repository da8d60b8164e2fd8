"""WebKit, the engine of iOS Safari: Debian's WebKitGTK (``webkit2gtk-driver``: WebKitWebDriver and MiniBrowser)
driven by Selenium under a private Xvfb display. MiniBrowser has no headless mode, and its toolbar stops a window
below 447 px, so it runs full-screen and the window is then sized like a phone. WebKitGTK has no touch: taps
arrive as mouse pointers (``pointerType`` "mouse"), which is why the page listens to Pointer Events only.

WebKitGTK has no host-resolver rule either, so its pages open on ``127.0.0.1`` (a secure origin, unlike a phone's
LAN page); the rest of the phone's behaviour is the same.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from .base import Engine

WEBDRIVER = os.environ.get("QUATRO_WEBKITWEBDRIVER") or shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"
MINIBROWSER = os.environ.get("QUATRO_MINIBROWSER") or "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
XVFB = shutil.which("Xvfb") or "/usr/bin/Xvfb"


class Xvfb:
    """A private X display (``-displayfd``: the server picks a free number and says which)."""

    def __init__(self) -> None:
        if not Path(XVFB).exists():
            raise FileNotFoundError(f"Xvfb not found at {XVFB}: apt-get install xvfb xauth")
        r, w = os.pipe()
        self.proc = subprocess.Popen(
            [XVFB, "-displayfd", str(w), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            pass_fds=(w,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(w)
        number = b""
        while not number.endswith(b"\n"):
            chunk = os.read(r, 16)
            if not chunk:
                raise RuntimeError("Xvfb did not start")
            number += chunk
        os.close(r)
        self.display = f":{number.decode().strip()}"

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class WebKit(Engine):
    """One MiniBrowser window on a private display, driven through WebKitWebDriver."""

    def __init__(self, display: str) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        for path in (WEBDRIVER, MINIBROWSER):
            if not Path(path).exists():
                raise FileNotFoundError(f"{path} not found: apt-get install webkit2gtk-driver")
        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")  # MiniBrowser under WebDriver control
        options.add_argument("--full-screen")
        env = dict(os.environ, DISPLAY=display, GDK_BACKEND="x11")
        # WebKitWebDriver starts MiniBrowser with its own environment: the display goes there.
        self.driver = webdriver.WebKitGTK(options=options, service=Service(executable_path=WEBDRIVER, env=env))

    def viewport(self, width: int, height: int) -> None:
        self.driver.set_window_rect(0, 0, width, height)

    def goto(self, url: str) -> None:
        self.driver.get(url)

    def reload(self) -> None:
        self.driver.refresh()

    def js(self, expression: str) -> Any:
        value = self.driver.execute_async_script(
            f"const done = arguments[arguments.length - 1]; Promise.resolve({expression})"
            ".then((v) => done(JSON.stringify(v === undefined ? null : v)), (e) => done(JSON.stringify({__error: String(e)})));"
        )
        out = json.loads(value) if value else None
        if isinstance(out, dict) and "__error" in out:
            raise RuntimeError(out["__error"])
        return out

    def _element(self, selector: str) -> Any:
        from selenium.webdriver.common.by import By

        el = self.driver.find_element(By.CSS_SELECTOR, selector)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'nearest'})", el)
        return el

    def tap(self, selector: str) -> None:
        """What WebKitGTK makes of a tap: a mouse pointer pressed on the element's middle and released."""
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).move_to_element(self._element(selector)).click_and_hold().release().perform()

    def press(self, selector: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).move_to_element(self._element(selector)).click_and_hold().perform()

    def release(self) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).release().perform()  # the same pointer: its state outlives one perform()

    def type(self, selector: str, text: str) -> None:
        el = self._element(selector)
        el.clear()
        el.send_keys(text)

    def screenshot(self, path: Path) -> None:
        self.driver.save_screenshot(str(path))

    def close(self) -> None:
        self.driver.quit()
