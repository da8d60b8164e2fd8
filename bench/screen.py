#!/usr/bin/env python3
"""How smoothly the big screen draws 8-bot play, beside the page before its split, in the same run.

    python3 bench/screen.py                       # 60 s, 1920×1080, headless Chromium
    python3 bench/screen.py --seconds 20 --baseline <commit>

Two hosts run at once, each with 8 bots playing at full pace (a round that ends is followed at once by the
next; a finished game by a new one), the same seed. One serves the TV page as it is now (``web/``), the other
the page of ``--baseline`` (default: the commit before the split of ``screen.js``), taken from git into a
temporary folder. One headless Chromium (Debian's) shows both pages at once, 1920×1080, so the machine's noise
weighs on both alike. For each page it prints:

* **fps**: frames drawn per second (``requestAnimationFrame`` callbacks), and the slowest second;
* **busy**: the share of wall time the page's main thread spent running tasks (Chrome's ``TaskDuration`` from
  the DevTools ``Performance`` domain; on a loaded machine this counts the time a task waited for a core too),
  **cpu**: the main thread's own CPU time over wall time (``ThreadTime``), and the time in long tasks (> 50 ms,
  ``PerformanceObserver``);
* **states**: how many table states the page received.

Nothing is asserted. The targets: ≥ 50 fps and < 15 % busy, headless on this machine.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quatro_party.server.testing import LiveServer  # noqa: E402

logging.getLogger("werkzeug").setLevel(logging.ERROR)

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
    "--disable-renderer-backgrounding",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
]

#: Counts frames and long tasks from the page's first moment.
PROBE = """
window.__bench = {frames: [], long: 0, states: 0};
(function loop(t) { window.__bench.frames.push(t); requestAnimationFrame(loop); })(performance.now());
try {
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__bench.long += e.duration; })
    .observe({entryTypes: ['longtask']});
} catch (e) { /* no long-task API: 0 */ }
const RealWS = window.WebSocket;
window.WebSocket = class extends RealWS {
  constructor(...a) { super(...a); this.addEventListener('message', (m) => {
    if (String(m.data).startsWith('{"type": "state"') || String(m.data).includes('"type":"state"') ||
        String(m.data).includes('"type": "state"')) window.__bench.states++; }); }
};
"""


def baseline_commit() -> str:
    """The parent of the commit that split screen.js (the page as it was before)."""
    out = subprocess.run(
        ["git", "log", "--format=%H", "-1", "--grep", "^Screen: split screen.js"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not out:
        raise SystemExit("no split commit found: pass --baseline <commit>")
    return f"{out}^"


def export_web(commit: str, into: Path) -> Path:
    """The ``web/`` folder of ``commit``, written under ``into``."""
    archive = subprocess.run(["git", "archive", commit, "web"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "web"


class FullPace:
    """Keeps a table playing: fill with bots, start; skip every pause; a new game after each game over."""

    def __init__(self, server: LiveServer) -> None:
        self.screen = server.screen()
        self.stop = threading.Event()
        self.rounds = 0
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        s = self.screen
        s.host("fill_bots")
        s.host("start_game")
        last = None
        while not self.stop.is_set():
            try:
                msg = s.recv(timeout=0.5)
            except Exception:
                return
            if not msg or msg.get("type") != "state":
                continue
            view = msg["view"]
            key = (view["phase"], view["round"])
            if key == last:
                continue
            last = key
            if view["phase"] == "pause":
                self.rounds += 1
                s.send({"type": "next_round"})
            elif view["phase"] == "over":
                self.rounds += 1
                s.send({"type": "new_game"})
            elif view["phase"] == "lobby":
                s.send({"type": "start_game"})


def measure(pages: dict[str, Any], cdps: dict[str, Any], seconds: float) -> dict[str, dict[str, float]]:
    def metrics(name: str) -> dict[str, float]:
        got = cdps[name].send("Performance.getMetrics")["metrics"]
        return {m["name"]: m["value"] for m in got}

    start = {
        n: (
            metrics(n),
            pages[n].evaluate(
                "[window.__bench.frames.length, window.__bench.long, window.__bench.states, performance.now()]"
            ),
        )
        for n in pages
    }
    t0 = time.monotonic()
    time.sleep(seconds)
    wall = time.monotonic() - t0
    out = {}
    for n, page in pages.items():
        m0, (f0, l0, s0, p0) = start[n]
        m1 = metrics(n)
        f1, l1, s1, p1, worst = page.evaluate(
            """(p0) => { const b = window.__bench; const fr = b.frames.filter((t) => t >= p0);
                 let worst = Infinity; for (let s = p0; s + 1000 <= performance.now(); s += 1000)
                   worst = Math.min(worst, fr.filter((t) => t >= s && t < s + 1000).length);
                 return [b.frames.length, b.long, b.states, performance.now(), worst]; }""",
            p0,
        )
        span = (p1 - p0) / 1000
        out[n] = {
            "fps": (f1 - f0) / span,
            "worst_fps": worst,
            "busy": (m1["TaskDuration"] - m0["TaskDuration"]) / wall,
            "cpu": (m1["ThreadTime"] - m0["ThreadTime"]) / wall,
            "long_ms": l1 - l0,
            "states": s1 - s0,
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--baseline", default=None, help="commit whose web/ is the baseline (default: before the split)")
    ap.add_argument("--no-baseline", action="store_true", help="measure the current page only")
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        webs = {"now": ROOT / "web"}
        if not args.no_baseline:
            commit = args.baseline or baseline_commit()
            webs["baseline"] = export_web(commit, Path(tmp))
            short = subprocess.run(["git", "rev-parse", "--short", commit], cwd=ROOT, capture_output=True, text=True)
            print(f"baseline: web/ of {short.stdout.strip()}")
        servers = {n: LiveServer(public_host="127.0.0.1", seats=8, seed=7, web_dir=str(w)) for n, w in webs.items()}
        drivers = {n: FullPace(s) for n, s in servers.items()}
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                pages, cdps = {}, {}
                for n, s in servers.items():
                    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-US", bypass_csp=True)
                    ctx.add_init_script(PROBE)
                    page = ctx.new_page()
                    page.goto(s.screen_url(host=True))
                    page.wait_for_function("document.body.dataset.phase === 'lobby'")
                    cdp = ctx.new_cdp_session(page)
                    cdp.send("Performance.enable", {"timeDomain": "timeTicks"})
                    pages[n], cdps[n] = page, cdp
                for d in drivers.values():
                    d.thread.start()
                time.sleep(args.warmup)
                result = measure(pages, cdps, args.seconds)
                browser.close()
        finally:
            for d in drivers.values():
                d.stop.set()
            for s in servers.values():
                s.stop()
    print(f"8 bots at full pace, {args.seconds:.0f} s, 1920x1080 headless Chromium, both pages at once")
    print(f"{'page':<10}{'fps':>8}{'worst s':>9}{'busy':>8}{'cpu':>8}{'long tasks':>12}{'states':>8}{'rounds':>8}")
    for n, r in result.items():
        print(
            f"{n:<10}{r['fps']:>8.1f}{r['worst_fps']:>9.0f}{r['busy'] * 100:>7.1f}%{r['cpu'] * 100:>7.1f}%"
            f"{r['long_ms']:>10.0f}ms{r['states']:>8.0f}{drivers[n].rounds:>8}"
        )
    if "baseline" in result:
        b, c = result["baseline"], result["now"]
        print(
            f"ratio now/baseline: fps {c['fps'] / max(b['fps'], 1e-9):.2f}x, "
            f"busy {c['busy'] / max(b['busy'], 1e-9):.2f}x"
        )
    print("targets: >= 50 fps, < 15 % busy")


if __name__ == "__main__":
    main()
