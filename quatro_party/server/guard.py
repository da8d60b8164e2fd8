"""What a guest's socket may cost the host, enforced before any parsing.

Everything here sits under simple-websocket and Werkzeug, on the raw TCP socket:

* :class:`GuardedSocket` wraps a WebSocket's socket. Every ``recv`` is charged to two budgets, bytes and
  WebSocket frames (counted from the frame headers alone by :class:`FrameCounter`, nothing is decoded),
  before wsproto sees a byte. A socket over budget is made to wait (its sender is held back by TCP itself),
  and one that stays over it for :attr:`Limits.grace` seconds is closed with 1008.
* :class:`Watchdog`, one thread per server, on monotonic time: it bounds the time a connection may take to
  send its request headers (slowloris), closes a WebSocket that has not said hello within
  :attr:`Limits.greet_within` seconds, and pings every WebSocket with a random payload. A socket is alive while
  it echoes those payloads: the ping goes out in order with the frames, so its echo proves the phone has *read*
  everything sent before it (a socket that only sends pongs of its own, or talks without reading, proves
  nothing). One whose last echoed ping is :attr:`Limits.silent_after` seconds old, or whose writer has been
  stuck in a send that long, is dropped: whatever piles up for a phone that stopped reading is bounded by what
  the table sends in those seconds. simple-websocket's own ping runs on wall-clock time and blocks in a full
  send buffer, so the server turns it off (see ``serving``).
* :class:`Peers` is the door: it counts connections and WebSockets per guest address, bans a flooder's address
  for a while, and keeps room. The host machine itself (loopback) is never counted nor refused: whoever runs
  code there owns the host anyway, and its big screen must always get in. When the guests' connections reach
  :attr:`Limits.connections`, a newcomer takes the place of one that proved least, of an address holding at
  least two connections more than the newcomer's: first a connection that has not said hello (not the newest,
  :attr:`Limits.pending_grace`), then a visitor or spectator, of the address holding the most, oldest first.
  A seated phone (or a screen with the host's rights) is never pushed out; a seated phone coming back is a
  newcomer like any other, from an address holding little: it gets in. A flooder's own reconnections find
  nobody to push out (its addresses are the busiest) and are refused at ``accept``, which costs no thread.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("quatro.server")

Clock = Callable[[], float]

#: Peers never capped nor banned: the host machine itself (its own big screen, its own tests).
TRUSTED_PEERS = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})


@dataclass(frozen=True)
class Limits:
    """What one guest may cost the host. The defaults leave an honest phone (a few small messages a
    second, bursts of a few dozen) far below every bound."""

    #: WebSocket frames per second per socket, and the burst allowed (3x the table's own message limit:
    #: the table answers mild excess with a ``flood`` error; this is for what would drown it).
    frame_rate: float = 60.0
    frame_burst: float = 120.0
    #: Bytes per second per socket, and the burst (two of the largest messages the host accepts).
    byte_rate: float = 64 * 1024.0
    byte_burst: float = 256 * 1024.0
    #: The same for all the sockets of one guest address together (a device with two tabs is well within it;
    #: ten flooding sockets from one address share it).
    peer_frame_rate: float = 120.0
    peer_frame_burst: float = 240.0
    peer_byte_rate: float = 128 * 1024.0
    peer_byte_burst: float = 512 * 1024.0
    #: A socket over budget this long without a break is closed with 1008 ...
    grace: float = 1.5
    #: ... and at once when one read puts it this many seconds of budget in debt.
    max_debt: float = 2.0
    #: Seconds a connection has to send its request line and headers.
    header_timeout: float = 5.0
    #: Seconds of silence on a socket before a plain HTTP request is given up (body, slow reader).
    request_timeout: float = 10.0
    #: A WebSocket is pinged this often ...
    ping_interval: float = 5.0
    #: ... and dropped when it has echoed none of the pings of this long, or a send has been stuck this long
    #: (about two intervals).
    silent_after: float = 10.0
    #: Seconds a WebSocket has to say hello (an honest page says it at once).
    greet_within: float = 10.0
    #: Sockets the watchdog drops per second at most (the rest wait for its next looks): a thousand handlers
    #: ending at once kept a 2-core host from answering anything for ~20 s (thread-per-socket: measured with 1,022
    #: sockets closed together, bench/flood.py doors; the same before the door was reshaped).
    drops_per_second: float = 16.0
    #: Open TCP connections per guest address, and WebSockets per guest address.
    connections_per_peer: int = 32
    sockets_per_peer: int = 12
    #: Open TCP connections of guests in all (each holds a thread); the host machine's are not counted.
    connections: int = 1024
    #: A connection that has not said hello is never pushed out for a newcomer in its first seconds.
    pending_grace: float = 2.0
    #: Seconds a peer's new connections are refused after one of its sockets was closed for flooding.
    ban: float = 10.0

    def fitted(
        self, ping_interval: float | None = None, rate: float | None = None, burst: float | None = None
    ) -> Limits:
        """These limits for a table with this ping interval (dropped after two of them) and this message rate
        limit (frames: three times its rate and burst, never less than the defaults here)."""
        changes: dict[str, float] = {}
        if ping_interval:
            changes.update(ping_interval=ping_interval, silent_after=2 * ping_interval)
            changes["greet_within"] = min(self.greet_within, 2 * ping_interval)
        if rate:
            changes["frame_rate"] = max(self.frame_rate, 3 * rate)
        if burst:
            changes["frame_burst"] = max(self.frame_burst, 3 * burst)
        changes["peer_frame_rate"] = max(self.peer_frame_rate, 2 * changes.get("frame_rate", self.frame_rate))
        changes["peer_frame_burst"] = max(self.peer_frame_burst, 2 * changes.get("frame_burst", self.frame_burst))
        return Limits(**{**self.__dict__, **changes})


class Budget:
    """A token bucket that may go into debt: :meth:`charge` returns the seconds to wait until it is even.
    Several sockets' reader threads may share one (a peer's): charging is locked."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.last = now
        self._lock = threading.Lock()

    def charge(self, cost: float, now: float) -> float:
        with self._lock:
            self.tokens = min(self.burst, self.tokens + max(0.0, now - self.last) * self.rate)
            self.last = max(self.last, now)
            self.tokens -= cost
            return -self.tokens / self.rate if self.tokens < 0 else 0.0


#: The opcode of a pong frame.
_PONG = 0xA
#: Pings whose echo is awaited at once, at most (older ones are forgotten: they are late anyway).
PINGS_AWAITED = 8


class FrameCounter:
    """Counts the frames a WebSocket client sends, from their headers, skipping the payloads unread, and keeps the
    payload of each pong (a control frame: 125 bytes at most), the only payload ever looked at.

    A client frame is 2 bytes, 2 or 8 more of length when the 7-bit length says 126 or 127, 4 of mask,
    then the payload. Only those few header bytes are looked at.
    """

    def __init__(self) -> None:
        self._header = bytearray()
        self._skip = 0  # payload bytes of the current frame still to come
        self._pong: bytearray | None = None  # the payload of the pong being read (masked)
        self._mask = b""
        self.pongs: list[bytes] = []  # pong payloads read, unmasked, for the caller to take

    def feed(self, data: bytes) -> int:
        """How many frames start in ``data``."""
        frames = 0
        i, n = 0, len(data)
        while i < n:
            if self._skip:
                step = min(self._skip, n - i)
                if self._pong is not None:
                    self._pong += data[i : i + step]
                self._skip -= step
                i += step
                if not self._skip:
                    self._pong_done()
                continue
            need = 2
            while True:
                if len(self._header) >= 2:
                    b1 = self._header[1]
                    size7 = b1 & 0x7F
                    need = 2 + (2 if size7 == 126 else 8 if size7 == 127 else 0) + (4 if b1 & 0x80 else 0)
                if len(self._header) >= need or i >= n:
                    break
                take = min(need - len(self._header), n - i)
                self._header += data[i : i + take]
                i += take
            if len(self._header) < need:
                break  # the rest of this header comes with the next read
            b1 = self._header[1]
            size7 = b1 & 0x7F
            if size7 == 126:
                size = int.from_bytes(self._header[2:4], "big")
            elif size7 == 127:
                size = int.from_bytes(self._header[2:10], "big")
            else:
                size = size7
            frames += 1
            if self._header[0] & 0x0F == _PONG and size <= 125:
                self._pong = bytearray()
                self._mask = bytes(self._header[need - 4 : need]) if b1 & 0x80 else b""
            self._skip = size
            self._header.clear()
            if not size:
                self._pong_done()
        return frames

    def _pong_done(self) -> None:
        if self._pong is None:
            return
        payload, mask = self._pong, self._mask
        self.pongs.append(bytes(b ^ mask[k % 4] for k, b in enumerate(payload)) if mask else bytes(payload))
        self._pong = None


class GuardedSocket:
    """A WebSocket's TCP socket, metered: see the module's docstring. Everything else is the socket's own."""

    def __init__(
        self,
        sock: socket.socket,
        peer: str,
        limits: Limits,
        clock: Clock = time.monotonic,
        on_flood: Callable[[GuardedSocket], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        shared: tuple[Budget, Budget] | None = None,
    ) -> None:
        self._sock = sock
        self._sleep = sleep
        self._shared = shared  # the peer's frame and byte budgets (None: the host machine, not limited)
        self.peer = peer
        self.limits = limits
        self.clock = clock
        self.on_flood = on_flood
        now = clock()
        self._frames = Budget(limits.frame_rate, limits.frame_burst, now)
        self._bytes = Budget(limits.byte_rate, limits.byte_burst, now)
        self._counter = FrameCounter()
        self._over_since: float | None = None
        self.opened = now
        self.read_at = now  # everything sent before this time has been read: the send time of the last echoed ping
        self.last_ping = now
        self._pings: dict[bytes, float] = {}  # payloads of the pings awaiting their echo → when they were sent
        self._ping_lock = threading.Lock()  # the watchdog adds pings, the reader thread takes their echoes
        self.send_since: float | None = None  # when the send in progress started (a stuck writer)
        self.upgraded = False  # the handshake's answer went out: from now on this is a WebSocket
        self.flooded = False
        self.closed = False
        self.conn: Any = None  # the Connection that writes to this socket, once it attached itself

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)

    def fileno(self) -> int:
        return self._sock.fileno()

    def attach(self, conn: Any) -> None:
        """The :class:`~.connection.Connection` of this socket: pings and the 1008 go through its writer."""
        self.conn = conn

    # reading: charged before anyone parses it
    def recv(self, size: int, *flags: int) -> bytes:
        if self.flooded or self.closed:
            return b""
        data = self._sock.recv(size, *flags)
        now = self.clock()
        if not data:
            return data
        frames = self._counter.feed(data)
        if self._counter.pongs:
            for payload in self._counter.pongs:
                self._echoed(payload)
            self._counter.pongs.clear()
        wait = max(self._frames.charge(frames, now), self._bytes.charge(len(data), now))
        if self._shared is not None:
            wait = max(wait, self._shared[0].charge(frames, now), self._shared[1].charge(len(data), now))
        if wait <= 0:
            self._over_since = None
            return data
        if self._over_since is None:
            self._over_since = now
        if wait > self.limits.max_debt or now - self._over_since >= self.limits.grace:
            self._flood()
            return b""
        self._sleep(wait)  # the sender waits too: nothing more is read, TCP holds it back
        return data

    def ping_payload(self, now: float) -> bytes:
        """A new ping's payload, awaited from now on (random: a socket that does not read cannot guess it)."""
        payload = os.urandom(8)
        with self._ping_lock:
            if len(self._pings) >= PINGS_AWAITED:
                del self._pings[next(iter(self._pings))]
            self._pings[payload] = now
            self.last_ping = now
        return payload

    def _echoed(self, payload: bytes) -> None:
        """A pong: if it echoes one of our pings, the phone has read everything sent before that ping."""
        with self._ping_lock:
            sent = self._pings.pop(payload, None)
            if sent is None:
                return  # a pong of its own, or an old one: it proves nothing
            self.read_at = max(self.read_at, sent)
            for other, at in list(self._pings.items()):
                if at <= sent:
                    del self._pings[other]

    def _flood(self) -> None:
        self.flooded = True
        log.warning("%s: flooding, closed (1008)", self.peer)
        if self.on_flood is not None:
            self.on_flood(self)
        conn = self.conn
        if conn is not None:
            conn.close(1008, "too many messages")
            # The close goes out through the socket's writer; a flooder that reads nothing gets no more time.
            end = time.monotonic() + 0.5
            while conn.ws is not None and getattr(conn.ws, "connected", False) and time.monotonic() < end:
                time.sleep(0.02)
        self.shutdown_quietly()

    # writing: timed, so that a send stuck on a phone that stopped reading is seen
    def send(self, data: Any, *flags: int) -> int:
        self.upgraded = True
        blocking = not flags
        if blocking:
            self.send_since = self.clock()
        try:
            return self._sock.send(data, *flags)
        finally:
            if blocking:
                self.send_since = None

    def sendall(self, data: Any, *flags: int) -> None:
        self.upgraded = True
        self.send_since = self.clock()
        try:
            self._sock.sendall(data, *flags)
        finally:
            self.send_since = None

    def shutdown_quietly(self) -> None:
        """End both directions now (unblocks a stuck send and the reader); safe from any thread."""
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def close(self) -> None:
        """simple-websocket closes the socket when its reader ends: the connection is over, both ways.

        The descriptor itself is Werkzeug's to close (it still serves the request); shutting it down makes
        sure nothing more is read from it or written to it as HTTP.
        """
        self.closed = True
        self.shutdown_quietly()


#: How far a connection has proved itself, as the door sees it: nothing yet, a hello, a seat (or the host's rights).
PENDING, GUEST, SEATED = 0, 1, 2


class Ticket:
    """One accepted connection, as the door counts it: its address, when it came, its socket, and once it is a
    WebSocket its :class:`GuardedSocket` (whose Connection says whether it greeted, and whether it holds a seat)."""

    __slots__ = ("peer", "since", "sock", "guard", "trusted", "evicted")

    def __init__(self, peer: str, since: float, sock: Any = None, trusted: bool = False) -> None:
        self.peer, self.since, self.sock, self.trusted = peer, since, sock, trusted
        self.guard: GuardedSocket | None = None
        self.evicted = False

    def standing(self) -> int:
        """:data:`PENDING`, :data:`GUEST` or :data:`SEATED` (read from the table's Connection: a stale read at worst
        says one step less, for a moment)."""
        conn = self.guard.conn if self.guard is not None else None
        if conn is None:
            return PENDING
        if getattr(conn, "seat", None) is not None or getattr(conn, "is_host", False):
            return SEATED
        return GUEST if getattr(conn, "greeted", False) else PENDING

    def close(self) -> None:
        """Push this connection out: its socket is shut down (its handler ends, and the table unseats nothing)."""
        if self.guard is not None:
            self.guard.shutdown_quietly()
        elif self.sock is not None:
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class Peers:
    """The door: open connections and WebSockets per guest address, the addresses banned for a while, and room
    kept for the connections that proved most (see the module's docstring)."""

    def __init__(self, limits: Limits, clock: Clock = time.monotonic, trusted: frozenset[str] = TRUSTED_PEERS):
        self.limits, self.clock, self.trusted = limits, clock, trusted
        self._lock = threading.Lock()
        self.connections: dict[str, int] = {}
        self.sockets: dict[str, int] = {}
        self.total = 0
        self._tickets: set[Ticket] = set()
        self._banned: dict[str, float] = {}
        self._budgets: dict[str, tuple[Budget, Budget]] = {}
        self._told: set[tuple[str, str]] = set()  # (address, what) already logged: once per address

    def admit(self, peer: str, sock: Any = None) -> Ticket | str:
        """Count a new connection from ``peer``: its :class:`Ticket`, or why it is refused (then not counted).

        When the guests' connections are all taken, the one that proved least makes room (it is shut down).
        """
        now = self.clock()
        if peer in self.trusted:
            return Ticket(peer, now, sock, trusted=True)
        pushed = None
        with self._lock:
            until = self._banned.get(peer)
            if until is not None:
                if now < until:
                    return "banned for flooding"
                del self._banned[peer]
            if self.connections.get(peer, 0) >= self.limits.connections_per_peer:
                return "too many connections from this address"
            if self.total >= self.limits.connections:
                pushed = self._least(now, self.connections.get(peer, 0))
                if pushed is None:
                    return "too many connections"
                self._uncount(pushed)
                pushed.evicted = True
            ticket = Ticket(peer, now, sock)
            self._tickets.add(ticket)
            self.connections[peer] = self.connections.get(peer, 0) + 1
            self.total += 1
        if pushed is not None:
            if self.first(pushed.peer, "pushed"):
                log.info("%s: a connection pushed out to make room (the host is full)", pushed.peer)
            pushed.close()
        return ticket

    def _least(self, now: float, load: int) -> Ticket | None:
        """The connection that makes room for a newcomer whose address holds ``load`` connections (under the lock):
        one of an address holding at least two more (room moves from the busiest guests to the others, never back
        and forth between a flooder's own addresses); one that has not said hello (past its grace) first, else a
        visitor or spectator; of the address holding the most; the oldest. ``None``: nobody to push out."""
        best: Ticket | None = None
        best_key: tuple[int, int, float] | None = None
        for t in self._tickets:
            held = self.connections.get(t.peer, 0)
            if held < load + 2:
                continue
            standing = t.standing()
            if standing == SEATED or (standing == PENDING and now - t.since < self.limits.pending_grace):
                continue
            rank = (standing, -held, t.since)
            if best_key is None or rank < best_key:
                best, best_key = t, rank
        return best

    def _uncount(self, ticket: Ticket) -> None:
        self._tickets.discard(ticket)
        left = self.connections.get(ticket.peer, 0) - 1
        if left > 0:
            self.connections[ticket.peer] = left
        else:
            self.connections.pop(ticket.peer, None)
            self._told = {told for told in self._told if told[0] != ticket.peer}
        self.total = max(0, self.total - 1)

    def release(self, ticket: Ticket) -> None:
        """The connection ended (a pushed-out one was uncounted already)."""
        if ticket.trusted or ticket.evicted:
            return
        with self._lock:
            if ticket in self._tickets:
                self._uncount(ticket)

    def first(self, peer: str, what: str) -> bool:
        """True the first time ``what`` is said of ``peer`` while it has connections (log once per address)."""
        with self._lock:
            if (peer, what) in self._told:
                return False
            if len(self._told) >= 4 * self.limits.connections:
                self._told.clear()
            self._told.add((peer, what))
            return True

    def open_socket(self, peer: str) -> bool:
        """Count a WebSocket from ``peer``; False (not counted) when it has as many as it may."""
        with self._lock:
            if peer not in self.trusted and self.sockets.get(peer, 0) >= self.limits.sockets_per_peer:
                return False
            self.sockets[peer] = self.sockets.get(peer, 0) + 1
            return True

    def close_socket(self, peer: str) -> None:
        with self._lock:
            left = self.sockets.get(peer, 0) - 1
            if left > 0:
                self.sockets[peer] = left
            else:
                self.sockets.pop(peer, None)
                self._budgets.pop(peer, None)

    def budgets(self, peer: str) -> tuple[Budget, Budget] | None:
        """The frame and byte budgets all of ``peer``'s open sockets share; ``None`` for the host machine."""
        if peer in self.trusted:
            return None
        with self._lock:
            shared = self._budgets.get(peer)
            if shared is None:
                now, lim = self.clock(), self.limits
                shared = (
                    Budget(lim.peer_frame_rate, lim.peer_frame_burst, now),
                    Budget(lim.peer_byte_rate, lim.peer_byte_burst, now),
                )
                self._budgets[peer] = shared
            return shared

    def ban(self, peer: str) -> None:
        if peer in self.trusted:
            return
        with self._lock:
            self._banned[peer] = self.clock() + self.limits.ban


class Watchdog:
    """One thread that looks at every connection a few times a second, on monotonic time.

    * a connection still sending its request headers past its deadline is shut down (slowloris);
    * a WebSocket that has not said hello within ``greet_within`` seconds is shut down;
    * every WebSocket is pinged each ping interval, with a payload of its own (through its Connection, never
      blocking here);
    * a WebSocket that has echoed none of the pings of the last ``silent_after`` seconds (it stopped reading, or
      vanished), or whose send has been stuck that long, is shut down: its handler ends and the table marks the
      seat disconnected.
    """

    def __init__(
        self,
        limits: Limits,
        clock: Clock = time.monotonic,
        period: float = 0.25,
        first: Callable[[str, str], bool] | None = None,
    ) -> None:
        self.limits, self.clock, self.period = limits, clock, period
        # Whether to log this of this address (the door's once-per-address memory; every time without one).
        self._first = first or (lambda peer, what: True)
        self._lock = threading.Lock()
        self._headers: dict[int, tuple[float, socket.socket]] = {}
        self._sockets: set[GuardedSocket] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="quatro-watchdog", daemon=True)

    def start(self) -> Watchdog:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def expect_headers(self, sock: socket.socket) -> None:
        with self._lock:
            self._headers[id(sock)] = (self.clock() + self.limits.header_timeout, sock)

    def headers_done(self, sock: socket.socket) -> None:
        with self._lock:
            self._headers.pop(id(sock), None)

    def watch(self, guard: GuardedSocket) -> None:
        with self._lock:
            self._sockets.add(guard)

    def forget(self, guard: GuardedSocket) -> None:
        with self._lock:
            self._sockets.discard(guard)

    def check(self) -> None:
        """One look at everything (the thread calls it every ``period``; tests may call it themselves)."""
        now = self.clock()
        with self._lock:
            late = [s for deadline, s in self._headers.values() if now >= deadline]
            for s in late:
                self._headers.pop(id(s), None)
            guards = list(self._sockets)
        for s in late:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        limits = self.limits
        drops = max(1, round(limits.drops_per_second * self.period))
        for g in guards:
            if g.closed or g.flooded:
                self.forget(g)
                continue
            conn = g.conn
            if not g.upgraded or conn is None:
                continue
            stuck = g.send_since is not None and now - g.send_since >= limits.silent_after
            why = None
            if not getattr(conn, "greeted", True) and now - g.opened >= limits.greet_within:
                why = "never said hello"
            elif stuck:
                why = "stuck in a send"
            elif now - g.read_at >= limits.silent_after:
                why = "echoed no ping (reads nothing)"
            if why is not None and drops <= 0:
                continue  # the next look: a thousand sockets ended at once would stall the host for seconds
            if why is not None:
                drops -= 1
                if self._first(g.peer, why):
                    log.info("%s: %s, dropped", g.peer, why)
                self.forget(g)
                g.shutdown_quietly()
            elif now - g.last_ping >= limits.ping_interval:
                try:
                    conn.ping(g.ping_payload(now))
                except Exception:  # pragma: no cover - a dying socket
                    pass

    def _run(self) -> None:
        while not self._stop.wait(self.period):
            try:
                self.check()
            except Exception:  # pragma: no cover - the watchdog must outlive any one socket
                log.exception("watchdog")
