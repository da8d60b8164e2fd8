"""Running the app on a real socket: Werkzeug's threaded server in a background thread.

Used by the launcher (``0.0.0.0``, fixed port) and by the tests (``127.0.0.1``,
port 0). Werkzeug's ``shutdown()`` does not close open WebSockets (checked),
so :meth:`ServerThread.stop` first closes every socket through the table (1001).
The listening socket is made by :func:`listen`, not by Werkzeug: Werkzeug reports a port in use by
printing its own message and calling ``sys.exit(1)``, which the launcher could not turn into its own.

Werkzeug's dev server has no header timeout, no connection cap and no idea of a WebSocket's cost, so
:class:`GuardedServer` and :class:`GuardedHandler` add them (see :mod:`.guard` and :mod:`.door`):

* connections are counted per peer address at ``accept``, before a thread is made for them; a peer over
  its cap, or banned for flooding, is closed at once; when the guests hold every place, the connection that
  proved least makes room (:class:`~.door.Peers`), and the host machine's own are never counted;
* a refusal is logged once per address, at INFO (a flood of refusals must not flood the terminal);
* the request line and headers must arrive within :attr:`~.guard.Limits.header_timeout` seconds;
* a WebSocket's socket is a :class:`~.guard.GuardedSocket` (bytes and frames charged before wsproto parses
  them), and its handshake loses ``Sec-WebSocket-Extensions``: permessage-deflate is refused, so no frame
  is ever inflated (an inflating bomb of 65 KB held ~8.5 MiB of host memory each; the host's frames are
  ~1.5 KB and the Wi-Fi does not miss their compression);
* after a WebSocket, nothing more is read from the stream nor answered as HTTP.
"""

from __future__ import annotations

import dataclasses
import io
import logging
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask
from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

from .app import table_of
from .door import Peers, Ticket, Watchdog
from .guard import TRUSTED_PEERS, Clock, GuardedSocket, Limits
from .origin import SECURITY_HEADERS

log = logging.getLogger("quatro.server")

#: Pending connections the kernel keeps for us: a burst of a thousand (a slowloris opening all at once) must
#: not push an honest phone's connection out of the queue (its SYN would wait a second for a retry).
LISTEN_BACKLOG = 4096


class _Discard(io.RawIOBase):
    """Where Werkzeug writes after a WebSocket ended: its HTTP response to an upgraded stream is dropped."""

    def __init__(self, real: Any, guard: GuardedSocket) -> None:
        self._real, self._guard = real, guard

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if self._guard.upgraded:
            return len(data)
        return self._real.write(data)

    def flush(self) -> None:
        if not self._guard.upgraded:
            self._real.flush()


class _HeaderReader:
    """Werkzeug's request stream, noting when a line read comes back empty: the peer hung up mid-request.

    ``http.client.parse_headers`` takes the end of the stream for the end of the headers, so a slowloris that
    hangs up would otherwise be served as a complete request (a thousand hanging up at once: a thousand pages).
    """

    def __init__(self, raw: Any) -> None:
        self._raw = raw
        self.eof = False

    def readline(self, *args: Any) -> bytes:
        line: bytes = self._raw.readline(*args)
        if not line:
            self.eof = True
        return line

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


class GuardedHandler(WSGIRequestHandler):
    """Werkzeug's handler with a deadline on the headers, a timeout on plain requests and guarded WebSockets."""

    server: GuardedServer
    _guard: GuardedSocket | None = None

    def setup(self) -> None:
        super().setup()
        limits = self.server.limits
        self.server.watchdog.expect_headers(self.connection)
        self.connection.settimeout(limits.header_timeout)
        self.rfile = _HeaderReader(self.rfile)  # type: ignore[assignment]

    def parse_request(self) -> bool:
        ok = super().parse_request()
        self.server.watchdog.headers_done(self.connection)
        if ok and getattr(self.rfile, "eof", False):  # the headers ended with the stream, not a blank line
            self.close_connection = True
            return False
        return ok

    def _peer(self) -> str:
        return str(self.client_address[0]) if self.client_address else "?"

    def run_wsgi(self) -> None:
        upgrade = self.headers.get("Upgrade", "").lower() == "websocket"
        if not upgrade:
            self.connection.settimeout(self.server.limits.request_timeout)
            super().run_wsgi()
            return
        peer = self._peer()
        peers = self.server.peers
        if not peers.open_socket(peer):
            if peers.first(peer, "429"):
                log.info("%s: too many sockets from this address, refused (429)", peer)
            self.close_connection = True
            self._refuse(429, "Too Many Requests", "too many connections from this address")
            return
        self.connection.settimeout(None)
        guard = GuardedSocket(
            self.connection,
            peer,
            self.server.limits,
            self.server.clock,
            on_flood=self._flooded,
            shared=peers.budgets(peer),
        )
        self._guard = guard
        ticket = self.server.ticket_of(self.request)
        if ticket is not None:
            ticket.guard = guard
        self.server.watchdog.watch(guard)
        self.wfile = _Discard(self.wfile, guard)  # type: ignore[assignment]
        self.rfile = io.BytesIO()  # nothing of a WebSocket's stream is ever read as HTTP (Werkzeug drains it)
        try:
            super().run_wsgi()
        finally:
            self.close_connection = True
            guard.close()
            self.server.watchdog.forget(guard)
            peers.close_socket(peer)

    def _refuse(self, code: int, reason: str, text: str) -> None:
        """A short plain-text answer with the security headers every answer carries (``send_error`` would log each
        one at ERROR and send none of them)."""
        body = f"{text}\n".encode()
        self.send_response_only(code, reason)
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:
            pass

    def _flooded(self, guard: GuardedSocket) -> None:
        self.server.peers.ban(guard.peer)

    def make_environ(self) -> dict[str, Any]:
        environ = super().make_environ()
        if self._guard is not None:
            environ["werkzeug.socket"] = self._guard
            # No permessage-deflate: wsproto would inflate a frame without bound before any size check.
            environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)
        return environ


class GuardedServer(ThreadedWSGIServer):
    """Werkzeug's threaded server, counting connections per peer before it gives them a thread."""

    daemon_threads = True

    def __init__(
        self, *args: Any, limits: Limits, clock: Clock, trusted: frozenset[str] = TRUSTED_PEERS, **kwargs: Any
    ) -> None:
        self.limits, self.clock = limits, clock
        self.peers = Peers(limits, clock, trusted)
        self.watchdog = Watchdog(limits, clock, first=self.peers.first)
        self._tickets: dict[int, Ticket] = {}  # id(request socket) → its ticket at the door
        self._tickets_lock = threading.Lock()
        super().__init__(*args, **kwargs)

    def verify_request(self, request: Any, client_address: Any) -> bool:
        peer = str(client_address[0]) if client_address else "?"
        ticket = self.peers.admit(peer, request)
        if isinstance(ticket, str):
            if self.peers.first(peer, ticket):
                log.info("%s: %s, connection refused", peer, ticket)
            return False
        with self._tickets_lock:
            self._tickets[id(request)] = ticket
        return True

    def ticket_of(self, request: Any) -> Ticket | None:
        """The door's ticket of a connection being served."""
        with self._tickets_lock:
            return self._tickets.get(id(request))

    def _release(self, request: Any) -> None:
        with self._tickets_lock:
            ticket = self._tickets.pop(id(request), None)
        if ticket is not None:
            self.peers.release(ticket)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._release(request)

    def process_request(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request(request, client_address)
        except RuntimeError:  # no thread could be started: the connection is not served
            self._release(request)
            self.shutdown_request(request)


#: Descriptors kept for the host's own files, its big screen and its pages beyond the guests' connections.
DESCRIPTORS_KEPT = 128


def descriptor_room(wanted: int = 8192) -> int | None:
    """How many files and sockets this process may hold open, its soft limit raised towards ``wanted`` first (a
    stock Linux desktop starts at 1024: the guests' connections alone would take them all, and an ``accept`` that
    fails leaves even the host machine's own big screen outside). ``None`` where the system has no such limit to
    read (Windows)."""
    try:
        import resource  # POSIX only
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return None
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):  # macOS refuses above its own ceiling: keep what we have
            pass
    return soft


def fitted_to_descriptors(limits: Limits, room: int | None) -> Limits:
    """``limits`` with no more guests' connections than the descriptors leave (:data:`DESCRIPTORS_KEPT` kept)."""
    if room is None or limits.connections <= room - DESCRIPTORS_KEPT:
        return limits
    return dataclasses.replace(limits, connections=max(16, room - DESCRIPTORS_KEPT))


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` and listening; raises ``OSError`` (``EADDRINUSE``: the port is taken).

    The launcher calls it before anything else, so that a host that cannot have its port touches nothing.
    """
    # IPv6 exactly when Werkzeug would pick it (it reads the socket back with that family).
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # create_server sets SO_REUSEADDR on POSIX only (a restart right after Ctrl-C gets its port back), never on
    # Windows, where it would let a second host share a port the first one is listening on.
    return socket.create_server((host, port), family=family, backlog=LISTEN_BACKLOG)


class ServerThread:
    """``make_server(host, port, app, threaded=True)`` served from a daemon thread.

    ``sock``, from :func:`listen`, is served instead of a new socket on ``host``:``port`` (and is closed:
    the server keeps its own copy). Either way a port that cannot be had raises ``OSError``.
    """

    def __init__(
        self,
        app: Flask,
        host: str = "127.0.0.1",
        port: int = 0,
        sock: socket.socket | None = None,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.monotonic,
        trusted: frozenset[str] = TRUSTED_PEERS,
    ) -> None:
        self.app = app
        # Pings are ours (door.Watchdog, monotonic, never blocked by a full send buffer), not simple-websocket's.
        options = app.config.setdefault("SOCK_SERVER_OPTIONS", {})
        interval = app.config.setdefault("QUATRO_PING_INTERVAL", options.get("ping_interval"))
        options["ping_interval"] = None
        table_config = app.config.get("QUATRO", {})  # the table's own message limit, to stay well above
        self.limits = fitted_to_descriptors(
            (limits or Limits()).fitted(interval, table_config.get("rate"), table_config.get("burst")),
            descriptor_room(),
        )
        if sock is None:
            sock = listen(host, port)
        with sock:
            host, port = sock.getsockname()[:2]
            # fd=: Werkzeug serves a duplicate of this socket and never binds one itself.
            self.server = GuardedServer(
                host, port, app, GuardedHandler, fd=sock.fileno(), limits=self.limits, clock=clock, trusted=trusted
            )
        self.server.socket.listen(LISTEN_BACKLOG)  # the duplicate keeps the backlog; say it again to be sure
        self.server.watchdog.start()
        self.host = host
        self.port: int = self.server.port  # the bound one (port 0: the one the system chose)
        self._thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.2}, name="quatro-http", daemon=True
        )

    def start(self) -> ServerThread:
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        """Close every WebSocket (1001), stop the table thread, then the HTTP server."""
        try:
            table_of(self.app).stop(timeout=timeout / 2)
        except Exception:  # pragma: no cover
            log.exception("stopping the table")
        self.server.watchdog.stop()
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout)
