"""Nothing private reaches the TV before the reveal, in its frames or its page (R36–R39); afterwards everything
does. Also the running reshuffle vote with its countdown (R28) and a Contre! reveal (R24).

Screenshot at 1920×1080: ``screenshots/screen-vote.png``.
"""

from __future__ import annotations

import json
import re
import time

import pytest

from ..timeouts import limit
from .screen_helpers import (
    all_keys,
    join,
    open_screen,
    to_play,
)

PUBLIC = "party.test"


@pytest.mark.live_server(seats=4, public_host=PUBLIC)
def test_nothing_private_before_the_reveal_frames_and_dom(live_server, tv_context, screenshot_dir):
    """R36–R39: the screen's frames and DOM hold no hand and no sign before the reveal; afterwards they do.

    Four phones (no bots, who could legitimately emit their team's sign), with signs 🐳 and 🦉.
    Also shows the running reshuffle vote with its countdown (R28) and a Contre! reveal (R24).
    """
    phones = [join(live_server, s, n) for s, n in enumerate(["Ana", "Bruno", "Chloé", "Dan"])]
    screen = open_screen(tv_context, live_server)
    page = screen.page
    page.click("#start-slot .start-game")
    for p in phones:
        p.wait_state(lambda v: v["phase"] == "sign")
    assert phones[0].act("pick_sign", sign="🐳")["type"] == "ok"
    assert phones[1].act("pick_sign", sign="🦉")["type"] == "ok"
    to_play(phones)
    screen.wait_phase("play")
    hands = {}
    for p in phones:
        v = p.wait_state(lambda v: v["phase"] == "play" and v["you"]["hand"])
        hands[p.seat] = {c["id"] for c in v["you"]["hand"]}
    # Play a little: a decoy emission, a swap, a reshuffle vote.
    assert phones[0].act("take_channel")["type"] == "ok"
    assert phones[0].act("choose_emoji", emoji="🍩")["type"] == "ok"
    v = phones[1].wait_state(lambda v: v["phase"] == "play")
    hand1 = v["you"]["hand"]
    assert phones[1].act("swap", card=hand1[0]["id"], place=1, expected=v["centre"][1]["id"])["type"] == "ok"
    assert phones[2].act("request_reshuffle")["type"] == "ok"
    screen.wait("!document.querySelector('#vote').hidden")
    notice = screen.text("#vote .vote-ask")
    assert notice.startswith("🔀 Chloé asks to reshuffle"), notice
    assert re.fullmatch(r"(1\d|20) s", screen.text("#vote .vote-left"))
    # R28: who still has to answer (the other connected humans), none of them has said yes yet
    assert screen.page.locator("#vote .voter.wait").count() == 3
    # One decoy is enough: a held channel emits again every 5 s and a burst may stay 4 s on a busy machine (fx.js),
    # so a screen without one came too rarely to be seen once under load. Released once R21's 2 s have passed.
    deadline = time.monotonic() + limit(5)
    while phones[0].act("release_channel")["type"] != "ok":
        assert time.monotonic() < deadline, "the channel could not be released"
        time.sleep(0.2)
    screen.wait("document.querySelector('#fx .burst[data-seat=\"0\"]') === null", timeout=8)
    screen.assert_fits()
    screen.shot(screenshot_dir, "vote")

    # Before the reveal: nothing private in any frame…
    before = list(screen.frames)
    assert before
    for raw in before:
        msg = json.loads(raw)
        if msg.get("type") != "state":
            assert "🐳" not in raw and "🦉" not in raw, raw[:200]
            continue
        v = msg["view"]
        assert len(v.pop("signs")) == 24  # the public list of the 24 emojis (R8), the same for everybody
        assert "🐳" not in json.dumps(msg, ensure_ascii=False) and "🦉" not in json.dumps(msg, ensure_ascii=False)
        assert "you" not in v and v["result"] is None
        assert not any(e["type"] == "round_ended" for e in msg["events"])
        assert not all_keys(msg) & {"hand", "hands", "has_carre", "channel_choice", "sign", "last_sign", "carres"}
        public = {c["id"] for c in v["centre"]}
        for e in msg["events"]:
            for k in ("put", "took"):
                if k in e:
                    public.add(e[k]["id"])
            for c in e.get("centre", []):
                public.add(c["id"])
        shown = {int(x) for x in re.findall(r'"id": ?(\d+)', raw)}
        assert shown <= public, "card ids outside the centre and the public swaps"
    # … and nothing private in the DOM: cards only in the centre (and a swap's taken card flying off).
    dom = page.content()
    assert "🐳" not in dom and "🦉" not in dom
    assert page.locator(".card").count() == page.locator("#places .card, #fx .card").count()
    centre_ids = set(page.evaluate("[...document.querySelectorAll('#places .card')].map(c => +c.dataset.card)"))
    current = phones[3].wait_state(lambda v: v["phase"] == "play")
    assert centre_ids == {c["id"] for c in current["centre"]}
    assert page.locator(".sign-badge, .hand .card").count() == 0

    # R24: Bruno calls Contre! on team Blue; the reveal then shows everything (the checks above can see it).
    assert phones[1].act("call_contre", team=0)["type"] == "ok"
    screen.wait_phase("pause")
    result = screen.view()["result"]
    assert result["end"] == "contre" and result["signs"] == ["🐳", "🦉"]
    dom = page.content()
    assert "🐳" in dom and "🦉" in dom
    assert page.locator(".seat .hand .card").count() == 16
    assert screen.text(".sentence").startswith("Bruno called Contre! on team Blue\u00a0●: ")
    assert any("🐳" in f for f in screen.frames[len(before) :])
    assert screen.errors == []
