"""Running the app on a real socket: Werkzeug's threaded server in a background thread.

Used by the launcher (``0.0.0.0``, fixed port) and by the tests (``127.0.0.1``,
port 0). Werkzeug's ``shutdown()`` does not close open WebSockets (FIELD-NOTES),
so :meth:`ServerThread.stop` first closes every socket through the table (1001).
"""

from __future__ import annotations

import logging
import threading

from flask import Flask
from werkzeug.serving import make_server

from .app import table_of

log = logging.getLogger("quatro.server")


class ServerThread:
    """``make_server(host, port, app, threaded=True)`` served from a daemon thread."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0) -> None:
        self.app = app
        self.server = make_server(host, port, app, threaded=True)
        self.server.daemon_threads = True  # type: ignore[attr-defined]  # (threaded=True: a ThreadingMixIn) a stuck socket handler never keeps the process alive
        self.host = host
        self.port: int = self.server.server_port
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.2},
                                        name="quatro-http", daemon=True)

    def start(self) -> "ServerThread":
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
