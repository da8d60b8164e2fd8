"""Playing through the real server: the R16 race, a whole game's frames (R39), bots, pings."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

from quatro_party.engine import SIGNS
from quatro_party.server.botstub import StubBot

#: Every rule duration × 0.2: sign phase 6 s, round 36 s, pause 6 s. The tests' own moves end every phase (all
#: ready, a call, the host's next round); the timers only bound them. At 0.05 a loaded machine (two busy processes
#: beside a full run) saw a whole 1.5 s sign phase pass, signs drawn at random, before a test came to pick them.
FAST = 0.2


def _seat_four(server):
    screen = server.screen()
    phones = [server.phone() for _ in range(4)]
    for seat, phone in enumerate(phones):
        phone.join(seat, f"P{seat}")
    return screen, phones


def _to_play(screen, phones, signs: tuple[str, str] | None = None) -> list[dict[str, Any]]:
    for phone in phones:
        phone.wait_state(lambda v: v["phase"] == "sign", timeout=5)
    if signs:
        assert phones[0].act("pick_sign", sign=signs[0])["type"] == "ok"
        assert phones[1].act("pick_sign", sign=signs[1])["type"] == "ok"
    for phone in phones:
        assert phone.act("ready")["type"] == "ok"
    return [phone.wait_state(lambda v: v["phase"] == "play", timeout=5) for phone in phones]


def test_r16_race_for_one_centre_card_one_wins_the_other_pays_nothing(live_server):
    screen, phones = _seat_four(live_server)
    screen.host("start_game")
    views = _to_play(screen, phones)
    a, b = phones[0], phones[1]
    target = views[0]["centre"][0]["id"]
    ids = [
        a.send({"type": "swap", "card": views[0]["you"]["hand"][0]["id"], "place": 0, "expected": target}),
        b.send({"type": "swap", "card": views[1]["you"]["hand"][0]["id"], "place": 0, "expected": target}),
    ]
    replies = [a.reply(ids[0]), b.reply(ids[1])]
    assert sorted(r["type"] for r in replies) == ["ok", "refused"]
    winner, loser = (a, b) if replies[0]["type"] == "ok" else (b, a)
    lost = replies[0] if replies[0]["type"] == "refused" else replies[1]
    assert lost["reason"] == "card_taken" and lost["details"] == {"place": 0}
    view = loser.wait_state(lambda v: v["centre"][0]["id"] != target)
    assert view["you"]["swap_wait"] == 0.0  # R16: no cooldown for the loser
    assert winner.wait_state(lambda v: v["centre"][0]["id"] != target)["you"]["swap_wait"] > 1.0  # R15
    again = loser.act("swap", card=view["you"]["hand"][0]["id"], place=0, expected=view["centre"][0]["id"])
    assert again["type"] == "ok", "the loser may retry at once"
    screen.drain()
    swaps = [e for m in screen.messages if m["type"] == "state" for e in m["events"] if e["type"] == "swapped"]
    assert [e["took"]["id"] for e in swaps].count(target) == 1


def _walk(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk(v, path + (i,))


def _is_card(v: Any) -> bool:
    return isinstance(v, dict) and set(v) == {"id", "rank", "suit"}


def _check_frame(text: str, my_seat: int | None, my_team: int | None, secret_signs: dict[int, dict[int, str]]) -> None:
    """R36–R39 on one raw frame received by one socket."""
    msg = json.loads(text)
    if msg["type"] != "state":
        assert '"hand' not in text, text[:200]
        return
    view = msg["view"]
    you = view.get("you")
    if my_seat is None or you is None:  # a screen, a spectator, or a phone before it joined
        assert you is None and '"you"' not in text and '"hand"' not in text
    else:
        assert you["seat"] == my_seat
    for path, value in _walk(msg):
        if path and path[-1] in ("hand", "hands"):
            assert path in (("view", "you", "hand"),) or "result" in path, path
        if _is_card(value):
            allowed = (
                path[:2] == ("view", "centre")
                or path[:3] == ("view", "you", "hand")
                or "result" in path
                or (path[0] == "events" and path[2] in ("centre", "put", "took"))
            )
            assert allowed, f"a card at {path}"
    if view["phase"] in ("sign", "play"):
        for team, sign in secret_signs.get(view["round"], {}).items():
            if team != my_team:
                visible = text.replace(json.dumps(view["signs"], ensure_ascii=False, separators=(",", ":")), "")
                assert sign not in visible, f"team {team}'s sign {sign} reached a socket of team {my_team}"


@pytest.mark.live_server(time_scale=FAST)
def test_r39_raw_frames_of_a_whole_game_hold_nothing_private(live_server):
    screen, phones = _seat_four(live_server)
    spectator = live_server.phone()  # on the join page, never seated
    watcher = live_server.screen(host=False)
    decoy = SIGNS[-1]
    secret: dict[int, dict[int, str]] = {}
    screen.host("start_game")
    for rnd in range(1, 12):
        signs = (SIGNS[2 * rnd - 2], SIGNS[2 * rnd - 1])
        secret[rnd] = {0: signs[0], 1: signs[1]}
        _to_play(screen, phones, signs)
        assert phones[2].state["view"]["you"]["sign"] == signs[0]  # R38: the partner sees it at once
        for seat, phone in enumerate(phones):  # one swap each, from what each phone sees
            v = phone.wait_state(lambda v: True)
            phone.act("swap", card=v["you"]["hand"][0]["id"], place=seat, expected=v["centre"][seat]["id"])
        assert phones[3].act("take_channel")["type"] == "ok"
        assert phones[3].act("choose_emoji", emoji=decoy)["type"] == "ok"
        screen.wait_state(lambda v: v["seats"][3]["channel"]["emoji"] == decoy)
        call = phones[rnd % 2].act("call_quatro", confirmed=True) if rnd % 3 else phones[0].act("call_contre")
        assert call["type"] == "ok", call
        view = screen.wait_state(lambda v: v["phase"] in ("pause", "over"), timeout=5)
        assert view["result"]["signs"] == list(signs)  # R26: revealed to all after the call
        if view["phase"] == "over":
            break
        screen.host("next_round")
    assert screen.state["view"]["phase"] == "over"
    spectator.drain()
    watcher.drain()
    for c in (*phones, screen):
        c.drain()
    for seat, phone in enumerate(phones):
        assert phone.frames
        for text in phone.frames:
            _check_frame(text, seat, seat % 2, secret)
    for c in (screen, watcher, spectator):
        assert c.frames
        for text in c.frames:
            _check_frame(text, None, None, secret)


class RecordingBot(StubBot):
    """The stub bot, plus a record of everything it was shown and one bad move."""

    instances: list[RecordingBot] = []

    def __init__(self, seat, level, rng):
        super().__init__(seat, level, rng)
        self.seen: list[dict[str, Any]] = []
        RecordingBot.instances.append(self)

    def observe(self, message, now):
        self.seen.append(message)
        super().observe(message, now)

    def wake(self, now):
        moves = super().wake(now)
        # A bot cannot act for another seat or get past the checks: these go through the phone path.
        return moves + [{"type": "ready", "seat": (self.seat + 1) % 4}, {"type": "swap", "card": "bad"}]


def test_bots_see_only_their_seat_and_act_through_the_phone_path(live_server_factory):
    RecordingBot.instances.clear()
    server = live_server_factory(time_scale=FAST, bot_factory=RecordingBot)
    screen = server.screen()
    ana = server.phone()
    ana.join(0, "Ana")
    screen.host("start_game")  # seats 1–3 get bots
    ana.wait_state(lambda v: v["phase"] == "sign")
    ana.act("ready")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not all(
        any(m["type"] == "error" for m in list(b.seen)) for b in RecordingBot.instances
    ):
        time.sleep(0.1)
    assert len(RecordingBot.instances) == 3
    for bot in RecordingBot.instances:
        states = [m for m in bot.seen if m["type"] == "state"]
        assert states
        for m in states:
            assert m["view"]["you"]["seat"] == bot.seat
            for path, _ in _walk(m):
                if path and path[-1] == "hand":
                    assert path == ("view", "you", "hand")
        errors = [m for m in bot.seen if m["type"] == "error"]
        assert errors and all(e["code"] == "bad_field" for e in errors)
        assert any(m["type"] in ("ok", "refused") for m in bot.seen)
    screen.drain()
    assert screen.state["table"]["bots"] == {"1": "normal", "2": "normal", "3": "normal"}


def _raw_phone(port: int, join: dict[str, Any]) -> socket.socket:
    """A phone that joins, then goes silent: it never reads again, so it never answers a ping."""
    from wsproto import ConnectionType, WSConnection
    from wsproto.events import Request, TextMessage

    ws = WSConnection(ConnectionType.CLIENT)
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(ws.send(Request(host=f"127.0.0.1:{port}", target="/ws/phone")))
    ws.receive_data(sock.recv(4096))
    sock.sendall(ws.send(TextMessage(data=json.dumps(join))))
    return sock


# 0.5 s: the host drops a socket that echoed no ping for two intervals, the test's big screen too; at 0.3 s a busy
# machine once kept the test's own client from echoing within 0.6 s.
@pytest.mark.live_server(ping_interval=0.5)
def test_a_vanished_phone_is_noticed_by_ping_and_keeps_its_seat(live_server):
    screen = live_server.screen()
    silent = _raw_phone(live_server.port, {"type": "join", "seat": 2, "name": "Gone"})
    try:
        screen.wait_state(lambda v: v["seats"][2]["name"] == "Gone" and v["seats"][2]["connected"])
        t = time.monotonic()
        view = screen.wait_state(lambda v: not v["seats"][2]["connected"], timeout=5)
        assert time.monotonic() - t < 3.0  # about two ping intervals (1 s), with room for a busy machine
        assert view["seats"][2]["kind"] == "human" and view["seats"][2]["name"] == "Gone"  # R33
    finally:
        silent.close()


def test_host_controls_from_the_big_screen(live_server):
    screen = live_server.screen()
    assert screen.host("set_seats", count=6)["type"] == "ok"
    assert screen.wait_state(lambda v: v["seat_count"] == 6)["seat_count"] == 6
    assert screen.host("settings", bot_level="hard", language="fr")["type"] == "ok"
    assert screen.host("add_bot", seat=5)["type"] == "ok"
    assert screen.host("add_bot", seat=4, level="easy")["type"] == "ok"
    table = screen.wait_state(lambda v: v["seats"][4]["kind"] == "bot") and screen.state["table"]
    assert table["bots"] == {"4": "easy", "5": "hard"} and table["settings"] == {"bot_level": "hard", "language": "fr"}
    assert screen.host("remove_bot", seat=4)["type"] == "ok"
    assert screen.host("remove_bot", seat=0)["code"] == "not_a_bot"
    ana = live_server.phone()
    ana.join(0, "Ana")
    assert screen.host("add_bot", seat=0)["code"] == "seat_taken"
    assert screen.host("add_bot", seat=7)["code"] == "no_such_seat"
    assert screen.host("fill_bots")["type"] == "ok"
    assert screen.wait_state(lambda v: all(s["kind"] != "empty" for s in v["seats"]))
    assert screen.host("start_game")["type"] == "ok"
    assert screen.host("start_game")["reason"] == "wrong_phase"
    assert screen.host("set_seats", count=4)["reason"] == "wrong_phase"
    assert screen.host("next_round")["reason"] == "wrong_phase"  # only during the pause (R32)
    assert screen.host("new_game")["type"] == "ok"
    assert screen.wait_state(lambda v: v["phase"] == "lobby")["seats"][0]["name"] == "Ana"


@pytest.mark.live_server(time_scale=FAST)
def test_free_seat_in_a_game_lets_a_new_phone_take_the_hand_and_allow_move(live_server):
    screen, phones = _seat_four(live_server)
    screen.host("start_game")
    views = _to_play(screen, phones)
    hand = sorted(c["id"] for c in views[1]["you"]["hand"])
    # allow_move: the seat link goes to the seat's own phone only, and moves the seat once.
    assert screen.host("allow_move", seat=1)["type"] == "ok"
    link = phones[1].expect("seat_link")
    assert link["url"].endswith(f"?seat={link['token']}") and link["seat"] == 1
    assert not any(m["type"] == "seat_link" for c in (screen, phones[0], phones[2]) for m in c.messages)
    tablet = live_server.phone(hello=False)
    tablet.send({"type": "hello", "token": link["token"]})
    assert tablet.expect("joined")["seat"] == 1
    assert phones[1].expect("error")["code"] == "seat_moved"
    assert sorted(c["id"] for c in tablet.wait_state(lambda v: "you" in v)["you"]["hand"]) == hand
    old = phones[1].token
    reuse = live_server.phone(hello=False)
    reuse.send({"type": "hello", "token": old})  # the old device's token died with the move
    assert reuse.expect("error")["code"] == "bad_token"
    # free_seat in a game: the hand stays (R33); the next phone to join takes it over.
    assert screen.host("free_seat", seat=1)["type"] == "ok"
    assert tablet.expect("error")["code"] == "seat_freed"
    newcomer = live_server.phone()
    newcomer.join(1, "Zoe")
    assert sorted(c["id"] for c in newcomer.wait_state(lambda v: "you" in v)["you"]["hand"]) == hand
    assert screen.wait_state(lambda v: v["seats"][1]["name"] == "Zoe")["seats"][1]["connected"]
