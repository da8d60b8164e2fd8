"""The host's game controls over real sockets: pause and resume, end the game, house rules, the seat count
between games, the practice round, from the TV and from the VIP phone; and a restarted host that holds its game.

The rules' clocks are a :class:`FakeClock` the test moves: nothing here waits on a rule's timer.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from quatro_party.server.botstub import make_bot as make_stub
from quatro_party.server.testing import FakeClock, LiveServer, TestingTable, WsClient

#: The host actions of the game's course and house rules, with fields that pass the checks.
GAME_HOST_ACTIONS: list[tuple[str, dict[str, Any]]] = [
    ("pause", {}),
    ("resume", {}),
    ("end_game", {}),
    ("start_practice", {}),
    ("settings", {"winning_score": 7}),
    ("settings", {"timer_factor": 2}),
    ("set_seats", {"count": 6}),
]


def _vip(server: LiveServer, screen: WsClient, token: str | None) -> WsClient:
    """A phone opened at the host's VIP link (with ``token``: the seat it already holds)."""
    ref = screen.send({"type": "vip_link"})
    secret = screen.expect("vip_link")["url"].split("?vip=")[1]
    screen.reply(ref)
    remote = server.phone(hello=False)
    remote.send({"type": "hello", "token": token, "vip": secret})
    remote.expect(lambda m: m.get("type") in ("joined", "state"))
    return remote


def _in_play(server: LiveServer) -> tuple[WsClient, WsClient]:
    """The host's screen and Ana's phone (seat 0; bots on the others), the first round in play."""
    screen = server.screen()
    ana = server.phone()
    ana.join(0, "Ana")
    assert screen.host("start_game")["type"] == "ok"
    ana.wait_state(lambda v: v["phase"] == "sign")
    assert ana.act("ready")["type"] == "ok"
    ana.wait_state(lambda v: v["phase"] == "play")
    return screen, ana


@pytest.mark.parametrize("from_vip", [False, True], ids=["tv", "vip_phone"])
def test_pause_freezes_every_screen_and_resume_goes_on(live_server_factory, from_vip):
    clock = FakeClock()
    server = live_server_factory(clock=clock)
    screen, ana = _in_play(server)
    host = _vip(server, screen, ana.token) if from_vip else screen
    ana = host if from_vip else ana  # the remote is Ana's seat, opened at the link: the newest socket holds it
    clock.advance(10.0)
    assert host.act("pause")["type"] == "ok"
    paused = screen.wait_state(lambda v: v["paused"] is not None)
    assert paused["paused"] == {"by": "host"} and ana.wait_state(lambda v: v["paused"] is not None)
    left = paused["clock"]
    clock.advance(500.0)  # far beyond the round's 3 minutes (R32): paused time does not count
    server.table.poke()
    assert server.summary()["view"]["clock"] == left and server.summary()["view"]["phase"] == "play"
    view = ana.wait_state(lambda v: v["paused"] is not None)
    swap = ana.act("swap", card=view["you"]["hand"][0]["id"], place=0, expected=view["centre"][0]["id"])
    assert swap["type"] == "refused" and swap["reason"] == "paused"
    again = host.act("pause")
    assert again["type"] == "refused" and again["reason"] == "paused"  # nothing changes
    assert host.act("resume")["type"] == "ok"
    assert screen.wait_state(lambda v: v["paused"] is None)["clock"] == left
    assert host.act("resume")["reason"] == "not_paused"
    clock.advance(left)  # the rest of the round, and it ends (void, R32)
    server.table.poke()
    assert screen.wait_state(lambda v: v["phase"] == "pause")["result"]["end"] == "void"


@pytest.mark.parametrize("from_vip", [False, True], ids=["tv", "vip_phone"])
def test_end_the_game_then_change_the_seat_count_without_a_restart(live_server_factory, from_vip):
    server = live_server_factory(clock=FakeClock())
    screen, ana = _in_play(server)
    host = _vip(server, screen, ana.token) if from_vip else screen
    ana = host if from_vip else ana  # the remote is Ana's seat, opened at the link: the newest socket holds it
    assert host.act("set_seats", count=6)["reason"] == "wrong_phase"  # not during a game
    assert host.act("end_game")["type"] == "ok"
    over = screen.wait_state(lambda v: v["phase"] == "over")
    assert [t["score"] for t in over["teams"]] == [0, 0] and over["recap"] is not None
    assert host.act("set_seats", count=6)["type"] == "ok"  # after the game: back to the lobby, 6 seats
    lobby = screen.wait_state(lambda v: v["phase"] == "lobby" and v["seat_count"] == 6)
    assert [s["kind"] for s in lobby["seats"]][:1] == ["human"] and len(lobby["seats"]) == 6
    assert ana.wait_state(lambda v: v["seat_count"] == 6)["you"]["seat"] == 0  # Ana kept her seat
    assert host.act("start_game")["type"] == "ok"  # the empty seats get bots
    assert screen.wait_state(lambda v: v["phase"] == "sign")["seat_count"] == 6


@pytest.mark.parametrize("from_vip", [False, True], ids=["tv", "vip_phone"])
def test_house_rules_between_games_show_on_every_screen(live_server, from_vip):
    screen = live_server.screen()
    ana = live_server.phone()
    ana.join(0, "Ana")
    host = _vip(live_server, screen, ana.token) if from_vip else screen
    ana = host if from_vip else ana
    assert host.act("settings", winning_score=7, timer_factor=2, bot_level="hard")["type"] == "ok"
    view = ana.wait_state(lambda v: v["house_rules"]["changed"])
    assert view["house_rules"] == {
        "winning_score": 7,
        "timer_factor": 2.0,
        "changed": ["winning_score", "timer_factor"],
    }
    assert view["winning_score"] == 7 and view["timing"]["round_length"] == 360.0
    assert screen.wait_state(lambda v: v["timing"]["round_length"] == 360.0)
    assert screen.state["table"]["settings"]["bot_level"] == "hard"
    assert host.act("settings", timer_factor=3)["code"] == "bad_field"
    assert host.act("pause")["reason"] == "wrong_phase" and host.act("end_game")["reason"] == "wrong_phase"
    assert host.act("start_game")["type"] == "ok"
    refused = host.act("settings", winning_score=3, language="fr")  # during a game: refused, nothing changes
    assert refused["type"] == "refused" and refused["reason"] == "wrong_phase"
    view = screen.wait_state(lambda v: v["phase"] == "sign")
    assert view["winning_score"] == 7 and screen.state["table"]["settings"]["language"] is None


@pytest.mark.parametrize("from_vip", [False, True], ids=["tv", "vip_phone"])
def test_a_practice_round_scores_nothing_and_the_game_after_it_starts_at_0_0(live_server_factory, from_vip):
    clock = FakeClock()
    server = live_server_factory(clock=clock)
    screen = server.screen()
    ana = server.phone()
    ana.join(0, "Ana")
    host = _vip(server, screen, ana.token) if from_vip else screen
    ana = host if from_vip else ana  # the remote is Ana's seat, opened at the link: the newest socket holds it
    assert host.act("start_practice")["type"] == "ok"
    view = ana.wait_state(lambda v: v["phase"] == "sign")
    assert view["practice"] is True and view["timing"]["round_length"] == 270.0  # × 1.5
    assert ana.act("ready")["type"] == "ok"
    ana.wait_state(lambda v: v["phase"] == "play")
    assert ana.act("call_contre")["type"] == "ok"  # a call ends the round; in practice it scores nothing
    view = screen.wait_state(lambda v: v["phase"] == "pause")
    assert view["practice"] is True and [t["score"] for t in view["teams"]] == [0, 0]
    assert host.act("start_practice")["reason"] == "wrong_phase"
    assert host.act("next_round")["type"] == "ok"  # after a practice round: the lobby
    lobby = screen.wait_state(lambda v: v["phase"] == "lobby")
    assert lobby["practice"] is False and [t["score"] for t in lobby["teams"]] == [0, 0]
    assert host.act("start_game")["type"] == "ok"
    assert screen.wait_state(lambda v: v["phase"] == "sign")["timing"]["round_length"] == 180.0


@pytest.mark.parametrize("action, fields", GAME_HOST_ACTIONS)
def test_game_controls_from_a_plain_phone_a_spectator_or_a_watching_screen_are_not_host(live_server, action, fields):
    screen = live_server.screen()
    watcher = live_server.screen(host=False)
    phone, spectator = live_server.phone(), live_server.phone()
    phone.join(0, "Pat")
    assert spectator.act("watch")["type"] == "ok"
    for client in (phone, spectator, watcher):
        assert client.act(action, **fields)["code"] == "not_host"
    view = live_server.summary()["view"]
    assert view["phase"] == "lobby" and view["seat_count"] == 4 and view["house_rules"]["changed"] == []
    assert screen.wait_state(lambda v: True)["paused"] is None


def test_a_host_killed_during_a_pause_comes_back_paused_with_its_settings_and_seats(tmp_path):
    clock = FakeClock()
    config = {"clock": clock, "host_secret": "s", "seed": 4, "journal": tmp_path / "t.jsonl", "bot_factory": make_stub}
    table = TestingTable(config)
    assert table.host.change_settings(winning_score=4, timer_factor=1.5, language="fr") is None
    assert table.seats.put_bot(1, "hard") is None
    assert table.host.lock(True) is None
    assert table.host.start_game() is None
    clock.advance(3.0)
    table._tick()
    assert table.host.pause() is None
    before = table.summary()
    table.stop()  # killed

    clock.advance(120.0)
    again = TestingTable(config)
    after = again.summary()
    assert again.resumed and again.game.paused is not None and again.game.paused.by == "host"
    assert after["view"] == before["view"] and after["bots"] == before["bots"]
    assert after["view"]["house_rules"]["winning_score"] == 4 and after["view"]["timing"]["round_length"] == 270.0
    assert again.host.settings["language"] == "fr" and again.audience.locked
    again.stop()


def test_a_restarted_host_holds_its_game_until_the_phones_are_back(tmp_path):
    from quatro_party.server.connection import Connection

    clock = FakeClock()
    config = {"clock": clock, "host_secret": "s", "seed": 4, "journal": tmp_path / "t.jsonl", "bot_factory": make_stub}
    table = TestingTable(config)
    phone = Connection("phone")
    table._on_connect(phone)
    table._on_message(phone, '{"type": "join", "seat": 2, "name": "Bo"}')
    token = table.seats.tokens.by_seat[2]
    table.host.start_game()
    clock.advance(61.0)  # Bo never says ready: the round opens on the (first) sign phase's deadline
    table._tick()
    assert table.game.phase.value == "play" and table.game.paused is None
    left = table.summary()["view"]["clock"]
    table.stop()

    clock.advance(40.0)
    again = TestingTable(config)
    assert again.game.paused is not None and again.game.paused.by == "restart"
    assert again.summary()["view"]["clock"] == pytest.approx(left, abs=0.01)  # the downtime and the hold cost nothing
    clock.advance(30.0)
    again._tick()
    assert again.game.paused is not None  # still waiting for Bo
    back = Connection("phone")
    again._on_connect(back)
    again._on_message(back, json.dumps({"type": "hello", "token": token}))
    again._tick()
    assert again.game.paused is None and again.game.seats[2].connected
    assert again.summary()["view"]["clock"] == pytest.approx(left, abs=0.01)
    again.stop()

    clock.advance(5.0)
    third = TestingTable(config)  # Bo's phone is away again; nobody comes: the grace period ends the hold
    assert third.game.paused is not None and third.game.paused.by == "restart"
    clock.advance(61.0)
    third._tick()
    assert third.game.paused is None
    third.stop()


def test_r39_the_rounds_story_reaches_the_frames_only_once_the_round_has_ended(live_server_factory):
    from quatro_party.engine.rules import SIGNS

    clock = FakeClock()
    server = live_server_factory(clock=clock)
    screen = server.screen()
    phones = [server.phone() for _ in range(4)]
    for seat, phone in enumerate(phones):
        phone.join(seat, f"P{seat}")
    spectator = server.phone()
    assert spectator.act("watch")["type"] == "ok"
    assert screen.host("start_game")["type"] == "ok"
    for phone in phones:
        phone.wait_state(lambda v: v["phase"] == "sign")
    assert phones[0].act("pick_sign", sign=SIGNS[4])["type"] == "ok"
    assert phones[1].act("pick_sign", sign=SIGNS[5])["type"] == "ok"
    for phone in phones:
        assert phone.act("ready")["type"] == "ok"
    view = phones[1].wait_state(lambda v: v["phase"] == "play")
    assert (
        phones[1].act("swap", card=view["you"]["hand"][0]["id"], place=1, expected=view["centre"][1]["id"])["type"]
        == "ok"
    )
    assert phones[3].act("take_channel")["type"] == "ok"
    clock.advance(2.5)
    assert phones[3].act("choose_emoji", emoji=SIGNS[4])["type"] == "ok"
    clock.advance(5.5)
    server.table.poke()
    screen.wait_state(lambda v: v["seats"][3]["channel"]["emoji"] == SIGNS[4])
    for client in (*phones, screen, spectator):
        client.drain()
        assert not [f for f in client.frames if '"story"' in f or '"recap":[' in f], "a story before the round ended"
    clock.advance(1.0)
    assert phones[1].act("call_contre", team=0)["type"] == "ok"
    result = spectator.wait_state(lambda v: v["phase"] == "pause")["result"]
    record = server.table.call(lambda: server.table.game.result.to_json()["story"])
    assert result["story"] == record
    kinds = [(e["kind"], e["seat"]) for e in result["story"]["events"]]
    assert ("swap", 1) in kinds and ("take", 3) in kinds and ("emit", 3) in kinds and kinds[-1] == ("call", 1)
    emit = next(e for e in result["story"]["events"] if e["kind"] == "emit")
    assert result["signs"] == [SIGNS[4], SIGNS[5]]
    assert emit["emoji"] == SIGNS[4] and emit["sign"] is False  # seat 3 (team 1) flashed a decoy
