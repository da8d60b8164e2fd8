"""The table actor: its scheduler (with an injected clock), sockets that misbehave, and fuzzed messages."""

from __future__ import annotations

import json
import socket
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quatro_party.server.connection import Connection
from quatro_party.server.testing import FakeClock
from quatro_party.server.testing import TestingTable as Table

from .fuzz_messages import FIELDS, TYPES, json_values


def _four_phones_started(live_server_factory: Any) -> tuple[FakeClock, Any, Any, list[Any]]:
    """A real server on a clock the test moves, four phones seated (P0–P3), the game started by the host."""
    clock = FakeClock()
    server = live_server_factory(clock=clock)
    screen = server.screen()
    phones = [server.phone() for _ in range(4)]
    for seat, phone in enumerate(phones):
        phone.join(seat, f"P{seat}")
    screen.host("start_game")
    return clock, server, screen, phones


def test_scheduler_drives_every_deadline_with_an_injected_clock(live_server_factory):
    """R11 sign-phase timeout, R32 void round and pause, all by moving the clock, not by waiting."""
    clock, server, screen, phones = _four_phones_started(live_server_factory)
    view = screen.wait_state(lambda v: v["phase"] == "sign")
    assert view["clock"] == 60.0  # a game's first sign phase
    clock.advance(59.9)
    server.table.poke()
    assert server.summary()["view"]["phase"] == "sign"  # not yet (nothing changed, so nothing was sent)
    clock.advance(0.2)
    server.table.poke()  # R11: nobody said ready, the round opens after 60 s anyway; R12 random signs
    view = screen.wait_state(lambda v: v["phase"] == "play")
    assert all(t["random_sign"] for t in view["teams"])
    assert view["clock"] == 179.9  # the round opened at the deadline, 0.1 s ago
    clock.advance(179.9)
    server.table.poke()  # R32: no call in 3 minutes → void, then a 30 s pause
    view = screen.wait_state(lambda v: v["phase"] == "pause")
    assert view["result"]["end"] == "void" and view["clock"] == 30.0
    clock.advance(30.0)
    server.table.poke()
    view = screen.wait_state(lambda v: v["phase"] == "sign")
    assert view["round"] == 2 and view["clock"] == 30.0  # the next ones: 30 s


def test_table_thread_sleeps_until_the_next_deadline_without_polling():
    clock = FakeClock()
    table = Table({"clock": clock, "host_secret": "s", "seed": 1})
    assert table._sleep_for() is None  # lobby, no bot: block until a message comes
    table.seats.put_bot(0, "easy")
    for seat in (1, 2, 3):
        table.seats.put_bot(seat, "easy")
    table.host.start_game()
    table.outbox.flush()
    wake = table._sleep_for()
    assert wake is not None and 0 < wake <= 180.0


def test_every_server_socket_has_tcp_nodelay(live_server):
    live_server.screen()
    live_server.phone()

    def flags() -> list[int]:
        return [c.ws.sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) for c in live_server.table.outbox.sockets]

    values = live_server.table.call(flags)
    assert len(values) == 2 and all(values)


def test_a_phone_that_stops_reading_never_stalls_the_table(live_server_factory):
    """A stuck phone fills its own queue and is dropped (its seat stays, R33); the others keep their pace."""
    server = live_server_factory(outgoing_limit=16, rate=1e6, burst=1e6)
    screen = server.screen()
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a phone that stopped reading: tiny window
    stuck.connect(("127.0.0.1", server.port))
    from wsproto import ConnectionType, WSConnection
    from wsproto.events import Request, TextMessage

    ws = WSConnection(ConnectionType.CLIENT)
    stuck.sendall(ws.send(Request(host="127.0.0.1", target="/ws/phone")))
    ws.receive_data(stuck.recv(4096))
    stuck.sendall(ws.send(TextMessage(data=json.dumps({"type": "join", "seat": 0, "name": "Stuck"}))))
    screen.wait_state(lambda v: v["seats"][0]["name"] == "Stuck")

    def shrink() -> None:  # and a small send buffer on our side, so it fills in a few frames
        for c in server.table.outbox.sockets:
            if c.kind == "phone":
                c.ws.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)

    server.table.call(shrink)
    worst = 0.0
    try:
        for i in range(300):
            t = time.monotonic()
            assert screen.host("settings", language="fr" if i % 2 else "en")["type"] == "ok"
            worst = max(worst, time.monotonic() - t)
        view = screen.wait_state(lambda v: not v["seats"][0]["connected"], timeout=5)
        assert view["seats"][0]["name"] == "Stuck"
        assert worst < 1.0, f"the screen waited {worst:.2f} s for a reply"
    finally:
        stuck.close()


class Capture(Connection):
    """A connection without a socket that keeps what the table would send it."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.sent: list[dict[str, Any]] = []

    def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))


_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 50),
    st.text(max_size=8),
    st.sampled_from(["🍍", "🐳", "x" * 200]),
    st.floats(allow_nan=True),
)
_values = json_values(_scalars, max_leaves=6)
_types = st.sampled_from(TYPES)
_fields = st.sampled_from([*FIELDS, "host", "bot_level", "language"])
_messages = st.one_of(
    st.builds(lambda t, f: json.dumps({"type": t, **f}), _types, st.dictionaries(_fields, _values, max_size=4)),
    st.text(max_size=40),
    st.binary(max_size=40),
)


@pytest.fixture(scope="module")
def fuzz_table():
    """One table for every fuzzed example: state piles up across examples, as it would in a long evening."""
    from quatro_party.server.botstub import make_bot

    # Real timing and the stub bot: the fuzz is about messages, not about bots playing at 20× speed.
    table = Table({"host_secret": "s", "seed": 3, "bot_factory": make_bot}).start()
    yield table
    table.stop()


@settings(max_examples=150, deadline=None)
@given(phone_msgs=st.lists(_messages, max_size=12), screen_msgs=st.lists(_messages, max_size=6))
def test_fuzzed_messages_never_break_the_table(fuzz_table, phone_msgs, screen_msgs):
    """Nothing a client sends crashes the table: every message gets at most a reply, the table stays usable."""
    table = fuzz_table
    phone, screen = Capture("phone"), Capture("screen")
    table.call(lambda: (table._on_connect(phone), table._on_connect(screen)))
    table.call(lambda: table._on_message(screen, json.dumps({"type": "hello", "host": "s"})))
    for i, raw in enumerate(phone_msgs):
        table.receive(phone, raw)
        if i < len(screen_msgs):
            table.receive(screen, screen_msgs[i])
    summary = table.call(table.summary)
    assert summary["view"]["phase"] in ("lobby", "sign", "play", "pause", "over")
    errors = [m for m in phone.sent + screen.sent if m["type"] == "error"]
    assert all(e["code"] != "internal" for e in errors), errors
    table.call(lambda: (table._on_disconnect(phone), table._on_disconnect(screen)))


def test_shared_serialisation_is_byte_identical_to_the_engine_views():
    """The frame text equals ``json.dumps`` of the engine's ``seat_view`` / ``table_view`` message exactly."""
    from quatro_party.engine import seat_view, table_view
    from quatro_party.protocol import json_text, state_message

    table = Table({"host_secret": "s", "seed": 5, "seats": 6})
    phones = [Capture("phone") for _ in range(3)]
    screen, watcher = Capture("screen"), Capture("screen")
    for c in (*phones, screen, watcher):
        table._on_connect(c)
    table._on_message(screen, json.dumps({"type": "hello", "host": "s"}))
    table._on_message(watcher, json.dumps({"type": "hello", "host": None}))
    for seat, c in enumerate(phones):
        table._on_message(c, json.dumps({"type": "join", "seat": seat, "name": f"P{seat}"}))
    table._on_message(screen, json.dumps({"type": "start_game"}))
    for c in phones:
        table._on_message(c, json.dumps({"type": "ready"}))
    assert table.game.phase.value == "play"
    events = [{"type": "swapped", "seat": 1, "note": "é🐳"}]
    now = table.clock()
    cache: dict = {}
    for c in (*phones, screen, watcher):
        view = seat_view(table.game, c.seat, now) if c.seat is not None else table_view(table.game, now)
        expected = json_text(state_message(view, events, table=table._public(c)))
        assert table._state_text(c, events, now, cache) == expected


def test_test_hooks_set_position_changed_and_close_all(live_server):
    screen = live_server.screen()
    phones = [live_server.phone() for _ in range(4)]
    for seat, phone in enumerate(phones):
        phone.join(seat, f"P{seat}")
    screen.host("start_game")
    for phone in phones:
        phone.wait_state(lambda v: v["phase"] == "sign")
        phone.act("ready")
    phones[0].wait_state(lambda v: v["phase"] == "play")
    live_server.table.set_position("AAAA KKKK QQQQ JJJJ | TTTT")
    view = phones[0].wait_state(lambda v: v["you"]["has_carre"])
    assert [c["rank"] for c in view["you"]["hand"]] == ["A"] * 4
    # The screen's newest view may still be the sign's, whose centre is empty.
    centre = screen.wait_state(lambda v: bool(v["centre"]) and v["centre"][0]["rank"] == "10")["centre"]
    assert [c["rank"] for c in centre] == ["10"] * 4
    live_server.table.call(lambda: setattr(live_server.table.game.teams[1], "score", 3))
    live_server.table.changed()
    assert screen.wait_state(lambda v: v["teams"][1]["score"] == 3)
    live_server.table.close_all(1001, "blip")
    from simple_websocket import ConnectionClosed

    with pytest.raises(ConnectionClosed):
        for _ in range(100):
            screen.recv(timeout=1)


class BrokenBot:
    """A bot whose every method fails: the table must go on without it."""

    def __init__(self, seat: int, level: str, rng: Any) -> None:
        self.seat = seat

    def observe(self, message: dict[str, Any], now: float) -> None:
        raise RuntimeError("observe")

    def next_wake(self) -> float | None:
        raise RuntimeError("next_wake")

    def wake(self, now: float) -> list[dict[str, Any]]:
        raise RuntimeError("wake")


def test_a_broken_bot_never_stops_the_table(live_server_factory):
    server = live_server_factory(bot_factory=BrokenBot, time_scale=0.05)
    screen = server.screen()
    ana = server.phone()
    ana.join(0, "Ana")
    assert screen.host("start_game")["type"] == "ok"
    ana.wait_state(lambda v: v["phase"] == "sign")
    assert ana.act("ready")["type"] == "ok"
    view = ana.wait_state(lambda v: v["phase"] == "play")
    assert ana.act("swap", card=view["you"]["hand"][0]["id"], place=0, expected=view["centre"][0]["id"])["type"] == "ok"
    assert server.table.actor.is_alive()


def test_scheduler_emits_every_5_s_and_ends_silent_votes_r18_r28(live_server_factory):
    """R18: a held channel re-emits every 5 s; R28: a vote nobody answers ends after 20 s — driven by the clock."""
    clock, server, screen, phones = _four_phones_started(live_server_factory)
    for phone in phones:
        phone.wait_state(lambda v: v["phase"] == "sign")
        phone.act("ready")
    screen.wait_state(lambda v: v["phase"] == "play")
    assert phones[1].act("take_channel")["type"] == "ok"
    assert phones[1].act("choose_emoji", emoji="🐙")["type"] == "ok"

    def emissions() -> int:
        screen.drain(0.05)
        return sum(
            1
            for m in screen.messages
            if m["type"] == "state"
            for e in m["events"]
            if e["type"] == "emitted" and e["seat"] == 1
        )

    assert emissions() == 1  # at once (R18)
    clock.advance(4.9)
    server.table.poke()
    assert emissions() == 1
    clock.advance(0.1)
    server.table.poke()
    screen.wait_state(lambda v: True)
    assert emissions() == 2  # 5 s later, by the scheduler alone
    assert phones[0].act("request_reshuffle")["type"] == "ok"
    assert screen.wait_state(lambda v: v["reshuffle"]["vote"] is not None)["reshuffle"]["vote"]["left"] == 20.0
    clock.advance(20.0)
    server.table.poke()
    view = screen.wait_state(lambda v: v["reshuffle"]["vote"] is None)
    ended = [e for m in screen.messages if m["type"] == "state" for e in m["events"] if e["type"] == "vote_ended"]
    assert ended and ended[-1] == {"type": "vote_ended", "passed": False, "why": "silence"}
    assert not view["reshuffle"]["done"]


class _Framer:
    """Stands in for wsproto: a "frame" is the text and a newline."""

    def send(self, event: Any) -> bytes:
        return event.data.encode() + b"\n"


class _FakeWs:
    """Just enough of simple_websocket's server socket for :class:`Connection`."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.ws, self.connected = sock, _Framer(), True

    def send(self, text: str) -> None:
        self.sock.sendall(text.encode() + b"\n")

    def close(self, reason: int | None = None, message: str | None = None) -> None:
        self.connected = False


def test_fast_and_slow_paths_keep_every_frame_whole_and_in_order():
    """Frames go out at once while the kernel takes them, through the writer when it does not:
    a slow reader still gets every frame, whole, in order, and the sender never waits."""
    ours, theirs = socket.socketpair()
    ours.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
    theirs.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8192)
    conn = Connection("phone", _FakeWs(ours), outgoing_limit=10_000)
    frames = [json.dumps({"n": i, "pad": "x" * (i % 700)}) for i in range(3000)]
    t = time.monotonic()
    for text in frames:
        conn.send_text(text)
    assert time.monotonic() - t < 2.0, "the sender must never wait for a slow reader"
    assert conn._pending > 0, "the kernel buffer filled up: the writer thread has the rest"
    received = b""
    theirs.settimeout(5)
    while received.count(b"\n") < len(frames):
        time.sleep(0.0005)  # a slow phone
        received += theirs.recv(65536)
    assert received.decode().splitlines() == frames
    conn.finish()
    ours.close()
    theirs.close()


def test_the_view_encoding_that_reuses_unchanged_parts_is_byte_identical_over_a_whole_game():
    """Each part the view builder shares with the previous view is encoded once; the text never differs from
    ``json_text`` of the view, at any step of a bot game (reveals, pauses and game over included)."""
    from quatro_party.protocol import json_text
    from quatro_party.server.botstub import make_bot

    clock = FakeClock()
    table = Table({"clock": clock, "host_secret": "s", "seed": 9, "seats": 6, "bot_factory": make_bot})
    table.host.start_game()
    seen = set()
    for _ in range(1500):
        clock.advance(0.5)
        table._tick()
        table._wake_bots()
        view = table.frames.views.table_view(clock())
        assert table.frames.encode_view(view) == json_text(view)
        seen.add(view["phase"])
        if view["phase"] == "pause":
            table.host.next_round()
    assert {"play", "pause"} <= seen


def test_a_seats_private_part_encoded_again_only_on_change_is_byte_identical_over_a_whole_game():
    """A seat's ``you`` text is reused while its part is unchanged; at every step of a bot game (swaps, cooldowns,
    reveals, pauses) it equals ``json_text`` of the engine's ``you_view`` for every seat."""
    from quatro_party.engine import you_view
    from quatro_party.protocol import json_text
    from quatro_party.server.botstub import make_bot

    clock = FakeClock()
    table = Table({"clock": clock, "host_secret": "s", "seed": 5, "seats": 6, "bot_factory": make_bot})
    counts = {"reused": 0, "encoded": 0}
    seen = set()

    def step() -> None:  # as the actor's loop runs (its thread is not started here): tick, views, bots, views
        clock.advance(0.25)
        table._tick()
        table.outbox.flush()
        table._wake_bots()
        table.outbox.flush()
        now = table.clock()
        for seat in range(table.game.seat_count):
            before = table.frames._you_texts.get(seat)
            text = table.frames.you_text(seat, now)
            assert text == json_text(you_view(table.game, seat, now)), seat
            counts["reused" if before is not None and before[2] is text else "encoded"] += 1
        seen.add(table.game.phase.value)
        if table.game.phase.value == "pause":
            table.host.next_round()

    table.host.start_game()
    for _ in range(1200):
        step()
    assert {"play", "pause"} <= seen
    assert counts["reused"] > 1000 and counts["encoded"] > 20, counts
