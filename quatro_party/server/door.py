"""Who gets in, and who is shown out: the door at ``accept`` and the watchdog over every connection.

* :class:`Peers` is the door: it counts connections and WebSockets per guest address, bans a flooder's address
  for a while, and keeps room. The host machine itself (loopback) is never counted nor refused: whoever runs
  code there owns the host anyway, and its big screen must always get in. When the guests' connections reach
  :attr:`~.guard.Limits.connections`, a newcomer takes the place of one that proved least, of an address holding
  at least two connections more than the newcomer's: first a connection that has not said hello (not the newest:
  :attr:`~.guard.Limits.pending_grace` for a plain request, :attr:`~.guard.Limits.hello_grace` for a WebSocket),
  then a visitor or spectator, of the address holding the most, oldest first. A seated phone (or a screen with the
  host's rights) is never pushed out; a seated phone coming back is a newcomer like any other, from an address
  holding little: it gets in. A flooder's own reconnections find nobody to push out (its addresses are the
  busiest) and are refused at ``accept``, which costs no thread.
* :class:`Watchdog`, one thread per server, on monotonic time: it bounds the time a connection may take to
  send its request headers (slowloris), closes a WebSocket that has not said hello within
  :attr:`~.guard.Limits.greet_within` seconds, and pings every WebSocket with a random payload. A socket is alive
  while it echoes those payloads (:class:`~.guard.Echoes`). One whose last echoed ping is
  :attr:`~.guard.Limits.silent_after` seconds old, or whose writer has been stuck in a send that long, is
  dropped: whatever piles up for a phone that stopped reading is bounded by what the table sends in those
  seconds. simple-websocket's own ping runs on wall-clock time and blocks in a full send buffer, so the server
  turns it off (see ``serving``).

Both read a connection's standing from the table's :class:`~.connection.Connection` (``seat``, ``is_host``,
``greeted``), never write it.
"""

from __future__ import annotations

import logging
import math
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from .guard import TRUSTED_PEERS, Budget, Clock, GuardedSocket, Limits

log = logging.getLogger("quatro.server")


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
            if standing == SEATED or (standing == PENDING and now - t.since < self._grace(t)):
                continue
            rank = (standing, -held, t.since)
            if best_key is None or rank < best_key:
                best, best_key = t, rank
        return best

    def _grace(self, ticket: Ticket) -> float:
        """How long a connection that has not said hello is kept from being pushed out: a WebSocket (its page says
        hello at once) less than a plain request."""
        return self.limits.pending_grace if ticket.guard is None else self.limits.hello_grace

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
      seat disconnected;
    * a look much later than the last one (:attr:`~.guard.Limits.host_away`) is the host's own absence, not the
      phones': for ``silent_after`` seconds after it, nothing is judged silent, late or stuck.
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
        self._looked = clock()  # when the last look was
        self._excused_until = -math.inf  # until when the host's own absence excuses every socket
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
        limits = self.limits
        away, self._looked = now - self._looked, now
        if limits.host_away is not None and away >= limits.host_away:
            self._excused_until = now + limits.silent_after
            log.info("the host did not run for %.1f s: no socket is judged for %.0f s", away, limits.silent_after)
        excused = now < self._excused_until  # judged now, a socket would be judged for the host's absence
        with self._lock:
            late = [] if excused else [s for deadline, s in self._headers.values() if now >= deadline]
            for s in late:
                self._headers.pop(id(s), None)
            guards = list(self._sockets)
        for s in late:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
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
            elif now - g.echoes.read_at >= limits.silent_after:
                unheard = now - g.echoes.read_at < limits.silent_after + limits.unread_grace and g.has_unread()
                why = None if unheard else "echoed no ping (reads nothing)"
            if excused:
                why = None  # still pinged: its echoes show it is there before the excuse ends
            if why is not None and drops <= 0:
                continue  # the next look: a thousand sockets ended at once would stall the host for seconds
            if why is not None:
                drops -= 1
                if self._first(g.peer, why):
                    log.info("%s: %s, dropped", g.peer, why)
                self.forget(g)
                g.shutdown_quietly()
            elif now - g.echoes.last_ping >= limits.ping_interval:
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
