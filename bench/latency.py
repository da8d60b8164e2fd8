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
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from latency_clients import Listener, Reader  # noqa: E402
from latency_sides import (  # noqa: E402
    PHONES,
    TIME_SCALE,
    HostSide,
    RelaySide,
    _latest_view,
    _start_child,
    _stop_child,
    _wait,
)

#: What ``bench/flood.py`` and ``bench/soak.py`` take from here.
__all__ = ["Listener", "_latest_view", "_percentiles", "_start_child", "_stop_child", "_wait", "main", "run"]


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
    args = ap.parse_args(argv)
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
