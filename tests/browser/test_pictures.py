"""The pictures the browser tests keep are Playwright's pixels: ``pictures.snap`` emulates what the page's context
set (ratio, mobile, orientation) before Chromium takes the picture with its faster encoding, and the page sees
nothing change. Checked on a still page (the rules) as the suite's pictures are taken: a phone upright and
sideways at ratio 2, and the TV at 1920×1080.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from .conftest import phone_url
from .pictures import snap

DEVICES = [((390, 844), 2, True), ((844, 390), 2, True), ((1920, 1080), 1, False)]
#: What the page knows of its screen.
SEES = "[innerWidth, innerHeight, devicePixelRatio, screen.width, screen.height, screen.orientation.type]"


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGBA")


@pytest.mark.live_server(public_host="party.test")
@pytest.mark.parametrize(("size", "ratio", "mobile"), DEVICES, ids=[f"{w}x{h}" for (w, h), _, _ in DEVICES])
def test_snap_takes_the_pixels_playwright_takes(live_server, chromium, tmp_path, size, ratio, mobile):
    width, height = size
    context = chromium.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=ratio, is_mobile=mobile, has_touch=mobile
    )
    try:
        page = context.new_page()
        page.goto(phone_url(live_server.port, "/rules"))
        page.evaluate("document.fonts.ready")
        seen = page.evaluate(SEES)
        before = pixels(page.screenshot())
        ours = pixels(snap(page, tmp_path / "snap.png").read_bytes())
        after = pixels(page.screenshot())
        assert page.evaluate(SEES) == seen, "the page saw its screen change"
        assert ours.size == before.size == (width * ratio, height * ratio)
        assert ImageChops.difference(before, after).getbbox() is None, "the page moved between Playwright's pictures"
        assert ImageChops.difference(ours, before).getbbox() is None, "snap's picture differs from Playwright's"
    finally:
        context.close()
