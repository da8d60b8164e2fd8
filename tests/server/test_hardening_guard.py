"""The guard's rules on an injected clock (no real timer): budgets, flood closing, pings, silence, stuck sends,
header deadlines. Real sockets (a socketpair) under the guard; the load tests are in test_hardening_network."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from quatro_party.server.guard import GuardedSocket, Limits, Peers, Watchdog
from quatro_party.server.testing import FakeClock


def _frame(payload: bytes) -> bytes:
    return bytes([0x81, 0x80 | len(payload)]) + b"\0\0\0\0" + payload


class Conn:
    """What the guard needs of a Connection: ping() and close(); ws is None (no writer to wait for)."""

    ws: Any = None

    def __init__(self) -> None:
        self.pings = 0
        self.closed: list[tuple[int, str]] = []

    def ping(self) -> None:
        self.pings += 1

    def close(self, code: int, reason: str) -> None:
        self.closed.append((code, reason))


@pytest.fixture
def pair():
    a, b = socket.socketpair()
    yield a, b
    a.close()
    b.close()


def _guard(sock: socket.socket, clock: FakeClock, limits: Limits, slept: list[float]) -> tuple[GuardedSocket, Conn]:
    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock.advance(seconds)

    guard = GuardedSocket(sock, "127.0.0.9", limits, clock, sleep=sleep)
    conn = Conn()
    guard.attach(conn)
    guard.upgraded = True
    return guard, conn


def _gone(sock: socket.socket) -> bool:
    sock.settimeout(1.0)
    try:
        while True:
            if sock.recv(4096) == b"":
                return True
    except (TimeoutError, BlockingIOError):
        return False
    except OSError:
        return True


def test_an_honest_burst_passes_a_flood_waits_then_is_closed_with_1008(pair):
    server, client = pair
    clock, slept = FakeClock(), []
    limits = Limits(frame_rate=10.0, frame_burst=20.0, grace=1.5, max_debt=2.0)
    guard, conn = _guard(server, clock, limits, slept)
    client.sendall(_frame(b"{}") * 20)  # a burst within the budget: read at once, no wait
    assert guard.recv(65536) and slept == [] and not guard.flooded
    clock.advance(2.0)  # the budget refills
    over_at = None
    for _ in range(40):  # then more than the rate, read after read: the reader waits (the sender with it) ...
        client.sendall(_frame(b"{}") * 8)
        if guard.recv(65536) == b"":
            break
        if slept and over_at is None:
            over_at = clock() - slept[0]
        clock.advance(0.1)
    assert slept and over_at is not None
    # ... and 1.5 s over the budget without a break, it is closed
    assert guard.flooded and conn.closed == [(1008, "too many messages")]
    assert 1.5 <= clock() - over_at <= 2.5
    assert guard.recv(65536) == b"" and _gone(client)


def test_one_read_deep_in_debt_closes_at_once(pair):
    server, client = pair
    clock, slept = FakeClock(), []
    guard, conn = _guard(server, clock, Limits(frame_rate=10.0, frame_burst=20.0, max_debt=2.0), slept)
    client.sendall(_frame(b"x") * 200)  # 18 s of frames in one read
    assert guard.recv(65536) == b"" and guard.flooded and conn.closed and slept == []


def test_bytes_count_as_well_as_frames(pair):
    server, client = pair
    clock, slept = FakeClock(), []
    limits = Limits(byte_rate=1000.0, byte_burst=2000.0, max_debt=2.0)
    guard, _ = _guard(server, clock, limits, slept)
    client.sendall(bytes([0x81, 0xFE]) + (5000).to_bytes(2, "big") + b"\0\0\0\0" + b"x" * 5000)  # one frame
    while not guard.flooded and guard.recv(65536):
        pass
    assert guard.flooded  # 5 KB at 1 KB/s with a 2 KB burst


def test_pings_on_monotonic_time_and_a_silent_socket_is_dropped(pair, monkeypatch):
    import time

    server, client = pair
    clock = FakeClock()
    limits = Limits(ping_interval=5.0, silent_after=10.0)
    guard, conn = _guard(server, clock, limits, [])
    dog = Watchdog(limits, clock)
    dog.watch(guard)
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() - 3600)  # the wall clock jumps: nothing reads it
    clock.advance(4.9)
    dog.check()
    assert conn.pings == 0
    clock.advance(0.2)
    dog.check()
    assert conn.pings == 1  # quiet for an interval: pinged
    client.sendall(b"\x8a\x80\0\0\0\0")  # its pong
    assert guard.recv(4096)
    clock.advance(9.0)
    dog.check()
    assert conn.pings == 2 and not _gone(client)  # it answered: still here
    clock.advance(1.1)
    dog.check()
    assert _gone(client)  # 10 s since anything came: dropped


def test_a_send_stuck_for_the_silence_limit_drops_the_socket_even_if_it_talks(pair):
    server, client = pair
    clock = FakeClock()
    limits = Limits(ping_interval=5.0, silent_after=10.0)
    guard, _ = _guard(server, clock, limits, [])
    dog = Watchdog(limits, clock)
    dog.watch(guard)
    guard.send_since = clock()  # a writer blocked in a send (the phone stopped reading)
    for _ in range(10):
        clock.advance(1.05)
        client.sendall(_frame(b"{}"))  # it keeps sending, so it is not silent
        guard.recv(4096)
        dog.check()
    assert _gone(client)


def test_request_headers_have_a_deadline(pair):
    server, client = pair
    clock = FakeClock()
    dog = Watchdog(Limits(header_timeout=5.0), clock)
    dog.expect_headers(server)
    clock.advance(4.9)
    dog.check()
    assert not _gone(client)
    clock.advance(0.2)
    dog.check()
    assert _gone(client)
    other_server, other_client = socket.socketpair()
    dog.expect_headers(other_server)
    dog.headers_done(other_server)  # in time: no deadline any more
    clock.advance(60)
    dog.check()
    assert not _gone(other_client)
    other_server.close()
    other_client.close()


def test_peers_are_capped_and_a_flooder_banned_but_not_the_host_machine():
    clock = FakeClock()
    peers = Peers(Limits(connections_per_peer=2, sockets_per_peer=1, ban=10.0, connections=100), clock)
    assert peers.admit("10.0.0.5") is None and peers.admit("10.0.0.5") is None
    assert peers.admit("10.0.0.5") is not None
    peers.release("10.0.0.5")
    assert peers.admit("10.0.0.5") is None
    assert peers.open_socket("10.0.0.5") and not peers.open_socket("10.0.0.5")
    assert all(peers.admit("127.0.0.1") is None for _ in range(10)) and peers.open_socket("127.0.0.1")
    peers.ban("10.0.0.6")
    assert peers.admit("10.0.0.6") == "banned for flooding"
    clock.advance(10.1)
    assert peers.admit("10.0.0.6") is None


def test_the_sockets_of_one_address_share_its_budget():
    clock = FakeClock()
    limits = Limits(frame_rate=100.0, frame_burst=100.0, peer_frame_rate=10.0, peer_frame_burst=20.0, max_debt=2.0)
    peers = Peers(limits, clock)
    shared = peers.budgets("10.0.0.7")
    assert shared is not None and peers.budgets("10.0.0.7") is shared and peers.budgets("127.0.0.1") is None
    pairs = [socket.socketpair() for _ in range(2)]
    try:
        guards = [GuardedSocket(a, "10.0.0.7", limits, clock, sleep=clock.advance, shared=shared) for a, _ in pairs]
        for (_, b), g in zip(pairs, guards):
            b.sendall(_frame(b"{}") * 25)  # 25 frames each: well within each socket's own 100
            g.recv(65536)
        assert guards[1].flooded and not guards[0].flooded  # but 50 together: 3 s of the address's budget in debt
    finally:
        for a, b in pairs:
            a.close()
            b.close()
