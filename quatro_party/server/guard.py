"""What one guest's socket may cost the host, enforced before any parsing.

Everything here sits under simple-websocket and Werkzeug, on the raw TCP socket:

* :class:`GuardedSocket` wraps a WebSocket's socket. Every ``recv`` is charged by its :class:`Meter` to two
  budgets, bytes and WebSocket frames (counted from the frame headers alone by :class:`FrameCounter`, nothing is
  decoded), its own and its address's, before wsproto sees a byte. A socket over budget is made to wait (its
  sender is held back by TCP itself), and one that stays over it for :attr:`Limits.grace` seconds is closed
  with 1008.
* Its :class:`Echoes` keep the random payloads of the pings the watchdog sends (:mod:`.door`) until the
  phone echoes them: the ping goes out in order with the frames, so its echo proves the phone has *read*
  everything sent before it (a socket that only sends pongs of its own, or talks without reading, proves
  nothing).
* Its sends are timed, so that a writer stuck on a phone that stopped reading is seen.

Who gets in at all (the door, per address) and when a socket is dropped (the watchdog) are :mod:`.door`'s;
:class:`Limits` holds every bound of both.
"""

from __future__ import annotations

import logging
import os
import select
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
    #: ... unless bytes from it still wait unread in the host's own socket buffer: then the host is behind (a machine
    #: too busy to run the socket's reader), not the phone deaf, and it is given this much longer. The big screen
    #: was dropped so while a thousand idle sockets kept a loaded 2-core host from reading for ~25 s.
    unread_grace: float = 30.0
    #: A watchdog look this many seconds later than the one before means the host itself did not run (a machine
    #: stalled: swapping, starved, a laptop that froze); every socket's silence is then excused for ``silent_after``
    #: more seconds, so that the phones' echoes sent meanwhile are read before anyone is judged. On a 2-core host
    #: starved by other work every look stopped for ~35 s and every phone and the big screen were dropped as deaf
    #: when it came back. ``None``: never excused (unit tests that leap their clock between two looks).
    host_away: float | None = 5.0
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
    #: A connection that has not said hello is never pushed out for a newcomer in its first seconds: a page's plain
    #: requests (a phone loading the game) for this long...
    pending_grace: float = 2.0
    #: ... and a WebSocket for this long, since an honest page says hello the moment its socket opens (a few LAN
    #: round trips). Under the phone page's first retry (0.5 s): a guest who refills the door with fresh sockets
    #: that never greet shut a new phone out for 1.5 s (3 tries) while this was ``pending_grace`` (bench/flood.py
    #: doors, measured right after the door filled).
    hello_grace: float = 0.5
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


class Meter:
    """What one socket's reads cost: its own frame and byte budgets, its address's (shared with the address's other
    sockets; ``None`` for the host machine), and since when it has been over them."""

    def __init__(self, limits: Limits, now: float, shared: tuple[Budget, Budget] | None = None) -> None:
        self._limits = limits
        self._own = (
            Budget(limits.frame_rate, limits.frame_burst, now),
            Budget(limits.byte_rate, limits.byte_burst, now),
        )
        self._shared = shared
        self._over_since: float | None = None

    def charge(self, frames: int, size: int, now: float) -> float | None:
        """Charge a read of ``frames`` frames and ``size`` bytes: the seconds the reader must wait (0: none), or
        ``None`` for a flood (over budget for :attr:`Limits.grace` seconds, or :attr:`Limits.max_debt` in debt)."""
        wait = max(self._own[0].charge(frames, now), self._own[1].charge(size, now))
        if self._shared is not None:
            wait = max(wait, self._shared[0].charge(frames, now), self._shared[1].charge(size, now))
        if wait <= 0:
            self._over_since = None
            return 0.0
        if self._over_since is None:
            self._over_since = now
        if wait > self._limits.max_debt or now - self._over_since >= self._limits.grace:
            return None
        return wait


class Echoes:
    """The pings of one socket awaiting their echo, and what the echoes prove: :attr:`read_at`, the send time of
    the last echoed ping (everything sent before it has been read). The watchdog adds pings, the socket's reader
    thread takes their echoes: both under a lock."""

    def __init__(self, now: float) -> None:
        self.read_at = now
        self.last_ping = now
        self._pings: dict[bytes, float] = {}  # payloads of the pings awaiting their echo → when they were sent
        self._lock = threading.Lock()

    def new_ping(self, now: float) -> bytes:
        """A new ping's payload, awaited from now on (random: a socket that does not read cannot guess it)."""
        payload = os.urandom(8)
        with self._lock:
            if len(self._pings) >= PINGS_AWAITED:
                del self._pings[next(iter(self._pings))]
            self._pings[payload] = now
            self.last_ping = now
        return payload

    def echoed(self, payload: bytes) -> None:
        """A pong: if it echoes one of our pings, the phone has read everything sent before that ping."""
        with self._lock:
            sent = self._pings.pop(payload, None)
            if sent is None:
                return  # a pong of its own, or an old one: it proves nothing
            self.read_at = max(self.read_at, sent)
            for other, at in list(self._pings.items()):
                if at <= sent:
                    del self._pings[other]


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
        self.peer = peer
        self.clock = clock
        self.on_flood = on_flood
        now = clock()
        self._meter = Meter(limits, now, shared)  # shared: the peer's budgets (None: the host machine, not limited)
        self._counter = FrameCounter()
        self.echoes = Echoes(now)
        self.opened = now
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
                self.echoes.echoed(payload)
            self._counter.pongs.clear()
        wait = self._meter.charge(frames, len(data), now)
        if wait is None:
            self._flood()
            return b""
        if wait > 0:
            self._sleep(wait)  # the sender waits too: nothing more is read, TCP holds it back
        return data

    @property
    def read_at(self) -> float:
        """Everything sent before this time has been read (see :class:`Echoes`)."""
        return self.echoes.read_at

    def ping_payload(self, now: float) -> bytes:
        """A new ping's payload, awaited from now on."""
        return self.echoes.new_ping(now)

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

    def has_unread(self) -> bool:
        """Whether bytes from the peer wait in the kernel, not yet taken by this socket's reader thread."""
        try:
            if hasattr(select, "poll"):  # POSIX: select() cannot watch descriptors above 1023, and a full door has them
                poller = select.poll()
                poller.register(self._sock, select.POLLIN)
                return bool(poller.poll(0))
            readable, _, _ = select.select([self._sock], [], [], 0)  # Windows: no poll(), no such limit on handles
            return bool(readable)
        except (OSError, ValueError):  # closed meanwhile
            return False

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
