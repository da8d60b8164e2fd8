"""Eight seats on the smallest phone we support (360×640): the channel strip must still say who is who.

When an orange chip lights up with an emoji (R18), the player needs to know *which* orange player emitted: a chip
with only its team shape is useless at 8 seats (two players per team). So every chip shows its name (shortened with
an ellipsis if need be), and the strip still leaves the centre and the whole hand on the 640 px screen, with the
emoji tray open too. Screenshots: ``screenshots/phone-strip8-<size>[-tray].png``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .phone_helpers import everybody_ready, game_with_page, shot

NAMES = ("Bruno", "Chloé Marie-Anne", "Dora", "Emmanuelle", "Farid", "Gwendoline", "Hugo")

#: For every chip: its box, and the part of its name a player actually sees (the name's box clipped by the
#: chip-name box it overflows in), plus the font size.
CHIP_NAMES = """() => [...document.querySelectorAll('#strip .chip')].map((chip) => {
  const box = chip.querySelector('.chip-name').getBoundingClientRect();
  const nm = chip.querySelector('.nm');
  const r = nm.getBoundingClientRect();
  const cs = getComputedStyle(chip.querySelector('.chip-name'));
  const inner = {left: box.left + parseFloat(cs.paddingLeft), right: box.right - parseFloat(cs.paddingRight)};
  return {
    seat: chip.dataset.seat, text: nm.textContent, display: getComputedStyle(nm).display,
    seen: Math.max(0, Math.min(r.right, inner.right) - Math.max(r.left, inner.left)),
    height: r.height, font: parseFloat(getComputedStyle(nm).fontSize),
    chip: chip.getBoundingClientRect().toJSON(), full: r.width,
  };
})"""


def assert_fits(page, width: int, height: int) -> None:
    """Every chip shows a readable part of its name; the strip, the centre and the hand's last card are on screen."""
    chips = page.evaluate(CHIP_NAMES)
    assert len(chips) == 8
    for c in chips:
        assert c["display"] != "none" and c["height"] > 0, f"seat {c['seat']}: name hidden {c}"
        # At least three letters and the ellipsis of a long name (~22 px at 11 px bold), never clipped to nothing.
        assert c["seen"] >= min(c["full"], 22), f"seat {c['seat']}: name clipped to {c['seen']:.0f} px {c}"
        assert c["font"] >= 10, c
        assert 0 <= c["chip"]["left"] and c["chip"]["right"] <= width, c
        assert c["chip"]["bottom"] <= height, c
    rows = sorted({round(c["chip"]["top"]) for c in chips})
    assert len(rows) == 2, f"8 chips on two rows of four, got rows at {rows}"
    for sel in ("#centre", "#hand-zone", "#hand .card >> nth=-1"):
        box = page.locator(sel).bounding_box()
        assert box is not None, sel
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, f"{sel} leaves the screen: {box}"
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"{sel} leaves the screen: {box}"
    assert page.evaluate("document.scrollingElement.scrollHeight") <= height


@pytest.mark.live_server(seats=8, public_host="party.test")
@pytest.mark.parametrize("size", [(360, 640), (390, 844)], ids=["360x640", "390x844"])
def test_eight_seats_every_chip_names_its_player_and_the_hand_stays_on_screen(
    live_server, phone_context, size, screenshot_dir
):
    width, height = size
    page, errors, others, _ = game_with_page(live_server, phone_context, NAMES)
    page.set_viewport_size({"width": width, "height": height})
    everybody_ready(page, others)
    expect(page.locator("#strip .chip")).to_have_count(8)
    expect(page.locator("#hand .card")).to_have_count(4)

    # One player takes the channel and emits: its chip lights up, and its name says who it is.
    emitter = others[5]  # Farid
    assert emitter.act("take_channel")["type"] == "ok"
    emoji = emitter.state["view"]["signs"][0]
    assert emitter.act("choose_emoji", emoji=emoji)["type"] == "ok"
    expect(page.locator('#strip [data-seat="5"] .chip-emoji')).to_have_text(emoji)
    shot(page, screenshot_dir, f"strip8-{width}x{height}")
    assert_fits(page, width, height)
    chips = page.evaluate(CHIP_NAMES)
    assert [c["text"] for c in chips] == ["you", *NAMES]

    page.locator("#btn-channel").tap()  # the emoji tray open too
    expect(page.locator("#tray")).to_be_visible()
    page.wait_for_timeout(200)
    shot(page, screenshot_dir, f"strip8-{width}x{height}-tray")
    assert_fits(page, width, height)
    assert errors == []
    for c in others.values():
        c.close()
