"""Bad input: every malformed, forbidden or forged message gets its error, and changes nothing."""

from __future__ import annotations

import json
import logging

import pytest
from simple_websocket import ConnectionClosed


def _public(server) -> dict:
    """What the table looks like, minus the running clocks."""
    summary = server.summary()
    view = summary["view"]
    view.pop("clock", None)
    view["reshuffle"].pop("next_vote_in", None)
    return {"view": view, "bots": summary["bots"], "held": summary["held"]}


PHONE_CASES = [
    ("not json at all", "bad_json"),
    ("[1, 2, 3]", "bad_message"),
    ('{"type": 5}', "bad_message"),
    ('{"kind": "swap"}', "bad_message"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"type": "swap", "card": "x", "place": 0, "expected": 1}', "bad_field"),
    ('{"type": "swap", "card": 1}', "bad_field"),
    ('{"type": "swap", "card": 1, "place": 9, "expected": 2}', "bad_field"),
    ('{"type": "join", "seat": -1, "name": "X"}', "bad_field"),
    ('{"type": "join", "seat": true, "name": "X"}', "bad_field"),
    ('{"type": "answer_vote", "accept": "yes"}', "bad_field"),
    ('{"type": "ready", "id": {"a": 1}}', "bad_field"),
    ('{"type": "hello", "token": 12}', "bad_field"),
    ("[" * 3000 + "]" * 3000, "too_large"),
    # Deep nesting: RecursionError must not escape. Whether 2,000 levels overflow depends on the interpreter's
    # recursion limit at that moment (Hypothesis raises it while its tests run, and once failed to restore it
    # here): too deep is bad_json, parsed is a list, bad_message. Either is a clear answer.
    ("[" * 2000 + "]" * 2000, ("bad_json", "bad_message")),
    (json.dumps({"type": "ready", "pad": "x" * 5000}), "too_large"),
    (b"\xff\xfe\x00garbage", "bad_json"),
    ('{"type": "start_game"}', "not_host"),
    ('{"type": "free_seat", "seat": 1}', "not_host"),
    ('{"type": "set_seats", "count": 8}', "not_host"),
]


@pytest.mark.parametrize("raw,code", PHONE_CASES, ids=[c if isinstance(c, str) else c[0] for _, c in PHONE_CASES])
def test_phone_bad_input_gets_its_error_and_changes_nothing(live_server, raw, code, caplog):
    codes = (code,) if isinstance(code, str) else code
    caplog.set_level(logging.INFO, logger="quatro.server")
    screen = live_server.screen()
    ana = live_server.phone()
    ana.join(0, "Ana")
    bob = live_server.phone()
    bob.join(1, "Bob")
    before = _public(live_server)
    bob.send(raw)
    err = bob.expect("error")
    assert err["code"] in codes, err
    assert isinstance(err["message"], str) and err["message"]
    assert _public(live_server) == before
    assert any(err["code"] in r.getMessage() for r in caplog.records), "the server logs it"
    # The connection stays usable.
    assert bob.act("leave")["type"] == "ok"
    screen.wait_state(lambda v: v["seats"][1]["kind"] == "empty")


def test_actions_before_a_seat_and_in_the_wrong_phase(live_server):
    live_server.screen()
    eve = live_server.phone()
    assert eve.act("swap", card=1, place=0, expected=2)["code"] == "not_seated"
    assert eve.act("leave")["code"] == "not_seated"
    eve.join(0, "Eve")
    before = _public(live_server)
    refused = eve.act("swap", card=1, place=0, expected=2)
    assert refused["type"] == "refused" and refused["reason"] == "wrong_phase"
    assert eve.act("ready")["reason"] == "wrong_phase"
    assert eve.act("join", seat=1, name="Again")["code"] == "already_seated"
    assert _public(live_server) == before


def test_an_action_is_always_for_the_sockets_own_seat(live_server):
    """R39: a "seat" field in a phone message is ignored; the seat comes from the token only."""
    screen = live_server.screen()
    phones = [live_server.phone() for _ in range(4)]
    for seat, phone in enumerate(phones):
        phone.join(seat, f"P{seat}")
    screen.host("start_game")
    phones[0].wait_state(lambda v: v["phase"] == "sign")
    assert phones[0].act("ready", seat=3)["type"] == "ok"
    view = screen.wait_state(lambda v: v["seats"][0]["ready"])
    assert not view["seats"][3]["ready"]
    assert phones[0].act("pick_sign", sign="🐙", seat=1)["type"] == "ok"
    assert (
        phones[2].wait_state(lambda v: v.get("you", {}).get("sign") is not None)["you"]["sign"] == "🐙"
    )  # partner of 0
    phones[1].drain()
    assert phones[1].state["view"]["you"]["sign"] is None


def test_forged_and_stale_tokens(live_server):
    screen = live_server.screen()
    ana = live_server.phone()
    old = ana.join(0, "Ana")["token"]
    screen.host("free_seat", seat=0)  # the host frees the seat: the token is stale now
    before = _public(live_server)
    for token in (old, "A" * 24, "", "x" * 128):
        phone = live_server.phone(hello=False)
        phone.send({"type": "hello", "token": token})
        first = phone.expect(lambda m: m["type"] in ("error", "state", "joined"))
        # An empty token too: a phone whose stored token went empty is told, not silently sent to the seats.
        assert first["type"] == "error" and first["code"] == "bad_token"
        first = phone.expect("state")
        assert "you" not in first["view"]
    assert _public(live_server) == before


def test_host_controls_need_the_host_secret(live_server):
    spectator = live_server.screen(host=False)
    assert spectator.state["table"]["host"] is False
    assert spectator.host("start_game")["code"] == "not_host"
    liar = live_server.client("/ws/screen")
    liar.send({"type": "hello", "host": "guess"})
    assert liar.expect("error")["code"] == "bad_host_secret"
    assert liar.expect("state")["table"]["host"] is False
    assert liar.host("add_bot", seat=0)["code"] == "not_host"
    assert live_server.summary()["view"]["phase"] == "lobby"
    assert live_server.summary()["bots"] == {}


def test_screen_bad_input(live_server):
    screen = live_server.screen()
    before = _public(live_server)
    for raw, code in [
        ("{", "bad_json"),
        ('{"type": "swap"}', "unknown_type"),
        ('{"type": "set_seats", "count": 5}', None),
        ('{"type": "add_bot", "seat": 0, "level": "god"}', "bad_field"),
        ('{"type": "settings", "language": "xx"}', "bad_field"),
    ]:
        screen.send(raw)
        reply = screen.expect(lambda m: m["type"] in ("error", "refused"))
        if code:
            assert reply.get("code") == code, reply
        else:
            assert reply["type"] == "refused" and reply["reason"] == "bad_seat_count"
    assert _public(live_server) == before


@pytest.mark.live_server(rate=20.0, burst=20.0)
def test_flood_is_cut_off_and_the_socket_recovers(live_server):
    import time

    screen = live_server.screen()
    bob = live_server.phone()
    bob.join(1, "Bob")
    before = _public(live_server)
    for _ in range(150):
        bob.send('{"type": "ready"}')
    err = bob.expect(lambda m: m["type"] == "error" and m["code"] == "flood")
    assert "slow down" in err["message"]
    time.sleep(1.2)  # the bucket refills
    bob.drain()
    assert _public(live_server) == before
    assert bob.act("leave")["type"] == "ok"
    screen.wait_state(lambda v: v["seats"][1]["kind"] == "empty")


def test_a_huge_message_closes_only_that_socket(live_server):
    screen = live_server.screen()
    ana = live_server.phone()
    ana.join(0, "Ana")
    before = _public(live_server)
    ana.send("x" * 200_000)
    with pytest.raises(ConnectionClosed):
        for _ in range(50):
            ana.recv(timeout=2)
    # the seat stays (R33); only the connection went. (Waiting for "not connected" alone could match a frame
    # from before Ana joined, still queued on a busy machine.)
    view = screen.wait_state(lambda v: v["seats"][0]["name"] == "Ana" and not v["seats"][0]["connected"])
    assert view["seats"][0]["name"] == "Ana"
    again = live_server.phone(token=ana.token)
    assert again.seat == 0
    assert _public(live_server) == before
