#!/usr/bin/env python3
"""The bare relay ``bench/latency.py`` measures the host against: flask-sock, a registry of sockets, TCP_NODELAY,
a lock per socket — the simplest correct broadcast. Run as a child of the benchmark:

    python3 bench/latency_relay.py FRAMES.json

For each message a socket sends it, every socket gets one frame: socket ``i`` (in connection order), in turn,
the frames the host's socket ``i`` received (``FRAMES.json``, recorded by the benchmark), with the message
spliced in at :data:`TAG`. It prints ``PORT <port>`` once it listens.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
from pathlib import Path
from typing import Any

TAG = "@@TAG@@"  # where the relay splices its tag into a recorded frame


def relay_server(frames_path: str) -> None:
    """Serve the relay on a free loopback port until killed; ``frames_path`` holds the frames to send."""
    from flask import Flask
    from flask_sock import Sock
    from simple_websocket import ConnectionClosed
    from werkzeug.serving import make_server

    recorded: list[list[str]] = json.loads(Path(frames_path).read_text())
    app = Flask("relay")
    sock = Sock(app)
    clients: list[tuple[Any, threading.Lock, list[str], list[int]]] = []
    registry = threading.Lock()

    @sock.route("/ws")
    def ws(conn: Any) -> None:
        conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with registry:
            me = (conn, threading.Lock(), recorded[len(clients) % len(recorded)], [0])
            clients.append(me)
        try:
            while True:
                tag = conn.receive()
                with registry:
                    targets = list(clients)
                for c, lock, frames, turn in targets:
                    text = frames[turn[0] % len(frames)].replace(TAG, tag, 1)
                    turn[0] += 1
                    try:
                        with lock:
                            c.send(text)
                    except (ConnectionClosed, OSError):
                        pass
        except ConnectionClosed:
            pass
        finally:
            with registry:
                clients.remove(me)

    server = make_server("127.0.0.1", 0, app, threaded=True)
    print(f"PORT {server.server_port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    relay_server(sys.argv[1])
