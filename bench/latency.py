#!/usr/bin/env python3
"""Swap-to-screen latency of the host, beside a bare flask-sock broadcast, in the same run.

    python3 bench/latency.py                    # 30 s each, real rule timing
    python3 bench/latency.py --seconds 10 --time-scale 0.25

What is measured (loopback, 8 phone sockets + 1 big-screen socket):

* **host**: the real server (``quatro_party.launch`` in a child process), 8 phones seated
  and playing at the maximum legal swap rate (each phone swaps as soon as its R15
  cooldown allows, staggered so the swaps spread evenly). For every *accepted* swap:
  time from the phone sending it to the **last** of the 9 sockets receiving a state
  frame with that swap's event. (Lost races, R16, produce no update and are not counted.)
* **bare**: a minimal flask-sock server (child process, ``TCP_NODELAY`` on its sockets,
  one lock per socket) that relays each phone's message to all 9 sockets as a payload
  of the host's median state-frame size. Same number of clients, same rate, same measure.

Both servers run in their own process (the clients' threads do not share their GIL) at the
same time, their messages interleaved half a step apart, so a busy machine weighs on both alike.
Figures are printed; nothing is asserted (the targets: host p99 ≤ 2× bare p99 and < 10 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simple_websocket import Client, ConnectionClosed  # noqa: E402

PHONES = 8


# --- the bare baseline server (run as a child: ``latency.py --bare-server``) ---------------------


def bare_server(payload_size: int) -> None:
    """flask-sock, a registry of sockets, TCP_NODELAY, a lock per socket: the simplest correct broadcast."""
    from flask import Flask
    from flask_sock import Sock
    from werkzeug.serving import make_server

    app = Flask("bare")
    sock = Sock(app)
    clients: list[tuple[Any, threading.Lock]] = []
    registry = threading.Lock()

    @sock.route("/ws")
    def ws(conn: Any) -> None:
        conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        me = (conn, threading.Lock())
        with registry:
            clients.append(me)
        try:
            while True:
                tag = conn.receive()
                # Same size as a real state frame; the tag lets the client match it.
                text = json.dumps({"tag": tag, "pad": "x" * max(0, payload_size - len(tag) - 20)})
                with registry:
                    targets = list(clients)
                for c, lock in targets:
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


# --- clients -------------------------------------------------------------------------------------


class Listener:
    """A socket whose reader thread only timestamps raw frames (parsing happens after the run)."""

    def __init__(self, url: str) -> None:
        self.ws = Client.connect(url)
        self.frames: list[tuple[float, str]] = []
        self.latest = ""
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
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
        except (ConnectionClosed, OSError):
            pass


def _start_child(args: list[str]) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("PORT ") or line.startswith("Port "):
            threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()  # keep draining
            return proc, "".join(lines)
    raise RuntimeError("server did not start:\n" + "".join(lines))


def _stop_child(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()


def _wait(pred, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            raise TimeoutError("benchmark setup timed out")
        time.sleep(0.01)


def _percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)
    p = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return p(0.50) * 1000, p(0.99) * 1000, ordered[-1] * 1000


def _latest_view(listener: Listener) -> dict[str, Any] | None:
    for _, text in reversed(listener.frames[-20:]):
        if text.startswith('{"type":"state"'):
            return json.loads(text)["view"]
    return None


class _Side:
    """One server under test: ``everyone`` (its 9 listeners), ``sent`` (key, send time) and its child process."""

    everyone: list[Listener]
    sent: list[tuple[str, float]]
    proc: Any

    def latencies(self) -> list[float]:
        found = []
        for i, (key, t0) in enumerate(self.sent):
            # A frame belongs to this send only until the same swap text is sent again (a refused
            # swap, R16, must not borrow the next identical swap's update).
            until = next((t for k, t in self.sent[i + 1 :] if k == key), float("inf"))
            arrivals = [
                next((t for t, text in lst.frames if t0 <= t < until and key in text), None) for lst in self.everyone
            ]
            if None not in arrivals:
                found.append(max(arrivals) - t0)
        return found

    def close(self) -> None:
        for lst in self.everyone:
            lst.close()
        _stop_child(self.proc)


class HostSide(_Side):
    """The real host (child process) with 8 seated phones in play and the host's big screen."""

    def __init__(self, scale: float) -> None:
        self.proc, out = _start_child(
            [
                "-m",
                "quatro_party.launch",
                "--port",
                "0",
                "--bind",
                "127.0.0.1",
                "--no-browser",
                "--no-mdns",
                "--quiet",
                "--seats",
                "8",
                "--seed",
                "1",
                "--time-scale",
                str(scale),
            ]
        )
        port = int(re.search(r"Port (\d+)", out).group(1))
        secret = re.search(r"#host=(\S+)", out).group(1)
        base = f"ws://127.0.0.1:{port}"
        self.screen = Listener(base + "/ws/screen")
        self.screen.send(json.dumps({"type": "hello", "host": secret}))
        self.phones = [Listener(base + "/ws/phone") for _ in range(PHONES)]
        for seat, ph in enumerate(self.phones):
            ph.send(json.dumps({"type": "hello", "token": None}))
            ph.send(json.dumps({"type": "join", "seat": seat, "name": f"P{seat}"}))
        _wait(lambda: all('"you"' in ph.latest for ph in self.phones))
        self.screen.send(json.dumps({"type": "start_game"}))
        _wait(lambda: all('"phase":"sign"' in ph.latest for ph in self.phones))
        for ph in self.phones:
            ph.send(json.dumps({"type": "ready"}))
        _wait(lambda: all('"phase":"play"' in ph.latest for ph in self.phones))
        self.everyone = [self.screen, *self.phones]
        self.sent: list[tuple[str, float]] = []  # (the swap's event text, when it was sent); a key may repeat

    def frame_size(self) -> int:
        sizes = sorted(
            len(t.encode()) for lst in self.everyone for _, t in lst.frames if t.startswith('{"type":"state"')
        )
        return sizes[len(sizes) // 2]

    def send(self, n: int) -> None:
        """Phone ``n % 8`` swaps its card ``n // 8 % 4`` with place ``seat % 4``, as a phone would: from its view."""
        seat = n % PHONES
        view = _latest_view(self.phones[seat])
        if view is None or view["phase"] != "play":
            return
        place = seat % 4
        card = view["you"]["hand"][n // PHONES % 4]["id"]
        key = f'"type":"swapped","seat":{seat},"place":{place},"put":{{"id":{card},'
        self.sent.append(
            (
                key,
                self.phones[seat].send(
                    json.dumps({"type": "swap", "card": card, "place": place, "expected": view["centre"][place]["id"]})
                ),
            )
        )


class BareSide(_Side):
    """The bare flask-sock broadcast server (child process) with 9 sockets."""

    def __init__(self, payload: int) -> None:
        self.proc, out = _start_child([str(Path(__file__).resolve()), "--bare-server", str(payload)])
        port = int(re.search(r"PORT (\d+)", out).group(1))
        self.everyone = [Listener(f"ws://127.0.0.1:{port}/ws") for _ in range(PHONES + 1)]
        self.sent: list[tuple[str, float]] = []

    def send(self, n: int) -> None:
        tag = f"m{n}-"
        self.sent.append((f'"tag": "{tag}"', self.everyone[1 + n % PHONES].send(tag)))


def run(seconds: float, scale: float) -> tuple[list[float], list[float], int, int]:
    """Both servers over the same period, their messages interleaved, so both see the same machine load.

    Returns host latencies, bare latencies (s), the payload size and the number of swaps sent.
    """
    host = HostSide(scale)
    bare = None
    try:
        payload = host.frame_size()
        bare = BareSide(payload)
        time.sleep(0.3)
        cooldown = 2.0 * scale
        step = cooldown / PHONES  # each phone every cooldown (+30 ms slack per lap against R15 refusals)
        start = time.perf_counter() + 0.2
        end = start + min(seconds, 170 * scale)  # stay inside the round (R32: void after 180 s)
        n = 0
        while True:
            at = start + n * step + 0.03 * (n // PHONES)
            if at > end:
                break
            time.sleep(max(0.0, at - time.perf_counter()))
            host.send(n)
            time.sleep(max(0.0, at + step / 2 - time.perf_counter()))  # the bare message half a step later
            bare.send(n)
            n += 1
        time.sleep(0.3)
        return host.latencies(), bare.latencies(), payload, len(host.sent)
    finally:
        host.close()
        if bare is not None:
            bare.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=30.0, help="measuring time (default 30)")
    ap.add_argument(
        "--time-scale",
        type=float,
        default=1.0,
        help="rule timing factor (0.25: 0.5 s cooldown, 4× more swaps per second)",
    )
    ap.add_argument("--bare-server", type=int, metavar="PAYLOAD", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.bare_server is not None:
        bare_server(args.bare_server)
        return 0
    rate = PHONES / (2.0 * args.time_scale)
    print(
        f"loopback, {PHONES} phones + 1 screen, {rate:.1f} swaps/s (every phone at its R15 limit), "
        f"{args.seconds:.0f} s, host and bare interleaved, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
    )
    host, bare, payload, tried = run(args.seconds, args.time_scale)
    print(f"median state frame: {payload} bytes; host swaps sent {tried}, accepted and measured {len(host)}")
    print(f"{'':<34}{'n':>6}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for name, samples in (("host (swap → last of 9 sockets)", host), ("bare flask-sock broadcast", bare)):
        if samples:
            p50, p99, mx = _percentiles(samples)
            print(f"{name:<34}{len(samples):>6}{p50:>9.2f}{p99:>9.2f}{mx:>9.2f}")
        else:
            print(f"{name:<34}{0:>6}   (no samples)")
    if host and bare:
        ratio = _percentiles(host)[1] / _percentiles(bare)[1]
        print(f"host p99 / bare p99 = {ratio:.2f}  (target ≤ 2, and host p99 < 10 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
