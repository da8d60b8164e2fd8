"""A hostile guest on the Wi-Fi pays for its own attacks: floods, deflate bombs, slowloris, stuck sockets.

Real sockets on loopback only. Guests connect from 127.0.0.2 and up (loopback too): the host machine's own
127.0.0.1 is not capped per address. The load tests run the real launcher in a child process, through
``bench/flood.py`` (the benchmark prints the latency figures; these tests check what must hold).
"""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import socket
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import simple_websocket.ws

from quatro_party.server.app import create_app, table_of
from quatro_party.server.guard import Budget, FrameCounter, Limits
from quatro_party.server.serving import ServerThread
from quatro_party.server.testing import TestingTable, WsClient
from tests.clocks import StoppableClock

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_flood", ROOT / "bench" / "flood.py")
assert _spec is not None and _spec.loader is not None
flood = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(flood)
sys.path.insert(0, str(ROOT / "bench"))  # flood.py has put it there already; said here for the import below
from flood_attackers import frame  # noqa: E402

# --- pieces ------------------------------------------------------------------------------------------


def test_frames_are_counted_from_their_headers_even_split_across_reads():
    frames = frame(b"x" * 5) + frame(b"y" * 300) + frame(b"z" * 70000) + frame(b"")
    for size in (1, 3, 7, 1000, len(frames)):
        counter = FrameCounter()
        got = sum(counter.feed(frames[i : i + size]) for i in range(0, len(frames), size))
        assert got == 4, size


def test_a_budget_goes_into_debt_and_says_how_long_to_wait():
    budget = Budget(rate=10.0, burst=20.0, now=0.0)
    assert budget.charge(20, 0.0) == 0.0
    assert budget.charge(5, 0.0) == pytest.approx(0.5)
    assert budget.charge(0, 1.0) == 0.0  # 1 s later: 10 back, 5 of them pay the debt


# --- a server with its own limits ---------------------------------------------------------------------


class Server:
    def __init__(
        self, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic, **config: Any
    ) -> None:
        self.app = create_app({"host_secret": "s", "seed": 1, "table_class": TestingTable, **config})
        self.thread = ServerThread(self.app, "127.0.0.1", 0, limits=limits, clock=clock).start()
        self.port = self.thread.port
        self.clients: list[WsClient] = []

    def phone(self) -> WsClient:
        c = WsClient(f"ws://127.0.0.1:{self.port}/ws/phone")
        self.clients.append(c)
        return c

    def stop(self) -> None:
        for c in self.clients:
            c.close()
        self.thread.stop()


@pytest.fixture
def server_factory() -> Iterator[Any]:
    made: list[Server] = []

    def make(limits: Limits | None = None, clock: Callable[[], float] = time.monotonic, **config: Any) -> Server:
        made.append(Server(limits, clock, **config))
        return made[-1]

    yield make
    for s in made:
        s.stop()


def _raw(port: int, source: str = "127.0.0.2", request: bytes | None = None) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    if request is not None:
        s.sendall(request)
    return s


def _read_all(s: socket.socket, timeout: float = 5.0) -> bytes:
    s.settimeout(timeout)
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return data
            data += chunk
    except (TimeoutError, ConnectionResetError):
        return data


def _upgrade(port: int, extra: str = "") -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET /ws/phone HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n"
    ).encode()


def test_permessage_deflate_is_refused_in_the_handshake(server_factory):
    server = server_factory()
    s = _raw(server.port, request=_upgrade(server.port, "Sec-WebSocket-Extensions: permessage-deflate\r\n"))
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(4096)
    assert head.startswith(b"HTTP/1.1 101") and b"deflate" not in head.lower()
    s.sendall(frame(b"\0" * 100, rsv1=True))  # a compressed frame anyway: a protocol error, closed
    assert b"\x88" in _read_all(s)[:4]
    s.close()


def test_after_a_websocket_closes_the_rest_of_the_stream_gets_no_http_answer(server_factory):
    server = server_factory()
    s = _raw(server.port, request=_upgrade(server.port))
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(4096)
    s.sendall(frame((1000).to_bytes(2, "big"), opcode=8) + b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    rest = _read_all(s)
    s.close()
    assert b"HTTP/1.1" not in rest, rest  # only the close frame came back


def test_request_headers_have_a_deadline(server_factory):
    server = server_factory(Limits(header_timeout=0.5))
    s = _raw(server.port)
    t = time.monotonic()
    for _ in range(20):  # a slowloris: one header byte every 0.1 s, never the end
        try:
            s.send(b"GET / HTTP/1.1\r\nX-a: " if _ == 0 else b"a")
        except OSError:
            break
        time.sleep(0.1)
        s.settimeout(0.01)
        try:
            if s.recv(1) == b"":
                break
        except TimeoutError:
            pass
    took = time.monotonic() - t
    s.close()
    assert took < 1.5, f"still open after {took:.1f} s"


def test_connections_and_sockets_are_capped_per_guest_but_not_for_the_host_machine(server_factory):
    server = server_factory(Limits(connections_per_peer=4, sockets_per_peer=2))
    socks = [_raw(server.port, request=_upgrade(server.port)) for _ in range(2)]
    for s in socks:
        assert s.recv(4096).startswith(b"HTTP/1.1 101")
    third = _raw(server.port, request=_upgrade(server.port))
    assert _read_all(third).startswith(b"HTTP/1.1 429")
    idle = [_raw(server.port) for _ in range(2)]  # 4 connections from 127.0.0.2 now
    over = _raw(server.port)
    assert _read_all(over, timeout=2) == b""  # closed at accept
    mine = [server.phone() for _ in range(6)]  # the host machine's own: as many as it wants
    assert all(not c.closed for c in mine)
    for s in socks + [third, over] + idle:
        s.close()


# --- pings: monotonic, and a stuck writer -------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("jump", [3600.0, -3600.0], ids=["forward", "back"])
def test_a_clock_jump_drops_no_healthy_socket_and_a_silent_one_still_goes(server_factory, monkeypatch, jump):
    server = server_factory(ping_interval=1.0)
    healthy = server.phone()
    healthy.hello()
    silent = _raw(server.port, request=_upgrade(server.port))
    assert silent.recv(4096).startswith(b"HTTP/1.1 101")
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + jump)
    monkeypatch.setattr(simple_websocket.ws, "time", lambda: real() + jump)
    t = time.monotonic()
    data = _read_all(silent, timeout=6.0)  # pings arrive; never answered; then the end
    took = time.monotonic() - t
    assert took < 4.0, f"the silent socket was still open after {took:.1f} s"
    assert b"\x89" in data  # it was pinged
    time.sleep(max(0.0, 3.0 - took))
    assert healthy.act("leave")["type"] in ("ok", "error")  # the healthy one answered pings and is still here
    silent.close()


@pytest.mark.slow
def test_a_phone_that_stops_reading_is_dropped_even_once_its_buffers_are_full(server_factory):
    # The watchdog's clock stands still while the scene is set: a raw socket echoes no ping, and on a busy machine
    # the watchdog (2 s of silence at this ping interval) dropped it before its buffers were full (seen once).
    clock = StoppableClock()
    clock.stop()
    server = server_factory(ping_interval=1.0, rate=1e6, burst=1e6, outgoing_limit=100000, clock=clock)
    table = table_of(server.app)
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.connect(("127.0.0.1", server.port))
    stuck.sendall(_upgrade(server.port))
    assert stuck.recv(4096).startswith(b"HTTP/1.1 101")
    stuck.sendall(frame(b'{"type": "hello", "token": null}'))

    def conn() -> Any:
        return next((c for c in table.outbox.sockets if c.kind == "phone" and c.greeted), None)

    t = time.monotonic()
    while table.call(conn) is None and time.monotonic() - t < 5:
        time.sleep(0.02)

    table.call(lambda: conn().ws.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096))
    for _ in range(200):  # fresh views until its writer is stuck in a send, with frames still queued
        table.changed()
        if table.call(lambda: conn()._pending) > 2:
            break
    assert table.call(lambda: conn()._pending) > 2
    clock.start()  # from here on, the watchdog's time runs
    t = time.monotonic()
    while time.monotonic() - t < 8 and table.call(conn) is not None:
        time.sleep(0.1)
    took = time.monotonic() - t
    stuck.close()
    assert took < 4.0, f"the stuck phone was still connected after {took:.1f} s"


# --- under load, through the benchmark ----------------------------------------------------------------


@pytest.mark.slow
def test_100_flooding_sockets_are_closed_within_3_s_and_drop_no_honest_one():
    r = flood.run_flood(100, 3.0)
    attack = r["attack"]
    print(json.dumps(attack))
    assert attack["sockets"] >= 10 and attack["lived_max"] <= 3.0 and attack["still_open"] == 0
    assert r["honest_dropped"] == 0 and r["flooded"]  # the honest swaps still went through


@pytest.mark.slow
def test_100_deflate_bombs_grow_the_host_by_less_than_50_mib():
    r = flood.run_bomb(100)
    assert r["attack"]["sent"] == 100 and r["attack"]["deflate_accepted"] == 0
    assert (r["during_kib"] - r["before_kib"]) / 1024 < 50
    assert r["honest_dropped"] == 0


@pytest.mark.slow
def test_1000_slowloris_opened_and_closed_at_once_drop_no_honest_socket():
    """A new phone gets its first state while all the slowloris sockets are held open, right after they all close
    and a second later (each within the bench's 10 s wait). How long it took is the bench's figure, beside its quiet
    baseline (python3 bench/flood.py slowloris): on a machine as loaded as this one a fixed bound says more about
    the machine than about the host."""
    r = flood.run_slowloris(1000)
    assert r["attack"]["opened"] >= 900, r
    assert r["served_while_held"], r
    assert r["honest_dropped"] == 0, r
