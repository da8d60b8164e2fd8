#!/usr/bin/env python3
"""Swap-to-screen latency and host CPU per swap, beside a bare flask-sock relay, in the same run.

    python3 bench/latency.py                       # 1,000 swaps a side at 9, 25 and 50 sockets
    python3 bench/latency.py --swaps 300 --sockets 9

What is measured (loopback; 8 seated phones, the other sockets watch as big screens):

* **host**: the real host (``quatro_party.launch`` in a child process, 8 seats, its journal on), the
  8 phones swapping in turn, 12 swaps a second in all by default (``--rate``; a real table's 8 phones at their
  R15 limit make 4; the host runs at time scale 0.1 so that rounds are short). For every *accepted* swap:
  from the phone sending it to the **last** socket receiving the ``state`` frame with that swap's event.
  A swap refused because another phone took the place first (R16) sends no update and is not counted.
* **relay**: a bare flask-sock server (child process, ``TCP_NODELAY``, a lock per socket, a registry)
  that sends, for each message a phone sends it, one frame to every socket: the frame that socket's
  counterpart received from the host (recorded during the warm-up, cycled), so the same size, shape and
  compressibility, with only a tag spliced in.

Every client negotiates permessage-deflate as Chromium does (``permessage-deflate; client_max_window_bits``),
so each server compresses what it sends, if it accepts the offer; the figures say whether it did.
``--no-deflate`` offers nothing. The two servers' messages are interleaved, half a step apart, for the whole
run, so a busy machine weighs on both alike; one reader thread reads every socket of both.
Host CPU per swap is the host process's user + system time over the measuring window divided by the swaps
sent; the relay's likewise per message. Figures are printed, nothing is asserted; the ratios are the point.
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import re
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wsproto import ConnectionType, WSConnection  # noqa: E402
from wsproto.events import (  # noqa: E402
    AcceptConnection,
    CloseConnection,
    Ping,
    RejectConnection,
    Request,
    TextMessage,
)
from wsproto.extensions import PerMessageDeflate  # noqa: E402

PHONES = 8
TIME_SCALE = 0.1  # R15's 2 s cooldown becomes 0.2 s: about 35 swaps a second for the 8 phones
TAG = "@@TAG@@"  # where the relay splices its tag into a recorded frame


# --- the bare relay (run as a child: ``latency.py --relay FRAMES.json``) ----------------------------------


def relay_server(frames_path: str) -> None:
    """flask-sock, a registry of sockets, TCP_NODELAY, a lock per socket: the simplest correct broadcast.

    Socket ``i`` (in connection order) is sent, in turn, the frames the host's socket ``i`` received.
    """
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


# --- clients: wsproto over plain sockets, all read by one thread ---------------------------------------


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


# --- the two servers ----------------------------------------------------------------------------------


def _start_child(args: list[str], env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("PORT ") or line.startswith("Port "):
            out = proc.stdout
            threading.Thread(target=lambda: [None for _ in out], daemon=True).start()  # keep draining
            return proc, "".join(lines)
    raise RuntimeError("server did not start:\n" + "".join(lines))


def _stop_child(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait(pred: Any, timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > end:
            raise TimeoutError("benchmark setup timed out")
        time.sleep(0.01)


class Side:
    """A server under test: its clients (``everyone``), what was sent (key, time), its child process."""

    everyone: list[Client]
    proc: subprocess.Popen[str]

    def __init__(self) -> None:
        self.sent: list[tuple[str, float]] = []

    def latencies(self) -> list[float]:
        """For each send whose frame reached every socket: the time to the last of them."""
        found = []
        next_same: dict[str, float] = {}
        until = [float("inf")] * len(self.sent)
        for i in range(len(self.sent) - 1, -1, -1):  # a frame belongs to a send until the same key is sent again
            key, t0 = self.sent[i]
            until[i] = next_same.get(key, float("inf"))
            next_same[key] = t0
        for i, (key, t0) in enumerate(self.sent):
            last = 0.0
            for c in self.everyone:
                j = bisect.bisect_left(c.times, t0)
                got = None
                for t, text in c.frames[j : j + 400]:
                    if t >= until[i]:
                        break
                    if key in text:
                        got = t
                        break
                if got is None:
                    break
                last = max(last, got)
            else:
                found.append(last - t0)
        return found

    def cpu(self) -> float:
        return cpu_seconds(self.proc.pid)

    def close(self) -> None:
        for c in self.everyone:
            c.close()
        _stop_child(self.proc)


def _latest_view(client: Client | Listener) -> dict[str, Any] | None:
    for _, text in reversed(client.frames[-10:]):
        if text.startswith('{"type":"state"'):
            return json.loads(text)["view"]
    return None


class HostSide(Side):
    """The real host with 8 seated phones in play and ``screens`` big screens (the first one the host's)."""

    def __init__(self, reader: Reader, screens: int, deflate: bool, state_dir: str) -> None:
        super().__init__()
        self.proc, out = _start_child(
            [
                "-m",
                "quatro_party.launch",
                *("--port", "0", "--bind", "127.0.0.1", "--no-browser", "--no-mdns", "--quiet", "--fresh"),
                *("--seats", str(PHONES), "--seed", "1", "--time-scale", str(TIME_SCALE)),
            ],
            env={"QUATRO_STATE_DIR": state_dir},
        )
        port = int(re.search(r"Port (\d+)", out).group(1))  # type: ignore[union-attr]
        secret = re.search(r"#host=(\S+)", out).group(1)  # type: ignore[union-attr]
        base = f"ws://127.0.0.1:{port}"
        self.screens = [reader.add(Client(base + "/ws/screen", deflate)) for _ in range(screens)]
        for i, s in enumerate(self.screens):
            s.send(json.dumps({"type": "hello", "host": secret if i == 0 else None}))
        self.phones = [reader.add(Client(base + "/ws/phone", deflate)) for _ in range(PHONES)]
        for seat, ph in enumerate(self.phones):
            ph.send(json.dumps({"type": "hello", "token": None}))
            ph.send(json.dumps({"type": "join", "seat": seat, "name": f"P{seat}"}))
        _wait(lambda: all('"you"' in ph.latest for ph in self.phones))
        self.screens[0].send(json.dumps({"type": "start_game"}))
        self.everyone = [*self.phones, *self.screens]
        self.readied: set[tuple[int, int]] = set()
        _wait(lambda: self.playing())

    def playing(self) -> bool:
        """Whether the round is in play; in a sign phase every phone says ready (once a round)."""
        views = [_latest_view(ph) for ph in self.phones]
        if any(v is None for v in views):
            return False
        for seat, v in enumerate(views):
            assert v is not None
            if v["phase"] == "sign" and (seat, v["round"]) not in self.readied:
                self.readied.add((seat, v["round"]))
                self.phones[seat].send(json.dumps({"type": "ready"}))
            elif v["phase"] == "pause":
                if (-1, v["round"]) not in self.readied:  # cut the pause short, as the host may
                    self.readied.add((-1, v["round"]))
                    self.screens[0].send(json.dumps({"type": "next_round"}))
        return all(v is not None and v["phase"] == "play" for v in views)

    def send(self, n: int) -> bool:
        """Phone ``n % 8`` swaps a card with place ``seat % 4``, from its own view; False if not in play."""
        seat = n % PHONES
        view = _latest_view(self.phones[seat])
        if view is None or view["phase"] != "play":
            return False
        place = seat % 4
        card = view["you"]["hand"][n // PHONES % 4]["id"]
        key = f'"type":"swapped","seat":{seat},"place":{place},"put":{{"id":{card},'
        msg = json.dumps({"type": "swap", "card": card, "place": place, "expected": view["centre"][place]["id"]})
        self.sent.append((key, self.phones[seat].send(msg)))
        return True

    def recorded(self, last: int = 40) -> list[list[str]]:
        """Each socket's last ``last`` state frames, with the first event's place marked for the relay's tag."""
        out = []
        for c in self.everyone:
            frames = [t for _, t in c.frames[-200:] if t.startswith('{"type":"state"') and '"events":[{' in t]
            out.append([t.replace('"events":[{', '"events":[{"tag":"' + TAG + '",', 1) for t in frames[-last:]])
        return out

    def deflated(self) -> bool:
        return all(c.deflated for c in self.everyone)


class RelaySide(Side):
    """The bare relay with as many sockets as the host side; the 8 "phones" send the messages."""

    def __init__(self, reader: Reader, sockets: int, deflate: bool, frames_path: str) -> None:
        super().__init__()
        self.proc, out = _start_child([str(Path(__file__).resolve()), "--relay", frames_path])
        port = int(re.search(r"PORT (\d+)", out).group(1))  # type: ignore[union-attr]
        self.everyone = []
        for _ in range(sockets):  # one by one: the relay gives socket i the host's socket i's frames
            self.everyone.append(reader.add(Client(f"ws://127.0.0.1:{port}/ws", deflate)))
            time.sleep(0.005)

    def send(self, n: int) -> None:
        tag = f"m{n}x"
        self.sent.append((f'"tag":"{tag}"', self.everyone[n % PHONES].send(tag)))

    def deflated(self) -> bool:
        return all(c.deflated for c in self.everyone)


def _percentiles(samples: list[float]) -> tuple[float, float, float]:
    ordered = sorted(samples)

    def p(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return p(0.50), p(0.99), p(0.999)


def run(sockets: int, swaps: int, deflate: bool, rate: float) -> dict[str, Any]:
    """One size: warm the host up, record its frames for the relay, then both sides interleaved."""
    reader = Reader()
    host = relay = None
    with tempfile.TemporaryDirectory() as tmp:
        try:
            host = HostSide(reader, sockets - PHONES, deflate, tmp)
            step = max(2.0 * TIME_SCALE / PHONES + 0.004, 1.0 / rate)  # never faster than R15 allows
            for n in range(PHONES * 6):  # warm-up, and frames for the relay to send
                host.send(n)
                time.sleep(step)
            time.sleep(0.3)
            frames_path = os.path.join(tmp, "frames.json")
            Path(frames_path).write_text(json.dumps(host.recorded()))
            size = sorted(len(t.encode()) for frames in host.recorded() for t in frames)
            relay = RelaySide(reader, sockets, deflate, frames_path)
            time.sleep(0.3)
            host.sent.clear()
            cpu0 = (host.cpu(), relay.cpu())
            n, start = 0, time.perf_counter() + 0.1
            while len(host.sent) < swaps:
                at = start + n * step
                time.sleep(max(0.0, at - time.perf_counter()))
                if host.playing() and host.send(n):
                    time.sleep(max(0.0, at + step / 2 - time.perf_counter()))  # the relay half a step later
                    relay.send(n)
                else:
                    start += step  # between rounds: both wait
                n += 1
            time.sleep(0.5)
            cpu1 = (host.cpu(), relay.cpu())
            return {
                "sockets": sockets,
                "frame": size[len(size) // 2],
                "deflate": (host.deflated(), relay.deflated()),
                "sent": (len(host.sent), len(relay.sent)),
                "host": host.latencies(),
                "relay": relay.latencies(),
                "cpu": ((cpu1[0] - cpu0[0]) / len(host.sent), (cpu1[1] - cpu0[1]) / len(relay.sent)),
            }
        finally:
            reader.stop()
            if host is not None:
                host.close()
            if relay is not None:
                relay.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--swaps", type=int, default=1000, help="swaps sent to each side per size (default 1000)")
    ap.add_argument("--sockets", type=int, nargs="*", default=[9, 25, 50], help="socket counts (default 9 25 50)")
    ap.add_argument("--no-deflate", action="store_true", help="clients offer no permessage-deflate")
    ap.add_argument(
        "--rate",
        type=float,
        default=12.0,
        help="swaps a second, all phones together (default 12: 3× a real table's most)",
    )
    ap.add_argument("--relay", metavar="FRAMES", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.relay is not None:
        relay_server(args.relay)
        return 0
    print(
        f"loopback, {PHONES} phones, {args.rate:g} swaps/s (time scale {TIME_SCALE}), the rest screens; "
        f"host and relay interleaved; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; "
        f"clients {'offer no compression' if args.no_deflate else 'offer permessage-deflate as Chromium'}"
    )
    head = f"{'sockets':>7} {'side':<6}{'n':>6}{'p50 ms':>9}{'p99 ms':>9}{'p99.9':>9}{'CPU/swap':>10}  deflate"
    print(head)
    for sockets in args.sockets:
        r = run(sockets, args.swaps, not args.no_deflate, args.rate)
        figures = {}
        for i, side in enumerate(("host", "relay")):
            samples = r[side]
            if not samples:
                print(f"{sockets:>7} {side:<6}{0:>6}   (no samples)")
                continue
            p50, p99, p999 = figures[side] = _percentiles(samples)
            print(
                f"{sockets:>7} {side:<6}{len(samples):>6}{p50:>9.2f}{p99:>9.2f}{p999:>9.2f}"
                f"{r['cpu'][i] * 1000:>8.2f}ms  {'on' if r['deflate'][i] else 'off'}"
            )
        if len(figures) == 2:
            h, b = figures["host"], figures["relay"]
            print(
                f"{sockets:>7} ratio host/relay: p50 ×{h[0] / b[0]:.2f}, p99 ×{h[1] / b[1]:.2f}, "
                f"p99.9 ×{h[2] / b[2]:.2f}, CPU/swap ×{r['cpu'][0] / r['cpu'][1]:.2f}  "
                f"(median frame {r['frame']} bytes; sent {r['sent'][0]} / {r['sent'][1]})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
