"""The benchmark's WebSocket clients (``bench/latency.py``; ``bench/flood.py`` and ``bench/soak.py`` use them too).

* :class:`Client` — wsproto over a plain socket, offering permessage-deflate as Chromium does; every client's
  socket is read by one :class:`Reader` thread, which timestamps each complete frame.
* :class:`Listener` — a simple-websocket client whose own thread timestamps raw frames.
"""

from __future__ import annotations

import selectors
import socket
import threading
import time
from typing import Any
from urllib.parse import urlsplit

from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    CloseConnection,
    Ping,
    RejectConnection,
    Request,
    TextMessage,
)
from wsproto.extensions import PerMessageDeflate


class ChromiumDeflate(PerMessageDeflate):
    """permessage-deflate offered exactly as Chromium offers it."""

    def offer(self) -> str:
        return "client_max_window_bits"


class Client:
    """One WebSocket client: a blocking handshake, then its socket is read by the :class:`Reader`."""

    def __init__(self, url: str, deflate: bool) -> None:
        parts = urlsplit(url)
        self.sock = socket.create_connection((parts.hostname, parts.port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as Chromium does
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.lock = threading.Lock()
        self.frames: list[tuple[float, str]] = []
        self.times: list[float] = []
        self.latest = ""
        self.deflated = False
        exts = [ChromiumDeflate()] if deflate else []
        self.sock.sendall(
            self.ws.send(Request(host=f"{parts.hostname}:{parts.port}", target=parts.path, extensions=exts))
        )
        self._parts: list[str] = []
        while True:
            self.ws.receive_data(self.sock.recv(65536))
            done = False
            for event in self.ws.events():
                if isinstance(event, AcceptConnection):
                    self.deflated = any(isinstance(e, PerMessageDeflate) for e in event.extensions)
                    done = True
                elif isinstance(event, RejectConnection):
                    raise RuntimeError(f"handshake refused: {event.status_code}")
                else:
                    self._event(event, time.perf_counter())
            if done:
                break
        self.sock.setblocking(False)

    def _event(self, event: Any, now: float) -> None:
        if isinstance(event, TextMessage):
            self._parts.append(event.data)
            if event.message_finished:
                text = "".join(self._parts)
                self._parts = []
                self.frames.append((now, text))
                self.times.append(now)
                self.latest = text
        elif isinstance(event, Ping):
            self._send_bytes(self.ws.send(event.response()))

    def feed(self, data: bytes, now: float) -> None:
        self.ws.receive_data(data or None)
        for event in self.ws.events():
            self._event(event, now)

    def _send_bytes(self, data: bytes) -> None:
        with self.lock:
            self.sock.setblocking(True)
            try:
                self.sock.sendall(data)
            finally:
                self.sock.setblocking(False)

    def send(self, text: str) -> float:
        """Send a text message; the time it went."""
        with self.lock:
            data = self.ws.send(TextMessage(data=text))
            self.sock.setblocking(True)
            t = time.perf_counter()
            try:
                self.sock.sendall(data)
            finally:
                self.sock.setblocking(False)
        return t

    def close(self) -> None:
        try:
            with self.lock:
                self.sock.setblocking(True)
                self.sock.sendall(self.ws.send(CloseConnection(code=1000)))
        except Exception:
            pass
        self.sock.close()


class Listener:
    """A simple-websocket client whose own thread timestamps raw frames (no compression offered); the other
    benchmarks (``bench/flood.py``) drive the host with it."""

    def __init__(self, url: str) -> None:
        from simple_websocket import Client as SimpleClient

        self.ws = SimpleClient.connect(url)
        self.frames: list[tuple[float, str]] = []
        self.latest = ""
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        from simple_websocket import ConnectionClosed

        try:
            while True:
                text = self.ws.receive()
                if text is None:
                    continue
                self.frames.append((time.perf_counter(), text))
                self.latest = text
        except (ConnectionClosed, OSError):
            pass

    def send(self, text: str) -> float:
        t = time.perf_counter()
        self.ws.send(text)
        return t

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:
            pass


class Reader:
    """One thread reading every client's socket (both servers'), timestamping each complete frame."""

    def __init__(self) -> None:
        self.sel = selectors.DefaultSelector()
        self.new: list[Client] = []
        self.lock = threading.Lock()
        self.running = True
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def add(self, client: Client) -> Client:
        with self.lock:
            self.new.append(client)
        return client

    def _loop(self) -> None:
        while self.running:
            with self.lock:
                new, self.new = self.new, []
            for c in new:
                self.sel.register(c.sock, selectors.EVENT_READ, c)
            for key, _ in self.sel.select(timeout=0.05):
                c = key.data
                try:
                    data = c.sock.recv(262144)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                now = time.perf_counter()
                if not data:
                    self.sel.unregister(c.sock)
                    continue
                c.feed(data, now)

    def stop(self) -> None:
        self.running = False
        self.thread.join(2)
