"""Helpers for the phone controller's browser tests (tests/browser/test_phone.py).

Everything here drives the *real* server (``live_server``): other seats are raw
WebSocket clients speaking the phone protocol, and positions are laid out with the
engine's ``set_position`` test hook on the table thread, so races and carrés are
deterministic.
"""

from __future__ import annotations

import io
import json
import re
import threading
import urllib.request
from pathlib import Path
from typing import Any

from .pictures import snap

WEB = Path(__file__).resolve().parents[2] / "web"

#: Every hint of the phone's coach (web/phone/coach.js), read from its source.
HINT_KEYS = re.findall(r"\{ key: '(\w+)'", (WEB / "phone" / "coach.js").read_text())

#: A device that has seen every hint already (the coach stays quiet): for the tests that are not about it.
SEEN_EVERY_HINT = f"localStorage.setItem('quatro.coach.seen', {json.dumps(json.dumps(HINT_KEYS))});"


def decode_qr(url: str) -> str:
    """Fetch a QR PNG and decode it with pyzbar: the URL a phone's camera would open."""
    from ..timeouts import limit

    with urllib.request.urlopen(url, timeout=limit(5)) as resp:  # loopback only
        return decode_qr_png(resp.read(), url)


def decode_qr_png(png: bytes, what: str = "the image") -> str:
    """The text of the one QR code in a PNG (a file, or a screenshot of the code on a page), decoded with pyzbar."""
    from PIL import Image
    from pyzbar.pyzbar import decode

    image = Image.open(io.BytesIO(png))
    image.load()
    found = decode(image)
    assert len(found) == 1, f"{len(found)} QR codes found in {what}"
    return found[0].data.decode()


def join_on_page(context: Any, url: str, seat: int, name: str) -> tuple[Any, list[str]]:
    """A phone page opened at ``url`` that takes ``seat`` under ``name`` by tapping, as a player would; the page
    and the list its uncaught errors go to."""
    from playwright.sync_api import expect

    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.fill("#name", name)
    page.locator(f'#seat-list [data-seat="{seat}"]').tap()
    expect(page.locator("#screen-wait")).to_be_visible()
    return page, errors


def seat_phones(server: Any, names: dict[int, str]) -> dict[int, Any]:
    """Raw socket phones, one per seat, each joined under its name (the other players of a page's table)."""
    others = {}
    for seat, name in names.items():
        others[seat] = server.phone()
        others[seat].join(seat, name)
    return others


def game_with_page(
    server: Any, context: Any, names: tuple[str, ...] = ("Bruno", "Chloé", "Dora"), page_name: str = "Ana"
) -> tuple[Any, list[str], dict[int, Any], Any]:
    """The usual table of a phone test: ``page_name``'s page on seat 0, raw phones on the next seats under
    ``names``, and the host's screen, which starts the game. Returns (page, its errors, the phones, the screen)
    once the page shows the sign phase."""
    from playwright.sync_api import expect

    from .conftest import phone_url

    page, errors = join_on_page(context, phone_url(server.port), 0, page_name)
    others = seat_phones(server, dict(enumerate(names, start=1)))
    screen = server.screen()
    assert screen.host("start_game")["type"] == "ok"
    expect(page.locator("#screen-sign")).to_be_visible()
    return page, errors, others, screen


def everybody_ready(page: Any, others: dict[int, Any]) -> None:
    """The page taps Ready, every raw phone says ready: the round opens (R11)."""
    from playwright.sync_api import expect

    page.locator("#btn-ready").tap()
    expect(page.locator("#btn-ready")).to_be_disabled()
    for c in others.values():
        assert c.act("ready")["type"] == "ok"
    expect(page.locator("#screen-play")).to_be_visible()


def set_position(server: Any, text: str) -> None:
    """Lay out every hand and the centre (engine notation), then let every socket see it."""
    server.table.set_position(text)


def hand_ids(client: Any) -> dict[str, list[int]]:
    """Rank → card ids of a raw client's own hand, from its last state."""
    out: dict[str, list[int]] = {}
    for c in client.state["view"]["you"]["hand"]:
        out.setdefault(c["rank"], []).append(c["id"])
    return out


def latest_view(client: Any, quiet: float = 0.15) -> dict[str, Any]:
    """Read everything pending on a raw client and return its freshest view."""
    client.drain(quiet)
    return client.state["view"]


def round_result(client: Any) -> dict[str, Any]:
    """The result of the round that just ended, as a raw client hears it: waited for, since its socket may read the
    state a moment after the page that showed the reveal (``latest_view`` once read the view before it)."""
    return client.wait_state(lambda v: v.get("result") is not None, timeout=15)["result"]


def _close_from_server(self: Any, event: dict[str, Any]) -> None:
    """Playwright 1.64 reads ``event["code"]`` of a server's close that carried no code and raises KeyError (a
    socket the host dropped after missed pings); the same handling, tolerant of a close without a code."""
    if self._on_server_close:
        self._on_server_close(event.get("code"), event.get("reason"))
    else:
        self._channel.send_may_fail("closePage", None, event)


def _patch_playwright_close() -> None:
    from playwright._impl._network import WebSocketRoute

    WebSocketRoute._channel_close_server = _close_from_server  # type: ignore[method-assign]


def gated_page(context: Any, port: int) -> tuple[Any, StateGate, list[str]]:
    """A phone page whose sockets go through a :class:`StateGate`, opened at the join URL: (page, gate, its
    errors)."""
    from .conftest import phone_url

    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    gate = StateGate()
    gate.route(page)
    page.goto(phone_url(port))
    return page, gate, errors


class StateGate:
    """Stands between the page and the real server (Playwright's WebSocket routing).

    While ``frozen``, the server's ``state`` messages for the page are held back (replies such as
    ``ok``/``refused`` still pass), so the page acts on a view that is a moment old — exactly what
    happens to a phone that loses a race for a centre card (R16). ``release()`` delivers them in order.
    """

    def __init__(self) -> None:
        self.frozen = False
        self.held: list[tuple[Any, str]] = []
        self.lock = threading.Lock()
        self.connections = 0  # WebSockets the page opened so far
        self.dead: set[int] = set()  # connections that silently swallow everything (a phone back from sleep)
        self.sent: list[tuple[int, str]] = []  # (connection, text) of every message the page sent
        self.dies_after: str | None = None  # the type of the page's message after which its socket dies (once)

    def route(self, page: Any, path: str = "**/ws/phone") -> None:
        _patch_playwright_close()

        def handler(ws: Any) -> None:
            server = ws.connect_to_server()
            with self.lock:
                self.connections += 1
                number = self.connections

            def up(message: str | bytes) -> None:
                text = message if isinstance(message, str) else message.decode()
                with self.lock:
                    self.sent.append((number, text))
                if number not in self.dead:
                    server.send(message)
                    with self.lock:
                        if self.dies_after and json.loads(text).get("type") == self.dies_after:
                            self.dies_after = None
                            self.dead.add(number)  # the message reached the host; nothing passes now, its reply neither

            def down(message: str | bytes) -> None:
                text = message if isinstance(message, str) else message.decode()
                with self.lock:
                    if number in self.dead:
                        return
                    if self.frozen and text.startswith('{"type":"state"'):
                        self.held.append((ws, text))
                        return
                ws.send(text)

            def closed_by_server(code: int | None, reason: str | None) -> None:
                # A dead connection is a zombie: the server gave it up, but the page is never told (no close).
                with self.lock:
                    if number in self.dead:
                        return
                ws.close(code=code, reason=reason)

            server.on_message(down)
            server.on_close(closed_by_server)
            ws.on_message(up)

        page.route_web_socket(path, handler)

    def wait_for_connections(self, page: Any, count: int, seconds: float = 6.0) -> None:
        """Let the page run until it has opened ``count`` sockets (a dead one replaced), at most ``seconds``
        (× ``QUATRO_TEST_TIMEOUT_FACTOR``)."""
        from ..timeouts import limit

        for _ in range(int(limit(seconds) * 10)):
            if self.connections >= count:
                break
            page.wait_for_timeout(100)
        assert self.connections == count

    def kill_current(self) -> None:
        """The page's current socket stays 'open' but nothing passes any more, either way."""
        with self.lock:
            self.dead.add(self.connections)

    def freeze(self) -> None:
        with self.lock:
            self.frozen = True

    def release(self) -> None:
        with self.lock:
            self.frozen = False
            held, self.held = self.held, []
        for ws, text in held:
            ws.send(text)


def hold(page: Any, selector: str, ms: int = 800) -> None:
    """Press and hold a button (the calls need a deliberate press, not a stray touch)."""
    box = page.locator(selector).bounding_box()
    assert box, f"{selector} is not visible"
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(ms)
    page.mouse.up()


def page_bytes() -> dict[str, int]:
    """Every file the controller page loads when it opens (html, css, the scripts its static ``import``s reach, and
    the words of the longest catalog: a page loads one language at a time), with its size. Modules a phone needs
    only sometimes (``later('…')``: the seat link, the audience…) are left out; :func:`later_bytes` lists them."""
    import re

    files = {WEB / "phone.html", WEB / "phone.css", WEB / "common" / "theme.css"}
    seen: set[Path] = set()
    todo = [WEB / "phone.js"]
    while todo:  # follow the static ES module imports
        f = todo.pop().resolve()
        if f in seen:
            continue
        seen.add(f)
        for rel in re.findall(r"""(?:^|\n)\s*import\s[^;]*?from\s+['"](\.[^'"]+)['"]""", f.read_text()):
            todo.append(f.parent / rel)
    every = sorted({p.resolve() for p in files} | seen)
    sizes = {str(p.relative_to(WEB.resolve())): p.stat().st_size for p in every}
    sizes.update(phone_words())
    return sizes


def phone_words() -> dict[str, int]:
    """The words the phone loads with its page, as the host serves them (``/i18n/<lang>.json?groups=common,phone``),
    for the longest catalog: a page loads one language at a time."""
    import json

    from quatro_party.server import catalogs

    sizes = {
        lang: len(
            json.dumps(
                catalogs.catalog(WEB, lang, ["common", "phone"]), ensure_ascii=False, separators=(",", ":")
            ).encode()
        )
        for lang in catalogs.languages(WEB)
    }
    longest = max(sizes, key=lambda lang: sizes[lang])
    return {f"i18n/{longest}.json?groups=common,phone": sizes[longest]}


def later_bytes() -> dict[str, int]:
    """The phone's modules loaded only when needed (``later('name')``), with their sizes."""
    import re

    names = set()
    for f in (WEB / "phone").glob("*.js"):
        names |= set(re.findall(r"""later\('([a-z-]+)'\)""", f.read_text()))
    names |= set(re.findall(r"""later\('([a-z-]+)'\)""", (WEB / "phone.js").read_text()))
    return {
        n: (WEB / "phone" / f"{n}.js").stat().st_size for n in sorted(names) if (WEB / "phone" / f"{n}.js").exists()
    }


#: Resolves once the page has taken the viewport's new size and drawn two frames at it (its resize handlers ran).
RESIZED = """async ([w, h, limitMs]) => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  const end = performance.now() + limitMs;
  while (innerWidth !== w || innerHeight !== h) {
    if (performance.now() > end) throw new Error(`the page is ${innerWidth}x${innerHeight}, not ${w}x${h}`);
    await frame();
  }
  await frame();
  await frame();
}"""


def resize(page: Any, width: int, height: int) -> None:
    """Give the page a new viewport and wait until it has laid itself out at that size."""
    from ..timeouts import limit_ms

    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(RESIZED, [width, height, limit_ms(10)])


#: Where a bubble (a selector, or a box kept by KEEP_FINGER) lies over what a player must keep in sight: the hand,
#: the seat strip, help. ``null`` when the bubble is not shown.
COVERS = """(sel) => {
  let r = sel;  // a selector, or a box the page kept (KEEP_FINGER)
  if (typeof sel === 'string') {
    const b = document.querySelector(sel);
    if (!b || b.hidden || !b.getClientRects().length) return null;
    r = b.getBoundingClientRect();
  }
  if (!r) return null;
  const out = [];
  for (const id of ['hand-zone', 'strip', 'help']) {
    const z = document.getElementById(id);
    if (!z || z.closest('[hidden]') || !z.getClientRects().length) continue;
    const q = z.getBoundingClientRect();
    const w = Math.min(r.right, q.right) - Math.max(r.left, q.left), h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
    if (w > 1 && h > 1) out.push(`#${id} (${Math.round(w)}×${Math.round(h)})`);
  }
  return out;
}"""
#: The finger bubble's last box while it shows, kept by the page: it fades after 1.6 s, which on a loaded machine
#: passed before the tray had finished opening and could be measured against. Its layout box (it is fixed, placed
#: by left/top), not the one drawn while it pops in from 85 %.
KEEP_FINGER = """() => {
  const f = document.getElementById('finger');
  window.__finger = null;
  new MutationObserver(() => {
    if (f.hidden) return;
    const left = parseFloat(f.style.left), top = parseFloat(f.style.top);
    window.__finger = { left, top, right: left + f.offsetWidth, bottom: top + f.offsetHeight };
  }).observe(f, { attributes: true, childList: true });
}"""


#: Resolves when the short motions now running (card slides, fades: at most 600 ms, not looping) have ended.
SETTLED = """() => Promise.all(document.getAnimations()
    .filter(a => { const t = a.effect && a.effect.getTiming(); return t && typeof t.duration === 'number'
                   && t.duration <= 600 && t.iterations !== Infinity; })
    .map(a => a.finished.catch(() => null)))"""


def entered(locator: Any) -> None:
    """Until the element's own entrance (its animations that end: a fade-in, a pop) is over."""
    locator.evaluate(
        """(e) => Promise.all(e.getAnimations().filter((a) => Number.isFinite(a.effect.getComputedTiming().endTime))
             .map((a) => a.finished.catch(() => null)))"""
    )


def shot(page, screenshot_dir, state: str, camera: Any = None) -> None:
    """A picture of the page once its short motions (card slides, fades) have settled: ``phone-<state>.png``.
    ``camera``: a :class:`~tests.browser.pictures.Camera` of the page, for the sweeps that take many (faster; it
    keeps them only with ``QUATRO_SWEEP_SHOTS=1``, and the sweep takes the picture of a failed check itself)."""
    page.evaluate(SETTLED)
    path = screenshot_dir / f"phone-{state}.png"
    if camera is None:
        snap(page, path)
    else:
        camera.shoot(path)
