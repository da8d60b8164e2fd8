"""Running the app on a real socket: Werkzeug's threaded server in a background thread.

Used by the launcher (``0.0.0.0``, fixed port) and by the tests (``127.0.0.1``,
port 0). Werkzeug's ``shutdown()`` does not close open WebSockets (FIELD-NOTES),
so :meth:`ServerThread.stop` first closes every socket through the table (1001).
The listening socket is made by :func:`listen`, not by Werkzeug: Werkzeug reports a port in use by
printing its own message and calling ``sys.exit(1)``, which the launcher could not turn into its own.
"""

from __future__ import annotations

import logging
import socket
import threading

from flask import Flask
from werkzeug.serving import LISTEN_QUEUE, make_server

from .app import table_of

log = logging.getLogger("quatro.server")


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` and listening; raises ``OSError`` (``EADDRINUSE``: the port is taken).

    The launcher calls it before anything else, so that a host that cannot have its port touches nothing.
    """
    # IPv6 exactly when Werkzeug would pick it (it reads the socket back with that family).
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # create_server sets SO_REUSEADDR on POSIX only (a restart right after Ctrl-C gets its port back), never on
    # Windows, where it would let a second host share a port the first one is listening on.
    return socket.create_server((host, port), family=family, backlog=LISTEN_QUEUE)


class ServerThread:
    """``make_server(host, port, app, threaded=True)`` served from a daemon thread.

    ``sock``, from :func:`listen`, is served instead of a new socket on ``host``:``port`` (and is closed:
    the server keeps its own copy). Either way a port that cannot be had raises ``OSError``.
    """

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0, sock: socket.socket | None = None) -> None:
        self.app = app
        if sock is None:
            sock = listen(host, port)
        with sock:
            host, port = sock.getsockname()[:2]
            # fd=: Werkzeug serves a duplicate of this socket and never binds one itself.
            self.server = make_server(host, port, app, threaded=True, fd=sock.fileno())
        self.server.daemon_threads = True  # type: ignore[attr-defined]  # (threaded=True: a ThreadingMixIn) a stuck socket handler never keeps the process alive
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
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout)
