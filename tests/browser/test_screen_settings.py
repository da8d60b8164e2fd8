"""The big screen's words follow the table's settings, and the host secret stays off the screen.

* Under ``--time-scale 0.5`` no text on the TV states a duration the rules' defaults would give (3:00, three
  minutes, 30 s…): the clock, the void-round sentence and every duration come from the view's ``timing``.
* The host link's secret (``#host=…``) leaves the address at once; the page keeps its host rights on a reload.
Rules cited: R11 (sign phase), R28 (vote), R32 (void round, pause).
"""

from __future__ import annotations

import re

import pytest

from .screen_helpers import ScreenPage

PUBLIC = "party.test"
#: How the rules' default durations would be written: R32's 3 minutes and 30 s pause, R11's 30 s, R28's 20 s,
#: R18's 5 s, R15/R21's 2 s.
DEFAULT_DURATIONS = re.compile(
    r"3:00|0:30|\b180\b|three minutes|trois minutes|\b3 minutes|\b30 ?s\b|\b20 ?s\b|\b30 seconds|\b20 seconds|"
    r"\b5 seconds|\b2 seconds|\b30 secondes|\b20 secondes",
    re.IGNORECASE,
)


def words_on_screen(screen: ScreenPage) -> str:
    return screen.page.evaluate("document.body.innerText")


@pytest.mark.live_server(seats=4, public_host=PUBLIC, time_scale=0.5)
def test_r32_no_default_duration_on_the_tv_under_time_scale(live_server, tv_context, screenshot_dir):
    """R11, R28, R32 under a time scale of 0.5: the sign clock, the round clock, the vote, the pause and the void
    round all say the table's durations, never the rules' defaults."""
    phones = []
    for seat, name in enumerate(["Ana", "Bruno", "Chloé", "Dan"]):
        p = live_server.phone()
        p.join(seat, name)
        phones.append(p)
    screen = ScreenPage(tv_context, live_server.screen_url(host=True))
    page = screen.page
    screen.wait_phase("lobby")
    seen = {"lobby": words_on_screen(screen)}
    page.click("#start-slot .start-game")
    screen.wait_phase("sign")
    # a game's first sign phase, 60 s × 0.5: read once it is under 30 s, the rules' own sign phase
    screen.wait("/^0:2\\d$/.test(document.querySelector('#clock').textContent)")
    seen["sign"] = words_on_screen(screen)
    assert re.search(r"0:2\d", screen.text("#clock"))
    for p in phones:
        p.wait_state(lambda v: v["phase"] == "sign")
        p.act("ready")
    screen.wait_phase("play")
    seen["play"] = words_on_screen(screen)
    assert re.fullmatch(r"1:[23]\d", screen.text("#clock"))  # 1:30, not 3:00
    assert phones[2].act("request_reshuffle")["type"] == "ok"
    screen.wait("!document.querySelector('#vote').hidden")
    seen["vote"] = words_on_screen(screen)
    assert re.fullmatch(r"(9|10) s", screen.text("#vote .vote-left"))  # 10 s, not 20
    # The void round's sentence, as the page would say it at this table (its round lasts 90 s).
    void = page.evaluate(
        "async () => (await import('/screen.js')).resultSentence({end: 'void', scorers: [], hands: [], round: 1})"
    )
    assert void == "90 seconds, no call: void round — no points"
    seen["void"] = void
    assert phones[1].act("call_contre", team=0)["type"] == "ok"
    screen.wait_phase("pause")
    seen["pause"] = words_on_screen(screen)
    assert re.fullmatch(r"0:1[45]", screen.text("#clock"))  # the pause: 15 s, not 30
    screen.shot(screenshot_dir, "time-scale-pause")
    stated = {phase: DEFAULT_DURATIONS.findall(text) for phase, text in seen.items()}
    assert all(not found for found in stated.values()), stated
    assert screen.errors == []


@pytest.mark.live_server(seats=4, public_host=PUBLIC)
def test_the_host_secret_leaves_the_address_and_survives_a_reload(live_server, tv_context):
    """The launcher opens /screen#host=<secret>: once loaded, the address holds no secret (nor does history), and
    a reload keeps the host controls."""
    secret = live_server.host_secret
    screen = ScreenPage(tv_context, live_server.screen_url(host=True))
    page = screen.page
    screen.wait("document.querySelector('#start-slot .start-game') !== null")
    assert secret not in page.evaluate("location.href") and "host=" not in page.url
    assert page.evaluate("history.length") >= 1 and secret not in page.evaluate("document.body.innerText")
    page.reload()
    screen.wait("document.querySelector('#start-slot .start-game') !== null")
    assert secret not in page.evaluate("location.href")
    assert page.evaluate("window.quatroScreen.table.host") is True
    assert screen.errors == []
