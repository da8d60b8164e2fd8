"""Firefox ESR driven through its built-in WebDriver BiDi (no geckodriver, no Node): a small client over the
WebSocket client Selenium brings (websocket-client), enough for a phone test — open a page at a phone's size, tap
with real touch pointers, type, run a script, take a screenshot, reload.

Firefox is started with a throw-away profile whose prefs keep it quiet (no update, telemetry or safe-browsing
traffic) and send anything not on this machine to a closed local port, so the tests' traffic stays on loopback;
``party.test`` resolves to this machine (``network.dns.localDomains``), a non-secure origin like a phone's LAN page.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import websocket

from ...timeouts import limit
from .base import Engine

#: Where to tap an element (``%d``: a time limit in ms, ``%s``: its selector as JSON): ``{at: [x, y]}`` once its box
#: has held still for two frames with the element itself under its middle, or ``{why}`` not.
CENTRE = """(async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  const end = performance.now() + %d;
  let last = null, why = 'not on the page';
  while (performance.now() < end) {
    const el = document.querySelector(%s);
    if (el) {
      el.scrollIntoView({block: 'nearest'});
      const r = el.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      const here = [x, y].join();
      if (hit && (hit === el || el.contains(hit)) && here === last) return {at: [x, y]};
      why = hit && hit !== el && !el.contains(hit) ? 'under ' + (hit.id || hit.className || hit.tagName) : 'moving';
      last = here;
    }
    await frame();
  }
  return {why};
})()"""

FIREFOX = os.environ.get("QUATRO_FIREFOX") or shutil.which("firefox-esr") or "/usr/bin/firefox-esr"
PHONE_HOST = "party.test"

PREFS = {
    # a phone: touch events and a coarse primary pointer
    "dom.w3c_touch_events.enabled": 1,
    "dom.w3c_touch_events.legacy_apis.enabled": True,
    "dom.maxtouchpoints.testing.value": 5,
    "ui.primaryPointerCapabilities": 1,
    # the phone's LAN page, on loopback
    "network.dns.localDomains": PHONE_HOST,
    # nothing leaves the machine: no background services, and anything not local goes to a closed local port
    "network.proxy.type": 1,
    "network.proxy.http": "127.0.0.1",
    "network.proxy.http_port": 9,
    "network.proxy.ssl": "127.0.0.1",
    "network.proxy.ssl_port": 9,
    "network.proxy.no_proxies_on": f"127.0.0.1,localhost,{PHONE_HOST}",
    "network.proxy.allow_hijacking_localhost": False,
    "network.trr.mode": 5,
    "network.dns.disablePrefetch": True,
    "network.prefetch-next": False,
    "network.connectivity-service.enabled": False,
    "network.captive-portal-service.enabled": False,
    "app.update.disabledForTesting": True,
    "app.normandy.enabled": False,
    "browser.safebrowsing.update.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.aboutwelcome.enabled": False,
    "browser.newtabpage.enabled": False,
    "browser.search.update": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "dom.push.connection.enabled": False,
    "media.gmp-manager.updateEnabled": False,
    "services.settings.server": "http://127.0.0.1:9/",
    "remote.prefs.recommended": True,
}


class BiDiError(RuntimeError):
    """A command the browser answered with an error."""


class Firefox(Engine):
    """One headless Firefox and one BiDi session on it; :meth:`page` gives the one tab, sized like a phone."""

    NAVIGATING = (BiDiError,)

    def __init__(self, executable: str = FIREFOX) -> None:
        # websocket-client (Selenium's dependency) sends Host with the port and can leave Origin out, as BiDi wants
        if not Path(executable).exists():
            raise FileNotFoundError(f"Firefox not found at {executable}: apt-get install firefox-esr")
        self.profile = tempfile.mkdtemp(prefix="quatro-firefox-")
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            for k, v in PREFS.items():
                f.write(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n")
        self.proc = subprocess.Popen(
            [executable, "--headless", "--no-remote", "--profile", self.profile, "--remote-debugging-port", "0"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        url = self._listening_url()
        self.ws = websocket.create_connection(f"{url}/session", suppress_origin=True, timeout=30)
        self.ids = itertools.count(1)
        self.replies: dict[int, dict[str, Any]] = {}
        self.lock = threading.Lock()
        # A fresh profile's first session: beside two busy processes and three workers it took over 30 s once.
        self.send("session.new", {"capabilities": {"alwaysMatch": {"acceptInsecureCerts": True}}}, timeout=limit(60))
        tree = self.send("browsingContext.getTree", {})
        self.context = tree["contexts"][0]["context"]

    def _listening_url(self, timeout: float = 30.0) -> str:
        assert self.proc.stderr is not None
        end = time.monotonic() + timeout
        lines = []
        while time.monotonic() < end:
            line = self.proc.stderr.readline()
            if not line:
                if self.proc.poll() is not None:
                    break
                continue
            lines.append(line)
            m = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
            if m:
                # keep reading stderr so Firefox never blocks on a full pipe
                threading.Thread(target=self._drain, daemon=True).start()
                return m.group(1)
        raise RuntimeError("Firefox did not start its WebDriver BiDi server:\n" + "".join(lines[-20:]))

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for _ in self.proc.stderr:
            pass

    def send(self, method: str, params: dict[str, Any], timeout: float = 30.0) -> dict[str, Any]:
        """Run one BiDi command and return its result (events that arrive meanwhile are dropped)."""
        with self.lock:
            n = next(self.ids)
            self.ws.send(json.dumps({"id": n, "method": method, "params": params}))
            end = time.monotonic() + timeout
            while time.monotonic() < end:
                self.ws.settimeout(max(0.05, end - time.monotonic()))
                try:
                    raw = self.ws.recv()
                except websocket.WebSocketTimeoutException:
                    continue
                msg = json.loads(raw)
                if msg.get("id") != n:
                    continue
                if msg.get("type") == "error":
                    raise BiDiError(f"{method}: {msg.get('error')}: {msg.get('message')}")
                return dict(msg.get("result") or {})
        raise TimeoutError(f"{method}: no answer in {timeout} s")

    def close(self) -> None:
        try:
            self.send("session.end", {}, timeout=5)
        except Exception:  # noqa: BLE001 - closing a browser that may already be gone
            pass
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001
            pass
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)

    # ---------------------------------------------------------------------------------------------- page

    def viewport(self, width: int, height: int, scale: float = 2.0) -> None:
        self.send(
            "browsingContext.setViewport",
            {"context": self.context, "viewport": {"width": width, "height": height}, "devicePixelRatio": scale},
        )

    def goto(self, url: str) -> None:
        self.send("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def reload(self) -> None:
        self.send("browsingContext.reload", {"context": self.context, "wait": "complete"})

    def js(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (awaited if it is a promise), as JSON data."""
        res = self.send(
            "script.evaluate",
            {
                "expression": f"(async () => JSON.stringify(await ({expression})))()",
                "target": {"context": self.context},
                "awaitPromise": True,
                "resultOwnership": "none",
            },
        )
        if res.get("type") == "exception":
            raise BiDiError(f"script: {res['exceptionDetails'].get('text')}")
        value = res["result"].get("value")
        return None if value is None else json.loads(value)

    def center(self, selector: str) -> tuple[float, float]:
        """The middle of the element once a finger there would touch it: its box held still for two frames and
        nothing else lies over its middle (a page still laying out, on a loaded machine, moves it under the
        finger), at most 5 s (× ``QUATRO_TEST_TIMEOUT_FACTOR``)."""
        found = self.js(CENTRE % (round(limit(5.0) * 1000), json.dumps(selector)))
        if not found or not found.get("at"):
            raise AssertionError(f"{selector}: no place to tap ({found and found.get('why')})")
        return float(found["at"][0]), float(found["at"][1])

    def tap(self, selector: str) -> None:
        """A finger on the middle of the element (a real touch pointer), lifted at once."""
        x, y = self.center(selector)
        self._finger(
            [
                {"type": "pointerMove", "x": round(x), "y": round(y)},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerUp", "button": 0},
            ]
        )

    def press(self, selector: str) -> None:
        """A finger put down on the middle of the element (a real touch pointer)."""
        x, y = self.center(selector)
        self._finger([{"type": "pointerMove", "x": round(x), "y": round(y)}, {"type": "pointerDown", "button": 0}])

    def release(self) -> None:
        self._finger([{"type": "pointerUp", "button": 0}])

    def _finger(self, steps: list[dict[str, Any]]) -> None:
        """Steps of the one touch pointer: its state (down or up) outlives one command, as BiDi keeps it."""
        self.send(
            "input.performActions",
            {
                "context": self.context,
                "actions": [
                    {"type": "pointer", "id": "finger", "parameters": {"pointerType": "touch"}, "actions": steps}
                ],
            },
        )

    def type(self, selector: str, text: str) -> None:
        """Focus a field by tapping it and type ``text`` key by key."""
        self.tap(selector)
        self.js(f"document.querySelector({json.dumps(selector)}).select()")
        keys: list[dict[str, Any]] = []
        for ch in text:
            keys += [{"type": "keyDown", "value": ch}, {"type": "keyUp", "value": ch}]
        self.send(
            "input.performActions", {"context": self.context, "actions": [{"type": "key", "id": "kb", "actions": keys}]}
        )

    def screenshot(self, path: Path) -> None:
        data = self.send("browsingContext.captureScreenshot", {"context": self.context})["data"]
        path.write_bytes(base64.b64decode(data))
