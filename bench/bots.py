"""Bot benchmarks: how fast the simulator plays, and what bots cost the real host.

    python bench/bots.py                  # every figure
    python bench/bots.py --sim-games 20 --no-host
    python bench/bots.py --host-seconds 20 --no-sim

1. The simulator's CPU per 8-hard-bot game, beside the no-think floor of *the same games* (``bench/bots_floor.py``:
   the engine, the views, every event read by every bot and one greedy choice per decision, replayed), as a
   ratio (target: at most 2x the floor).
2. ``--jobs 2`` against ``--jobs 1`` on the same 4-seat games (wall time; target: at least 1.7x on two cores),
   checking that both give the same summary; and the wall time of a 2,000-game 4-seat table (target: 60 s).
3. The host's CPU use with 7 hard bots and 1 idle phone playing in real time (target: under 3 % of one
   core): the host runs in a child process (``quatro_party.server.testing.LiveServer``) so that its CPU
   time (``/proc/<pid>/stat``) is measured apart from this process, which plays the phone (it only says
   "ready" in each sign phase) and the host's screen. To measure the busiest case, the screen cuts every 30 s
   pause short (R32), so rounds follow each other.

``--breakdown GAMES`` also splits the CPU of simulated 8-seat games into views / bots / engine.
On a shared machine, CPU time (not wall time) is the fair measure of 1; 2 needs idle cores to mean anything.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quatro_party.simulate import play_game, run  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
import bots_floor  # noqa: E402

CHILD = """
import os, sys, tempfile
from quatro_party.server.testing import LiveServer
# as the launcher runs it: with the journal a restarted host resumes from (one line per engine call)
journal = os.path.join(tempfile.mkdtemp(prefix="quatro-bench-"), "table.jsonl")
server = LiveServer(seats=8, bot_level="hard", seed=1, journal=journal)
print(server.port, server.host_secret, flush=True)
sys.stdin.readline()
server.stop()
"""


def bench_sim(games: int, seats: int = 8) -> float:
    """The simulator's CPU per game of hard bots beside the no-think floor of the same games; the ratio."""
    seeds = range(1, games + 1)
    levels = ["hard"] * (seats // 2)
    for seed in seeds[:2]:
        play_game(seed, levels, seats)  # warm up
    full = bots_floor.best_of(3, lambda: [play_game(seed, levels, seats) for seed in seeds]) / games
    recorded = [(seed, bots_floor.record(seed, seats)[0]) for seed in seeds]
    floor = bots_floor.best_of(3, lambda: [bots_floor.replay(seed, seats, t, 4) for seed, t in recorded]) / games
    ratio = full / floor
    print(
        f"simulator: {games} games of {seats} hard bots: {1000 * full:.1f} ms CPU per game "
        f"({1 / full:.0f} games per CPU second); no-think floor of the same games {1000 * floor:.1f} ms: "
        f"{ratio:.2f}x the floor (target <= 2x)"
    )
    return ratio


def bench_jobs(games: int, big: int) -> None:
    """``--jobs 2`` against ``--jobs 1`` on the same 4-seat games (wall time), and a big table's wall time."""
    teams = ["hard", "normal"]
    t0 = time.perf_counter()
    one = run(teams, games, 4, jobs=1)
    t1 = time.perf_counter()
    two = run(teams, games, 4, jobs=2)
    t2 = time.perf_counter()
    same = one.table().split("\n")[2:] == two.table().split("\n")[2:]
    print(
        f"jobs: {games} 4-seat games hard v normal: --jobs 1 {t1 - t0:.1f} s, --jobs 2 {t2 - t1:.1f} s wall = "
        f"{(t1 - t0) / (t2 - t1):.2f}x (target >= 1.7x; same results: {'yes' if same else 'NO'})"
    )
    if big:
        t0 = time.perf_counter()
        summary = run(teams, big, 4, jobs=2)
        wall = time.perf_counter() - t0
        print(f"table: {summary.games} 4-seat games (hard v normal, --jobs 2) in {wall:.1f} s wall (target <= 60 s)")


def bench_breakdown(games: int) -> None:
    """Where a simulated 8-hard-bot game spends its CPU: the seat views (built lazily, only for a bot that
    looks), the bots (observe + notice + wake, with the share of their decisions: what is left is perceiving),
    and the rest (engine, events to JSON, the event loop); and
    how many units of work a game is made of (what any faster design would still have to do)."""
    import quatro_party.simulate.runner as sim
    from quatro_party.bots import Bot
    from quatro_party.bots.eyes import Eyes
    from quatro_party.engine.views import ViewBuilder

    spent = {"views": 0.0, "bots": 0.0, "decide": 0.0}  # decide: the judgement, inside the bots' share
    counts = {"changes": 0, "events": 0, "views": 0, "wakes": 0, "decisions": 0}

    def timed(name: str, fn: Any, count: str | None = None) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if count:
                counts[count] += 1
            t = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += time.process_time() - t

        return wrapper

    def observer(kind: str, now: float, data: Any) -> None:
        if kind == "events":
            counts["changes"] += 1
            counts["events"] += len(data)

    # a bot's notice is its eyes' (bound when the bot is made): timed there
    saved = ViewBuilder.table_view, sim._seat_view, Bot.wake, Bot.observe, Eyes.notice
    ViewBuilder.table_view = timed("views", saved[0])
    sim._seat_view = timed("views", saved[1], "views")
    Bot.wake, Bot.observe = timed("bots", saved[2], "wakes"), timed("bots", saved[3])
    Eyes.notice = timed("bots", saved[4])
    try:
        t0 = time.process_time()
        sent = 0
        for seed in range(1, games + 1):
            bots: list[Any] = []
            real_make = sim.make_bot

            def make(*args: Any, **kwargs: Any) -> Any:
                bot = real_make(*args, **kwargs)
                bot.policy.decide = timed("decide", bot.policy.decide, "decisions")
                bots.append(bot)
                return bot

            sim.make_bot = make
            try:
                rec = sim.play_game(seed, ["hard"] * 4, 8, observer=observer)
            finally:
                sim.make_bot = real_make
            sent += rec.messages
        total = time.process_time() - t0
    finally:
        ViewBuilder.table_view, sim._seat_view, Bot.wake, Bot.observe, Eyes.notice = saved
    per = {k: 1000 * v / games for k, v in spent.items()}
    print(
        f"breakdown per game (CPU, timers included): total {1000 * total / games:.0f} ms = views "
        f"{per['views']:.0f} ms + bots {per['bots']:.0f} ms (of which decisions {per['decide']:.0f} ms, the "
        f"rest perceiving: observe, notice, glances, events read) + engine/loop "
        f"{1000 * total / games - per['views'] - per['bots']:.0f} ms"
    )
    n = {k: v / games for k, v in counts.items()}
    print(
        f"work per game: {sent / games:.0f} bot actions, {n['changes']:.0f} changes ({n['events']:.0f} events, "
        f"each one read by every bot), {n['views']:.0f} seat views built, {n['wakes']:.0f} bot wakes, "
        f"{n['decisions']:.0f} decisions"
    )


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def bench_host(seconds: float) -> float | None:
    """The host's CPU share with 7 hard bots and one idle phone, over ``seconds`` of real time."""
    from quatro_party.server.testing import WsClient

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env
    )
    try:
        line = child.stdout.readline().split() if child.stdout else []
        if len(line) != 2:
            print("host: the server did not start")
            return None
        port, secret = int(line[0]), line[1]
        screen = WsClient(f"ws://127.0.0.1:{port}/ws/screen")
        screen.send({"type": "hello", "host": secret})
        screen.expect("state")
        phone = WsClient(f"ws://127.0.0.1:{port}/ws/phone")
        phone.hello(None)
        phone.join(0, "Idle")
        screen.host("start_game")
        rounds = set()
        start_cpu, start = _cpu_seconds(child.pid), time.monotonic()
        end = start + seconds
        while time.monotonic() < end:
            msg = phone.recv(timeout=0.2)
            if msg and msg.get("type") == "state":
                view = msg["view"]
                if view["phase"] == "sign" and not view["seats"][0]["ready"]:
                    phone.send({"type": "ready"})  # the only thing this phone ever does
                elif view["phase"] == "pause":
                    screen.send({"type": "next_round"})  # busiest case: no 30 s pauses
                elif view["phase"] == "over":
                    screen.send({"type": "new_game"})
                    screen.send({"type": "start_game"})
                rounds.add(view["round"])
            while screen.recv(timeout=0) is not None:
                pass
        wall = time.monotonic() - start
        cpu = _cpu_seconds(child.pid) - start_cpu
        share = cpu / wall
        print(
            f"host: 7 hard bots + 1 idle phone, {wall:.1f} s real time, {len(rounds)} rounds seen: "
            f"host CPU {cpu:.2f} s = {100 * share:.1f} % of one core — target < 3 %"
        )
        phone.close()
        screen.close()
        return share
    finally:
        if child.stdin:
            try:
                child.stdin.write("\n")
                child.stdin.flush()
            except OSError:
                pass
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sim-games", type=int, default=20)
    parser.add_argument("--jobs-games", type=int, default=200, help="games for the --jobs comparison (0: none)")
    parser.add_argument("--table-games", type=int, default=2000, help="games of the big table (0: none)")
    parser.add_argument("--host-seconds", type=float, default=20.0)
    parser.add_argument("--no-sim", action="store_true")
    parser.add_argument("--no-host", action="store_true")
    parser.add_argument(
        "--breakdown",
        type=int,
        default=0,
        metavar="GAMES",
        help="also split the CPU of that many simulated games into views / bots / engine",
    )
    args = parser.parse_args()
    if not args.no_sim:
        bench_sim(args.sim_games)
        if args.jobs_games:
            bench_jobs(args.jobs_games, args.table_games)
    if args.breakdown:
        bench_breakdown(args.breakdown)
    if not args.no_host:
        bench_host(args.host_seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
