"""R31: play does not stop during a reshuffle vote — the vote prompt leaves the calls, the channel, the strip
and the cards in sight and tappable, on a recent phone and on the smallest one we support."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .phone_helpers import everybody_ready, game_with_page, shot

#: What a player may need during the 20 s of a vote: answer a partner's sign, Contre, show a sign, swap.
PLAY_CONTROLS = ("#btn-quatro", "#btn-contre", "#btn-channel", "#strip .chip", "#centre .card", "#hand .card")


@pytest.mark.live_server(seats=4, public_host="party.test")
@pytest.mark.parametrize("size", [(390, 844), (360, 640)], ids=["390x844", "360x640"])
def test_r31_the_vote_prompt_leaves_every_play_control_usable(live_server, phone_context, size, screenshot_dir):
    page, errors, others, _ = game_with_page(live_server, phone_context, ("Bruno", "Chloé Marie-Anne", "Dora"))
    page.set_viewport_size({"width": size[0], "height": size[1]})
    everybody_ready(page, others)

    assert others[2].act("request_reshuffle")["type"] == "ok"
    expect(page.locator("#vote-bar")).to_be_visible()
    expect(page.locator("#vote-title")).to_have_text("Chloé Marie-Anne asks for a reshuffle")
    expect(page.locator("#vote-rule")).to_have_text("Silence means no")  # the rule, in the compact bar too
    shot(page, screenshot_dir, f"vote-bar-{size[0]}x{size[1]}")
    for selector in PLAY_CONTROLS:
        # What a finger at the middle of the control would touch: the control itself, not the prompt.
        hit = page.locator(selector).first.evaluate("""el => {
            el.scrollIntoView({block: 'nearest'});
            const r = el.getBoundingClientRect();
            const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return top !== null && el.contains(top);
        }""")
        assert hit, f"{selector} is covered by the vote prompt at {size[0]}x{size[1]}"
    # ... and the prompt itself is whole and answerable, buttons included.
    for action in ("refuse", "accept"):
        box = page.locator(f'#vote-bar [data-action="{action}"]').bounding_box()
        assert box is not None and box["y"] >= 0 and box["height"] >= 44
        assert box["y"] + box["height"] / 2 >= 0.35 * size[1], f"{action} out of the thumb's reach: {box}"
    page.locator('#vote-bar [data-action="accept"]').tap()
    expect(page.locator("#vote-bar")).to_be_hidden()
    expect(page.locator("#finger")).to_have_text("Vote sent ✓")
    assert errors == []
