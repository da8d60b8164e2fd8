"""Helpers for the cross-page scenarios (tests/browser/test_evening.py, tests/browser/test_first_game.py): the TV
page and phone pages of one real table, side by side, with raw socket phones on the other seats. The tests open
their phone pages through the ``phone_page`` fixture (tests/browser/conftest.py), which closes them afterwards.

Screenshots are named ``qa-<scenario>-<what>.png`` in ``screenshots/``.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from ..timeouts import limit_ms
from .conftest import phone_url
from .phone_helpers import SEEN_EVERY_HINT, SETTLED
from .pictures import snap
from .screen_helpers import ScreenPage

PUBLIC = "party.test"
SIZES = {"390x844": (390, 844), "360x640": (360, 640), "844x390": (844, 390)}

#: "m:ss" of a clock on either page.
CLOCK = re.compile(r"^\d+:\d\d$")


def phone_context(chromium: Any, size: tuple[int, int] = (390, 844), lang: str = "en", fresh: bool = False) -> Any:
    """A phone-sized touch context. ``fresh``: a device that never played (the coach has everything to say);
    else a device that has seen every hint (the coach keeps quiet)."""
    context = chromium.new_context(
        viewport={"width": size[0], "height": size[1]},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="fr-FR" if lang == "fr" else "en-US",
    )
    if not fresh:
        context.add_init_script(SEEN_EVERY_HINT)
    return context


class PhonePage:
    """A phone page with its uncaught errors and every WebSocket frame it received."""

    def __init__(self, context: Any, url: str) -> None:
        self.page = context.new_page()
        self.errors: list[str] = []
        self.frames: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("websocket", self._on_socket)
        self.page.goto(url)

    def _on_socket(self, ws: Any) -> None:
        ws.on("framereceived", lambda f: self.frames.append(f if isinstance(f, str) else f.decode("utf-8", "replace")))

    def join(self, seat: int, name: str) -> PhonePage:
        self.page.fill("#name", name)
        self.page.locator(f'#seat-list [data-seat="{seat}"]').tap()
        expect(self.page.locator("#screen-wait")).to_be_visible()
        return self

    def shot(self, folder: Path, name: str) -> Path:
        settle(self.page)
        path = folder / f"qa-{name}.png"
        snap(self.page, path)
        return path

    def hand(self) -> list[str]:
        return self.page.locator("#hand .card .rank").all_inner_texts()

    def clock(self) -> str:
        return self.page.locator("#clock").inner_text().strip()


def open_phone(context: Any, server: Any, seat: int | None = None, name: str = "", path: str = "/") -> PhonePage:
    """A phone page at the join URL (``path``), seated by tapping when ``seat`` is given."""
    phone = PhonePage(context, phone_url(server.port, path))
    if seat is not None:
        phone.join(seat, name)
    return phone


def socket_phone(server: Any, seat: int, name: str) -> Any:
    """A player with no page: a raw socket phone, seated under ``name``."""
    phone = server.phone()
    phone.join(seat, name)
    return phone


def open_tv(context: Any, server: Any) -> ScreenPage:
    """The host's TV page (it proved the host secret)."""
    tv = ScreenPage(context, server.screen_url(host=True))
    tv.wait("document.body.dataset.phase && document.body.dataset.phase !== 'loading'")
    return tv


def tv_shot(tv: ScreenPage, folder: Path, name: str) -> Path:
    path = folder / f"qa-{name}.png"
    snap(tv.page, path)
    return path


def open_panel(tv: ScreenPage) -> None:
    """The host's panel on the TV, opened from its menu button."""
    if tv.page.locator("#panel").is_hidden():
        tv.page.click("#host-menu")
    tv.wait("!document.querySelector('#panel').hidden")


def close_panel(tv: ScreenPage) -> None:
    if tv.page.locator("#panel").is_visible():
        tv.page.click("#panel .panel-close")
    tv.wait("document.querySelector('#panel').hidden")


def settle(page: Any) -> None:
    """Let the short motions (card slides, fades) finish before a picture."""
    page.evaluate(SETTLED)


def ready_pages(pages: list[PhonePage], sockets: list[Any], rnd: int = 1) -> None:
    """Everybody ready in the sign phase of round ``rnd``: the pages tap Ready, the sockets say it; the round opens."""
    for p in pages:
        expect(p.page.locator("#screen-sign")).to_be_visible(timeout=limit_ms(15))
        p.page.locator("#btn-ready").tap()
    for s in sockets:
        s.wait_state(lambda v: v["phase"] == "sign" and v["round"] == rnd, timeout=15)
        assert s.act("ready")["type"] in ("ok", "refused")
    for p in pages:
        expect(p.page.locator("#screen-play")).to_be_visible(timeout=limit_ms(15))


def start_on_tv(tv: ScreenPage, pages: list[PhonePage], sockets: list[Any]) -> None:
    """The host taps Start on the TV and everybody gets ready: the first round is on."""
    tv.page.click("#start-slot .start-game")
    ready_pages(pages, sockets)


def seconds(clock: str) -> int:
    """``"m:ss"`` → seconds."""
    m, s = clock.split(":")
    return int(m) * 60 + int(s)


def decode_png(png: bytes) -> str:
    """The text of the one QR code in a PNG (a screenshot of a code on a page)."""
    from PIL import Image
    from pyzbar.pyzbar import decode

    found = decode(Image.open(io.BytesIO(png)))
    assert len(found) == 1, f"{len(found)} QR codes found"
    return found[0].data.decode()


def engine_hand(server: Any, seat: int) -> list[str]:
    """The ranks of a seat's hand in the engine (on the table thread)."""
    return server.table.call(lambda: [c.rank for c in server.table.game.seats[seat].hand])


def emitted(client: Any, seat: int, emoji: str, timeout: float = 15) -> None:
    """Until ``client`` (a socket phone) sees ``seat`` flash ``emoji``."""
    client.expect(
        lambda m: (
            m.get("type") == "state"
            and any(e["type"] == "emitted" and e["seat"] == seat and e["emoji"] == emoji for e in m["events"])
        ),
        timeout=timeout,
    )
