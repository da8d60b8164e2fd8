"""The guard's rules on an injected clock (no real timer): budgets, flood closing, pings, silence, stuck sends,
header deadlines. Real sockets (a socketpair) under the guard; the load tests are in test_hardening_network."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from quatro_party.server.door import Peers, Ticket, Watchdog
from quatro_party.server.guard import GuardedSocket, Limits
from quatro_party.server.testing import FakeClock


def _frame(payload: bytes) -> bytes:
    return bytes([0x81, 0x80 | len(payload)]) + b"\0\0\0\0" + payload


class Conn:
    """What the guard needs of a Connection: ping() and close(); ws is None (no writer to wait for)."""

    ws: Any = None

    greeted = True

    def __init__(self) -> None:
        self.pings: list[bytes] = []
        self.closed: list[tuple[int, str]] = []

    def ping(self, payload: bytes = b"") -> None:
        self.pings.append(payload)

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


def _looks(dog: Watchdog, clock: FakeClock, seconds: float) -> None:
    """``seconds`` of a host that runs: a look each second (one leap of that long would be the host away)."""
    for _ in range(round(seconds)):
        clock.advance(1.0)
        dog.check()


def _pong(payload: bytes, mask: bytes = b"\x01\x02\x03\x04") -> bytes:
    return bytes([0x8A, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_pings_on_monotonic_time_and_a_socket_that_echoes_none_is_dropped(pair, monkeypatch):
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
    assert conn.pings == []
    clock.advance(0.2)
    dog.check()
    assert len(conn.pings) == 1 and len(conn.pings[0]) == 8  # pinged, with a payload of its own
    client.sendall(_pong(conn.pings[0]))  # its echo: it read everything sent before
    assert guard.recv(4096)
    _looks(dog, clock, 9.0)
    assert len(conn.pings) == 2 and not _gone(client)  # it answered: still here
    clock.advance(1.1)
    dog.check()
    assert _gone(client)  # the second ping has been waiting 5 s, the first echo is 10 s old: dropped


def test_a_socket_that_talks_and_pongs_but_reads_nothing_is_dropped(pair):
    server, client = pair
    clock = FakeClock()
    limits = Limits(ping_interval=5.0, silent_after=10.0)
    guard, conn = _guard(server, clock, limits, [])
    dog = Watchdog(limits, clock)
    dog.watch(guard)
    for _ in range(9):
        clock.advance(1.1)
        # Pongs of its own (unsolicited, or a guessed payload) and messages: none is the echo of our pings.
        client.sendall(_pong(b"") + _pong(b"\0" * 8) + _frame(b"{}"))
        guard.recv(4096)
        dog.check()
    assert conn.pings and not guard.closed and not _gone(client)  # 9.9 s: pinged, not yet dropped
    clock.advance(1.0)
    dog.check()
    assert _gone(client)  # 10.9 s without an echo, however much it talked


def test_a_pong_split_across_reads_is_still_its_echo(pair):
    server, client = pair
    clock = FakeClock()
    guard, conn = _guard(server, clock, Limits(ping_interval=5.0, silent_after=10.0), [])
    payload = guard.ping_payload(clock())
    clock.advance(3.0)
    data = _frame(b"{}") + _pong(payload)
    for i in range(len(data)):
        client.sendall(data[i : i + 1])
        guard.recv(1)
    assert guard.read_at == 1000.0  # the ping's send time: everything before it was read


def test_a_websocket_that_never_says_hello_is_dropped(pair):
    server, client = pair
    clock = FakeClock()
    limits = Limits(ping_interval=5.0, silent_after=10.0, greet_within=3.0)
    guard, conn = _guard(server, clock, limits, [])
    conn.greeted = False
    dog = Watchdog(limits, clock)
    dog.watch(guard)
    clock.advance(2.9)
    dog.check()
    assert not _gone(client)
    clock.advance(0.2)
    dog.check()
    assert _gone(client)


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
    first, second = peers.admit("10.0.0.5"), peers.admit("10.0.0.5")
    assert isinstance(first, Ticket) and isinstance(second, Ticket)
    assert peers.admit("10.0.0.5") == "too many connections from this address"
    peers.release(first)
    assert isinstance(peers.admit("10.0.0.5"), Ticket)
    assert peers.open_socket("10.0.0.5") and not peers.open_socket("10.0.0.5")
    assert all(isinstance(peers.admit("127.0.0.1"), Ticket) for _ in range(200)) and peers.open_socket("127.0.0.1")
    assert peers.total == 2  # the host machine's own are not counted
    peers.ban("10.0.0.6")
    assert peers.admit("10.0.0.6") == "banned for flooding"
    clock.advance(10.1)
    assert isinstance(peers.admit("10.0.0.6"), Ticket)


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


def _as(ticket: Ticket | str, greeted: bool = False, seat: int | None = None) -> Ticket:
    """Give an admitted ticket a WebSocket whose Connection greeted (or not) and holds ``seat``."""
    from types import SimpleNamespace

    assert isinstance(ticket, Ticket), ticket
    conn = SimpleNamespace(greeted=greeted or seat is not None, seat=seat, is_host=False)
    ticket.guard = SimpleNamespace(conn=conn, shut=False)  # type: ignore[assignment]
    ticket.guard.shutdown_quietly = lambda: setattr(ticket.guard, "shut", True)  # type: ignore[union-attr]
    return ticket


def test_a_full_door_pushes_out_the_connection_that_proved_least_never_a_seated_one():
    clock = FakeClock()
    peers = Peers(Limits(connections=6, connections_per_peer=10, pending_grace=2.0), clock)
    seated = [_as(peers.admit("10.0.0.1"), seat=0), _as(peers.admit("10.0.0.2"), seat=1)]
    visitor = _as(peers.admit("10.0.0.3"), greeted=True)
    crowd = [_as(peers.admit("10.0.0.9"), greeted=True) for _ in range(2)] + [_as(peers.admit("10.0.0.9"))]
    assert peers.total == 6
    clock.advance(2.1)
    first = _as(peers.admit("10.0.0.4"), greeted=True)  # the socket that never said hello makes room first
    assert crowd[2].evicted and crowd[2].guard.shut and not any(t.evicted for t in crowd[:2]) and peers.total == 6
    _as(peers.admit("10.0.0.5"), greeted=True)  # then a visitor of the address holding the most: the crowd's
    pushed = [t for t in crowd[:2] if t.evicted]
    assert len(pushed) == 1 and not visitor.evicted and not first.evicted
    peers.release(pushed[0])  # its handler ends later: not counted twice
    assert peers.total == 6
    assert isinstance(peers.admit("127.0.0.1"), Ticket) and peers.total == 6  # the host machine: always in
    assert not any(t.evicted for t in seated)


def test_a_full_door_refuses_when_all_are_seated_or_just_arrived_or_the_newcomer_is_as_busy():
    clock = FakeClock()
    peers = Peers(Limits(connections=3, pending_grace=2.0), clock)
    _as(peers.admit("10.0.0.1"), seat=0)
    newest = [peers.admit("10.0.0.2") for _ in range(2)]
    assert all(isinstance(t, Ticket) for t in newest)
    clock.advance(1.0)
    assert peers.admit("10.0.0.3") == "too many connections"  # a seat, and two plain requests in their first seconds
    clock.advance(1.1)
    assert peers.admit("10.0.0.2") == "too many connections"  # its own address: nobody busier to push out
    assert isinstance(peers.admit("10.0.0.3"), Ticket) and sum(t.evicted for t in newest) == 1  # type: ignore[union-attr]
    assert peers.first("10.0.0.3", "429") and not peers.first("10.0.0.3", "429")  # logged once per address


def test_a_websocket_that_never_says_hello_is_kept_from_newcomers_only_for_its_first_half_second():
    # A guest refilling a full door with fresh sockets that never greet must not shut a new phone out: an honest
    # page says hello as its socket opens, while a page's plain requests keep their longer grace.
    clock = FakeClock()
    peers = Peers(Limits(connections=4, pending_grace=2.0, hello_grace=0.5), clock)
    _as(peers.admit("10.0.0.1"), seat=0)
    fresh = [_as(peers.admit("10.0.0.2")) for _ in range(2)]
    plain = peers.admit("10.0.0.2")
    assert isinstance(plain, Ticket)
    clock.advance(0.4)
    assert peers.admit("10.0.0.3") == "too many connections"  # the sockets' first 0.4 s: kept
    clock.advance(0.2)
    assert isinstance(peers.admit("10.0.0.3"), Ticket)  # the phone page's first retry, 0.5 s on: it gets in
    assert sum(t.evicted for t in fresh) == 1 and not plain.evicted
    assert isinstance(peers.admit("10.0.0.4"), Ticket)
    assert all(t.evicted and t.guard.shut for t in fresh) and not plain.evicted  # type: ignore[union-attr]
    assert peers.total == 4


def test_the_door_fits_the_descriptors_the_system_gives():
    from quatro_party.server.serving import DESCRIPTORS_KEPT, descriptor_room, fitted_to_descriptors

    assert fitted_to_descriptors(Limits(connections=1024), 1024).connections == 1024 - DESCRIPTORS_KEPT
    assert fitted_to_descriptors(Limits(connections=1024), 20000).connections == 1024
    assert fitted_to_descriptors(Limits(connections=1024), None).connections == 1024  # Windows: nothing to read
    room = descriptor_room()
    assert room is None or room >= 1024  # raised towards 8192 where the hard limit allows


def test_the_watchdog_drops_a_few_sockets_a_look_never_a_thousand_at_once():
    clock = FakeClock()
    limits = Limits(greet_within=3.0, drops_per_second=8.0)
    dog = Watchdog(limits, clock, period=0.25)  # 2 a look
    pairs = [socket.socketpair() for _ in range(5)]
    try:
        guards = []
        for a, _ in pairs:
            guard, conn = _guard(a, clock, limits, [])
            conn.greeted = False
            dog.watch(guard)
            guards.append(guard)
        clock.advance(3.1)
        gone = []
        for _ in range(3):
            dog.check()
            gone.append(sum(_gone(b) for _, b in pairs))
        assert gone == [2, 4, 5]
    finally:
        for a, b in pairs:
            a.close()
            b.close()


@pytest.mark.parametrize("poll", [True, False], ids=["poll", "select-as-on-windows"])
def test_an_echo_the_host_has_not_read_yet_is_the_host_behind_not_the_phone_deaf(pair, monkeypatch, poll):
    """A loaded host's reader thread may not run for many seconds: the phone's echo waits in the host's own
    socket buffer. That socket is kept (a grace), and dropped once the grace is over if still nothing is read."""
    import select

    if not poll:
        monkeypatch.delattr(select, "poll")  # Windows has no poll(): the guard falls back to select()
    server, client = pair
    clock = FakeClock()
    limits = Limits(ping_interval=5.0, silent_after=10.0, unread_grace=30.0)
    guard, conn = _guard(server, clock, limits, [])
    dog = Watchdog(limits, clock)
    dog.watch(guard)
    clock.advance(5.1)
    dog.check()
    client.sendall(_pong(conn.pings[0]))  # echoed at once; the host does not get round to reading it
    _looks(dog, clock, 5.0)
    assert guard.has_unread() and not _gone(client)  # 10.1 s: the echo is there, unread: kept
    _looks(dog, clock, 29.0)
    assert not _gone(client)
    clock.advance(1.0)
    dog.check()
    assert _gone(client)  # 40.1 s: the grace is over, and the host never read


def test_a_host_that_did_not_run_for_35_s_drops_nobody_for_its_own_absence(pair):
    """The machine stalled and every thread of the host stopped for 35 s (seen on a starved 2-core host: the big
    screen and every phone were dropped as deaf when it came back). The phones could neither echo nor be read
    meanwhile: the socket is pinged again and judged only after ``silent_after`` more seconds, as always after."""
    server, client = pair
    clock = FakeClock()
    limits = Limits(ping_interval=5.0, silent_after=10.0, unread_grace=30.0, host_away=5.0)
    guard, conn = _guard(server, clock, limits, [])
    dog = Watchdog(limits, clock)
    dog.watch(guard)
    _looks(dog, clock, 6.0)
    client.sendall(_pong(conn.pings[0]))
    assert guard.recv(4096)
    clock.advance(35.0)  # no look, no read: the host did not run
    dog.check()
    assert not _gone(client) and len(conn.pings) == 2  # pinged again, not judged
    echoed = 1
    for _ in range(20):  # an honest phone echoes each ping once it runs again
        if len(conn.pings) > echoed:
            client.sendall(_pong(conn.pings[-1]))
            assert guard.recv(4096)
            echoed = len(conn.pings)
        clock.advance(1.0)
        dog.check()
    assert not _gone(client)
    _looks(dog, clock, 15.0)  # it stops echoing: the excuse is long over, the usual rule drops it
    assert _gone(client)


def test_nothing_unread_is_no_excuse(pair):
    server, client = pair
    guard, _ = _guard(server, FakeClock(), Limits(), [])
    assert not guard.has_unread()
    client.sendall(b"x")
    assert guard.has_unread()
    guard.recv(1)
    assert not guard.has_unread()
