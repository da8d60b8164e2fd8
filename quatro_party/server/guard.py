"""What a guest's socket may cost the host, enforced before any parsing.

Everything here sits under simple-websocket and Werkzeug, on the raw TCP socket:

* :class:`GuardedSocket` wraps a WebSocket's socket. Every ``recv`` is charged to two budgets, bytes and
  WebSocket frames (counted from the frame headers alone by :class:`FrameCounter`, nothing is decoded),
  before wsproto sees a byte. A socket over budget is made to wait (its sender is held back by TCP itself),
  and one that stays over it for :attr:`Limits.grace` seconds is closed with 1008.
* :class:`Watchdog`, one thread per server, on monotonic time: it bounds the time a connection may take to
  send its request headers (slowloris), pings quiet WebSockets and drops one that answers nothing, or whose
  writer has been stuck in a send, within :attr:`Limits.silent_after` seconds. simple-websocket's own ping
  runs on wall-clock time and blocks in a full send buffer, so the server turns it off (see ``serving``).
* :class:`Peers` counts connections and WebSockets per peer address and bans a flooder's address for a
  while. The host machine itself (loopback) is not capped: whoever runs code there owns the host anyway.
"""

from __future__ import annotations

import logging
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
    #: A WebSocket quiet this long is pinged ...
    ping_interval: float = 5.0
    #: ... and dropped when nothing came back, or a send has been stuck, this long (about two intervals).
    silent_after: float = 10.0
    #: Open TCP connections per peer address, and WebSockets per peer address.
    connections_per_peer: int = 32
    sockets_per_peer: int = 12
    #: Open TCP connections in all (each holds a thread).
    connections: int = 1024
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


class FrameCounter:
    """Counts the frames a WebSocket client sends, from their headers, skipping the payloads unread.

    A client frame is 2 bytes, 2 or 8 more of length when the 7-bit length says 126 or 127, 4 of mask,
    then the payload. Only those few header bytes are looked at.
    """

    def __init__(self) -> None:
        self._header = bytearray()
        self._skip = 0  # payload bytes of the current frame still to come

    def feed(self, data: bytes) -> int:
        """How many frames start in ``data``."""
        frames = 0
        i, n = 0, len(data)
        while i < n:
            if self._skip:
                step = min(self._skip, n - i)
                self._skip -= step
                i += step
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
            self._skip = size
            self._header.clear()
        return frames


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
        self.last_rx = now  # the last time anything arrived (a pong counts)
        self.last_ping = now
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
        self.last_rx = now
        if not data:
            return data
        frames = self._counter.feed(data)
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


class Peers:
    """Open connections and WebSockets per peer address, and the addresses banned for a while."""

    def __init__(self, limits: Limits, clock: Clock = time.monotonic, trusted: frozenset[str] = TRUSTED_PEERS):
        self.limits, self.clock, self.trusted = limits, clock, trusted
        self._lock = threading.Lock()
        self.connections: dict[str, int] = {}
        self.sockets: dict[str, int] = {}
        self.total = 0
        self._banned: dict[str, float] = {}
        self._budgets: dict[str, tuple[Budget, Budget]] = {}

    def admit(self, peer: str) -> str | None:
        """Count a new connection from ``peer``; ``None`` when admitted, else why not (not counted then)."""
        with self._lock:
            if self.total >= self.limits.connections:
                return "too many connections"
            if peer not in self.trusted:
                until = self._banned.get(peer)
                if until is not None:
                    if self.clock() < until:
                        return "banned for flooding"
                    del self._banned[peer]
                if self.connections.get(peer, 0) >= self.limits.connections_per_peer:
                    return "too many connections from this address"
            self.connections[peer] = self.connections.get(peer, 0) + 1
            self.total += 1
            return None

    def release(self, peer: str) -> None:
        with self._lock:
            left = self.connections.get(peer, 0) - 1
            if left > 0:
                self.connections[peer] = left
            else:
                self.connections.pop(peer, None)
            self.total = max(0, self.total - 1)

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
    * a WebSocket quiet for a ping interval is pinged (through its Connection, never blocking here);
    * a WebSocket from which nothing came for ``silent_after`` seconds, or whose send has been stuck that
      long, is shut down: its handler ends and the table marks the seat disconnected.
    """

    def __init__(self, limits: Limits, clock: Clock = time.monotonic, period: float = 0.25) -> None:
        self.limits, self.clock, self.period = limits, clock, period
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
        for g in guards:
            if g.closed or g.flooded:
                self.forget(g)
                continue
            if not g.upgraded or g.conn is None:
                continue
            stuck = g.send_since is not None and now - g.send_since >= limits.silent_after
            if now - g.last_rx >= limits.silent_after or stuck:
                log.info("%s: %s, dropped", g.peer, "stuck in a send" if stuck else "no answer to pings")
                self.forget(g)
                g.shutdown_quietly()
            elif now - g.last_rx >= limits.ping_interval and now - g.last_ping >= limits.ping_interval:
                g.last_ping = now
                try:
                    g.conn.ping()
                except Exception:  # pragma: no cover - a dying socket
                    pass

    def _run(self) -> None:
        while not self._stop.wait(self.period):
            try:
                self.check()
            except Exception:  # pragma: no cover - the watchdog must outlive any one socket
                log.exception("watchdog")
