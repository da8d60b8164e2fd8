#!/usr/bin/env python3
"""A soak at the legal maximum: 8 phones swapping at their R15 limit, 2 big screens, 20 spectators.

    python3 bench/soak.py               # 10 minutes
    python3 bench/soak.py --minutes 1

The host is the real launcher in a child process with its journal in a temporary state folder. Every
10 s the host's RSS and thread count (``/proc/<pid>/status``) and the journal's size are sampled; at the
end: errors received by any client, sockets dropped, and the first and last minute's RSS and threads
side by side (targets: 0 errors, RSS and threads flat, journal < 1 MB).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("bench_flood", ROOT / "bench" / "flood.py")
assert _spec is not None and _spec.loader is not None
flood = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(flood)
latency = flood.latency


def _status(pid: int) -> tuple[int, int]:
    text = Path(f"/proc/{pid}/status").read_text()
    rss = int(re.search(r"VmRSS:\s+(\d+) kB", text).group(1))
    threads = int(re.search(r"Threads:\s+(\d+)", text).group(1))
    return rss, threads


def run(minutes: float, scale: float = 1.0) -> dict[str, object]:
    state = tempfile.mkdtemp(prefix="quatro-soak-")
    os.environ["QUATRO_STATE_DIR"] = state
    host = flood.Host(scale)
    base = f"ws://127.0.0.1:{host.port}"
    extra = [latency.Listener(base + "/ws/screen") for _ in range(1)]
    for s in extra:
        s.send(json.dumps({"type": "hello"}))
    watchers = [latency.Listener(base + "/ws/phone") for _ in range(20)]
    for w in watchers:
        w.send(json.dumps({"type": "hello"}))
        w.send(json.dumps({"type": "watch"}))
    everyone = host.everyone + extra + watchers
    journal = Path(state) / "table.jsonl"
    samples: list[tuple[float, int, int, int]] = []
    start = time.monotonic()
    end = start + minutes * 60
    n = 0
    step = 2.0 * scale / len(host.phones)
    next_sample = start
    try:
        while time.monotonic() < end:
            now = time.monotonic()
            if now >= next_sample:
                rss, threads = _status(host.proc.pid)
                size = journal.stat().st_size if journal.exists() else 0
                samples.append((now - start, rss, threads, size))
                next_sample += 10.0
            view = latency._latest_view(host.phones[0])
            if view is not None and view["phase"] in ("pause", "over"):
                host.screen.send(json.dumps({"type": "next_round" if view["phase"] == "pause" else "new_game"}))
                if view["phase"] == "over":
                    time.sleep(0.3)
                    host.screen.send(json.dumps({"type": "start_game"}))
                time.sleep(0.3)
                for ph in host.phones:
                    ph.send(json.dumps({"type": "ready"}))
            host.swap(n)
            n += 1
            time.sleep(step)
        errors = [
            text
            for lst in everyone
            for _, text in lst.frames
            if text.startswith('{"type":"error"') and '"code":"flood"' not in text
        ]
        dropped = sum(not lst.ws.connected for lst in everyone)
        return {"samples": samples, "errors": errors, "dropped": dropped, "swaps": len(host.sent)}
    finally:
        for lst in extra + watchers:
            lst.close()
        host.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    args = ap.parse_args(argv)
    r = run(args.minutes)
    samples = r["samples"]
    assert isinstance(samples, list) and samples
    minute = [s for s in samples if s[0] <= 60] or samples[:1]
    last = [s for s in samples if s[0] >= samples[-1][0] - 60] or samples[-1:]

    def avg(rows: list[tuple[float, int, int, int]], i: int) -> float:
        return sum(row[i] for row in rows) / len(rows)

    rss0, rss1 = avg(minute, 1) / 1024, avg(last, 1) / 1024
    th0, th1 = avg(minute, 2), avg(last, 2)
    journal_max = max(s[3] for s in samples)
    errors = r["errors"]
    assert isinstance(errors, list)
    print(f"soak: {args.minutes:g} min, 8 phones at the R15 limit, 2 screens, 20 spectators; {r['swaps']} swaps sent")
    print(f"  RSS first minute {rss0:.1f} MiB, last minute {rss1:.1f} MiB (ratio {rss1 / rss0:.2f})")
    print(f"  threads first minute {th0:.0f}, last minute {th1:.0f}")
    print(
        f"  journal at most {journal_max / 1024:.0f} KiB (target < 1024); errors {len(errors)}; dropped {r['dropped']}"
    )
    for text in errors[:5]:
        print("   ", text[:200])
    ok = not errors and r["dropped"] == 0 and journal_max < 1 << 20 and rss1 < rss0 * 1.2 + 5 and th1 <= th0 + 2
    print("all targets met" if ok else "SOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
