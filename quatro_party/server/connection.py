"""One WebSocket client (a phone or a big screen) as the table sees it.

Every socket has an outgoing queue and its own writer thread (started the first time it
is needed), and one lock that orders everything written to it (measured: concurrent ``ws.send`` corrupts
frames; a stuck phone must not stall the whole table).

Fast path: when nothing is queued for the socket and the kernel can take the whole
frame *at once* (a non-blocking send), the caller sends it right there — waking a
writer thread per socket for every update cost more than the send itself (about
1–5 ms for 9 sockets on 2 cores). Anything that would block — a slow phone, a full
buffer — goes to the queue and the writer thread, so the table never waits. A
phone that stops reading long enough to fill its queue is dropped; it reconnects
and gets a full fresh view, which is all a late phone needs anyway.
"""

from __future__ import annotations

import itertools
import logging
import queue
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("quatro.server")

#: Messages waiting for one socket before we give up on it (each is a full view, so older ones are stale anyway).
OUTGOING_LIMIT = 512

_ids = itertools.count(1)
_CLOSE = object()
_RAW = object()  # the rest of a frame the fast path could only half send
_PING = object()  # a ping, framed by the writer when its turn comes
#: Non-blocking sends per call (Linux, macOS). Where it is missing (Windows) every frame goes by the writer.
_DONTWAIT = getattr(socket, "MSG_DONTWAIT", 0)


class TokenBucket:
    """Flood guard: ``rate`` messages per second with bursts of ``burst``.

    A player tapping fast sends a few messages a second; a script sending hundreds
    is cut off with a ``flood`` error instead of reaching the table thread.
    """

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.last = clock()

    def take(self) -> bool:
        """True if one more message may go through now."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Connection:
    """A socket's identity and its outgoing queue.

    ``kind`` is ``"phone"``, ``"screen"`` or ``"bot"``. Table-owned fields
    (``seat``, ``token``, ``is_host``, ``greeted``) are only touched by the
    table thread.
    """

    def __init__(self, kind: str, ws: Any = None, peer: str = "?", outgoing_limit: int = OUTGOING_LIMIT) -> None:
        self.id = next(_ids)
        self.kind = kind
        self.ws = ws
        self.peer = peer
        self.seat: int | None = None
        self.token: str | None = None
        self.is_host = False
        self.greeted = False
        self.open = True
        self.sent_frames: list[str] | None = None  # tests may record raw frames here
        self._out: queue.Queue[Any] = queue.Queue(outgoing_limit)
        self._lock = threading.Lock()  # orders every write to this socket
        self._pending = 0  # items queued for the writer and not yet sent (under _lock)
        # Started with the first frame the fast path cannot send (most sockets never need it: a thousand idle
        # guests would otherwise hold a thousand idle threads).
        self._writer: threading.Thread | None = None
        if ws is not None:
            self._tune_socket()

    def __repr__(self) -> str:
        return f"<{self.kind} #{self.id} {self.peer} seat={self.seat}>"

    def _tune_socket(self) -> None:
        sock = getattr(self.ws, "sock", None)
        if sock is None:
            return
        attach = getattr(sock, "attach", None)
        if attach is not None:  # a GuardedSocket: its watchdog pings and its flood guard closes through us
            attach(self)
        try:
            # Nagle + delayed ACK put p99 at ~44 ms on loopback here; with NODELAY ~2 ms (measured).
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError as exc:  # pragma: no cover - exotic sockets
            log.warning("%r: cannot set TCP_NODELAY: %s", self, exc)

    def send_text(self, text: str) -> None:
        """Send one frame now if the socket can take it without waiting, else queue it; never blocks."""
        if not self.open:
            return
        with self._lock:
            if self._pending == 0 and self._try_now(text):
                return
            self._enqueue(text)

    def ping(self, payload: bytes = b"") -> None:
        """Send a WebSocket ping, in order with the frames (the watchdog calls it); never blocks.

        The phone's browser echoes its payload by itself, once it has read every frame sent before it: the echo
        tells the watchdog that the phone is there and reading.
        """
        if not self.open or self.ws is None:
            return
        with self._lock:
            if self._pending == 0 and self._try_now(None, payload):
                return
            self._enqueue((_PING, payload))

    def _try_now(self, text: str | None, payload: bytes = b"") -> bool:
        """Fast path (under ``_lock``, nothing queued): a non-blocking send of the whole frame (``None``: a ping
        carrying ``payload``).

        True when the frame is dealt with (sent, or the socket is dead); a partial send queues
        the rest as raw bytes for the writer, in order.
        """
        ws = self.ws
        sock = getattr(ws, "sock", None)
        wsproto = getattr(ws, "ws", None)
        if not _DONTWAIT or sock is None or wsproto is None or not getattr(ws, "connected", False):
            return False
        from wsproto.events import Ping, TextMessage

        try:
            data = wsproto.send(Ping(payload=payload) if text is None else TextMessage(data=text))
        except Exception:
            return False
        try:
            sent = sock.send(data, _DONTWAIT)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            self.open = False  # dead socket: its reader notices and the table marks the seat disconnected
            return True
        if sent < len(data):
            self._enqueue(bytes(data[sent:]), raw=True)
        elif self.sent_frames is not None and text is not None:
            self.sent_frames.append(text)
        return True

    def _enqueue(self, item: Any, raw: bool = False) -> None:
        """Hand an item to the writer (under ``_lock``). A full queue means the phone is stuck: cut it."""
        try:
            self._out.put_nowait((_RAW, item) if raw else item)
            self._pending += 1
            if self._writer is None and self.ws is not None:
                self._writer = threading.Thread(target=self._write_loop, name=f"ws-writer-{self.id}", daemon=True)
                self._writer.start()
        except queue.Full:
            log.warning("%r: outgoing queue full, dropping the connection", self)
            self._force_close()

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close after the frames already queued have gone (from the writer thread)."""
        if self.ws is None:
            self.open = False
            return
        with self._lock:
            self._enqueue((_CLOSE, code, reason))

    def finish(self, timeout: float = 1.0) -> None:
        """End of the socket's handler: let the writer send what is queued, close, and stop.

        flask-sock closes the socket itself after the handler returns; waiting for our writer
        first keeps that close from racing one of our sends on the same socket. A socket whose
        writer never started has nothing queued: it only stops sending (no thread is started to close).
        """
        with self._lock:
            if self._writer is None:
                self.open = False
                return
        self.close()
        if self._writer is not None and self._writer is not threading.current_thread():
            self._writer.join(timeout)
        self.open = False

    def _force_close(self) -> None:
        """Cut a stuck socket: its writer may be blocked in ``send`` for good.

        ``shutdown`` (not a send, so safe from this thread) makes that ``send`` fail
        at once and the reader see the end, so both threads finish and the seat is
        marked disconnected; the phone reconnects and gets a fresh view.
        """
        self.open = False
        sock = getattr(self.ws, "sock", None)
        try:
            if sock is not None:
                sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _write_loop(self) -> None:
        """The slow path: frames that could not go at once, in order, with blocking sends."""
        ws = self.ws
        while True:
            item = self._out.get()
            if isinstance(item, tuple) and item and item[0] is _CLOSE:
                self.open = False
                try:
                    ws.close(reason=item[1], message=item[2] or None)
                except Exception:  # already closed: fine
                    pass
                return
            try:
                if isinstance(item, tuple) and item and item[0] is _RAW:
                    ws.sock.sendall(item[1])  # the rest of a frame the fast path started
                elif isinstance(item, tuple) and item and item[0] is _PING:
                    from wsproto.events import Ping

                    ws.sock.sendall(ws.ws.send(Ping(payload=item[1])))
                else:
                    ws.send(item)
                    if self.sent_frames is not None:
                        self.sent_frames.append(item)
            except Exception as exc:  # ConnectionClosed, or plain OSError on a dead socket (both seen)
                log.info("%r: send failed (%s), closing", self, type(exc).__name__)
                self.open = False
                try:
                    ws.close(reason=1011)
                except Exception:
                    pass
                return
            with self._lock:
                # Only now may the fast path send again: nothing of ours is in flight any more.
                self._pending -= 1
