#!/usr/bin/env python3
"""What repeated ``hello``s cost the table: guests on many addresses saying hello all the time, beside a quiet run.

    python3 bench/hellos.py                      # 60 addresses, 19 hellos/s each, 6 s quiet then 6 s attacked
    python3 bench/hellos.py --addresses 60 --rate 19 --seconds 6
    python3 bench/hellos.py --pin                # guests on the last CPU, host and honest phone on the others

The host is the real launcher in a child process (its own state folder), with four phones seated and its big
screen listening. An honest phone measures its round trip to the table thread: it sends ``watch`` (a seated
phone gets ``error already_seated`` back, nothing else changes) and times the answer;
the four seated phones take turns, one every 25 ms (each stays under the table's flood limit), so that a p99
rests on a few hundred samples. First
``--seconds`` quiet; then the same while ``--addresses`` guests (one socket each, from 127.0.0.2 and up, in
another child process so that their threads do not share a GIL with the one being timed) each send ``hello``
``--rate`` times a second, just under the table's own flood limit, reading every frame and answering pings as a
browser does. With ``--pin`` (Linux) the guests run on the last CPU and the host and the honest phones on the
others: on a 2-core machine the guests' own work otherwise takes the core the host needs, which no guest's phone
does at a party. Printed: both p50/p99, their ratio (target p99 ≤ 2× quiet), and what the guests were sent
(frames, bytes) beside what the same hellos would have cost at one full view each.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from flood_attackers import frame, handshake  # noqa: E402  (bench/flood.py's raw guest socket)
from simple_websocket import ConnectionClosed  # noqa: E402

from quatro_party.server.testing import WsClient  # noqa: E402

#: The honest phone's round trip is measured this often (seconds).
STEP = 0.025


# --- the guests (a child process) ----------------------------------------------------------------------


def greeters(port: int, addresses: int, rate: float, seconds: float) -> dict[str, Any]:
    """One socket per guest address, each saying hello ``rate`` times a second for ``seconds``, reading every
    frame and echoing every ping: how many hellos went out, and how many frames and bytes came back."""
    sent = [0] * addresses
    frames = [0] * addresses
    states = [0] * addresses
    got = [0] * addresses
    stop = time.monotonic() + seconds
    hello = frame(b'{"type":"hello","token":null}')

    def one(i: int) -> None:
        try:
            s, head = handshake(port, f"127.0.0.{2 + i}")
        except OSError:
            return
        lock = threading.Lock()

        def read() -> None:
            buf = head.split(b"\r\n\r\n", 1)[1]
            try:
                while True:
                    while len(buf) >= 2:
                        op, size, at = buf[0] & 0x0F, buf[1] & 0x7F, 2
                        if size == 126:
                            size, at = int.from_bytes(buf[2:4], "big"), 4
                        elif size == 127:
                            size, at = int.from_bytes(buf[2:10], "big"), 10
                        if len(buf) < at + size:
                            break
                        payload, buf = buf[at : at + size], buf[at + size :]
                        if op == 0x1:
                            frames[i] += 1
                            got[i] += len(payload)
                            states[i] += payload.startswith(b'{"type":"state"')
                        elif op == 0x9:
                            with lock:
                                s.sendall(frame(payload, opcode=0xA))
                    data = s.recv(65536)
                    if not data:
                        return
                    buf += data
            except OSError:
                return

        threading.Thread(target=read, daemon=True).start()
        n = 0
        start = time.monotonic()
        try:
            while time.monotonic() < stop:
                with lock:
                    s.sendall(hello)
                sent[i] += 1
                n += 1
                time.sleep(max(0.0, start + n / rate - time.monotonic()))
        except OSError:
            pass
        time.sleep(0.5)  # the last answers
        s.close()

    threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(addresses)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 10)
    return {"hellos": sum(sent), "frames": sum(frames), "states": sum(states), "bytes": sum(got)}


# --- the host and the honest phone ---------------------------------------------------------------------------


class Host:
    """The real launcher (child process): four phones seated in the lobby, the big screen listening."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "QUATRO_STATE_DIR": tempfile.mkdtemp(prefix="quatro-bench-")}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "quatro_party.launch", "--port", "0", "--bind", "127.0.0.1", "--no-browser"]
            + ["--no-mdns", "--quiet", "--fresh", "--seats", "4", "--seed", "1"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        out = ""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            out += line
            if line.startswith("Port "):
                break
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()  # never let its pipe fill
        self.port = int(re.search(r"Port (\d+)", out).group(1))  # type: ignore[union-attr]
        secret = re.search(r"#host=(\S+)", out).group(1)  # type: ignore[union-attr]
        base = f"ws://127.0.0.1:{self.port}"
        self.screen = WsClient(base + "/ws/screen")
        self.screen.send({"type": "hello", "host": secret})
        self.phones = []
        for seat in range(4):
            phone = WsClient(base + "/ws/phone")
            phone.hello()
            phone.join(seat, f"P{seat}")
            self.phones.append(phone)
        self.screen.drain()
        # The screen must keep reading (a socket that stops reading is closed); the phones read their answers.
        self._reading = True
        threading.Thread(target=self._read, args=(self.screen,), daemon=True).start()

    def _read(self, client: WsClient) -> None:
        try:
            while self._reading and not client.closed:
                client.recv(0.2)
                client.frames.clear()
        except ConnectionClosed:
            if self._reading:  # the host closed it mid-run: say so; after close() it is ours closing
                raise

    def round_trips(self, seconds: float) -> list[float]:
        """The honest phones' round trips to the table (seconds), one every :data:`STEP`, for ``seconds``."""
        out: list[float] = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            phone = self.phones[len(out) % len(self.phones)]
            t0 = time.perf_counter()
            ref = phone.send({"type": "watch"})
            phone.reply(ref, timeout=10.0)
            out.append(time.perf_counter() - t0)
            phone.frames.clear()
            phone.messages.clear()
            time.sleep(STEP)
        return out

    def close(self) -> None:
        self._reading = False
        for c in [self.screen, *self.phones]:
            c.close()
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _p(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def run(addresses: int, rate: float, seconds: float, guest_cpu: int | None = None) -> dict[str, Any]:
    """Quiet then attacked, in one run: the honest round trips of both, and what the guests were sent."""
    host = Host()
    try:
        time.sleep(0.5)
        quiet = host.round_trips(seconds)
        attack = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--attacker", str(host.port)]
            + [str(addresses), str(rate), str(seconds + 1.0)],
            env={**os.environ, "QUATRO_BENCH_GUEST_CPU": str(guest_cpu) if guest_cpu is not None else ""},
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        time.sleep(0.5)
        attacked = host.round_trips(seconds)
        out, _ = attack.communicate(timeout=seconds + 60)
        guests = json.loads(out.strip().splitlines()[-1])
        return {"quiet": quiet, "attacked": attacked, "guests": guests}
    finally:
        host.close()


def report(r: dict[str, Any], addresses: int, rate: float) -> tuple[str, float]:
    quiet, attacked, g = r["quiet"], r["attacked"], r["guests"]
    ratio = _p(attacked, 0.99) / _p(quiet, 0.99)
    lines = [
        f"hellos: {addresses} guest addresses x {rate:g} hellos/s ({g['hellos']} hellos sent)",
        f"  honest round trip, quiet:    n={len(quiet):<4} p50 {_p(quiet, 0.5):6.2f} ms  p99 {_p(quiet, 0.99):6.2f} ms",
        f"  honest round trip, attacked: n={len(attacked):<4} p50 {_p(attacked, 0.5):6.2f} ms"
        f"  p99 {_p(attacked, 0.99):6.2f} ms",
        f"  attacked p99 / quiet p99 = {ratio:.2f} (target <= 2)",
        f"  the guests got {g['states']} state frames for {g['hellos']} hellos "
        f"({g['states'] / max(1, g['hellos']):.2f} per hello), {g['bytes'] / 1e6:.2f} MB in all",
    ]
    return "\n".join(lines), ratio


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--addresses", type=int, default=60)
    ap.add_argument("--rate", type=float, default=19.0)
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--pin", action="store_true", help="guests on the last CPU, the rest on the others (Linux)")
    ap.add_argument("--attacker", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if args.pin and len(cpus) < 2:
        print("--pin needs Linux and two CPUs or more", file=sys.stderr)
        return 2
    if args.attacker:
        named = os.environ.get("QUATRO_BENCH_GUEST_CPU")
        if named:  # --pin: the parent, pinned away from this CPU, names it
            os.sched_setaffinity(0, {int(named)})
        port, addresses, rate, seconds = args.attacker
        print(json.dumps(greeters(int(port), int(addresses), float(rate), float(seconds))), flush=True)
        return 0
    guest_cpu = cpus[-1] if args.pin else None
    if guest_cpu is not None:  # the host child and its honest phones inherit this; the guests' child pins itself
        os.sched_setaffinity(0, cpus[:-1])
    pinned = f", guests pinned to CPU {guest_cpu}" if guest_cpu is not None else ""
    print(f"loopback, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}{pinned}")
    text, ratio = report(run(args.addresses, args.rate, args.seconds, guest_cpu), args.addresses, args.rate)
    print(text)
    return 0 if ratio <= 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
