#!/usr/bin/env python3
"""What a hostile guest costs the host: floods, deflate bombs and slowloris, beside a quiet baseline.

    python3 bench/flood.py flood      # 100 flooding sockets: honest swap → TV latency, flooders closed
    python3 bench/flood.py bomb       # 100 deflate-bomb sockets: host RSS before / after
    python3 bench/flood.py slowloris  # 1,000 slowloris connections opened and closed at once
    python3 bench/flood.py doors      # 1,022 idle sockets from 90 addresses held; then 20 that never read

Everything runs on loopback. The host is the real launcher in a child process; the attackers run in
another child process (their threads must not share a GIL with the honest clients being timed), from
the loopback addresses 127.0.0.2 and up: guests of the LAN, not the host machine (127.0.0.1 is the host's
own and is not capped per address).

* **flood**: 8 phones play at their R15 limit (time scale 0.25: a swap every 0.5 s each) and the big screen
  listens; for every accepted swap, the time from the phone's send to the screen's state frame with it.
  First ``--seconds`` quiet, then the same with the flooders: ``--flooders`` sockets over 10 addresses,
  each sending small frames as fast as loopback takes them and connecting again when closed.
  Printed: both p50/p99, their ratio (target p99 ≤ 2× quiet), and how long each flooder's first socket lived
  (target ≤ 3 s).
* **bomb**: ``--bombs`` sockets each offer permessage-deflate and send one 64 KiB frame that would inflate
  to 64 MiB; the host's RSS (``/proc/<pid>/status``) before and 2 s after (target growth < 50 MiB).
* **slowloris**: 8 phones and a screen connected; ``--slow`` connections each send half a request line,
  all at once, then are all closed at once; printed: honest sockets dropped (target 0) and the time a new
  phone takes to connect and get its first state meanwhile and after (target < 1 s).
* **doors**: a lobby with one seated phone (from a guest address) and the big screen; ``--idle`` sockets from
  ``--addresses`` guest addresses (12 at most each) that never say hello, answer nothing, send a pong of their
  own every 4 s, and open again whenever they are closed, for 14 s once all are open (and until the host has
  closed 16 of them for never saying hello, a minute more at most): the door is full. Then the
  time for a new phone from another address to join a seat, for the big screen from 127.0.0.1 to connect and get
  its state (and ``GET /screen``), and for the seated phone, dropped, to get its seat back (target < 1 s each),
  beside the same times before the attack. Then ``--deaf`` sockets that say hello, never read, and send a pong
  of their own every second while the table keeps changing: how long each stays open (target: all closed within
  30 s).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import latency  # noqa: E402
from flood_attackers import ADDRESSES  # noqa: E402
from flood_sides import Host, Lobby, _attack, _attack_result, _say, _time_to_first_state  # noqa: E402


def run_flood(count: int, seconds: float, scale: float = 0.25) -> dict[str, Any]:
    """Quiet then flooded, in one run: the screen's latencies for both, and what became of the flooders."""
    host = Host(scale)
    try:
        host.play(seconds, scale)
        quiet_end = len(host.sent)
        attack = _attack("flood", host.port, count, seconds + 1.0)
        time.sleep(0.3)
        host.play(seconds, scale)
        result = _attack_result(attack)
        time.sleep(0.3)
        return {
            "quiet": host.latencies(0, quiet_end),
            "flooded": host.latencies(quiet_end, len(host.sent)),
            "attack": result,
            "honest_dropped": host.dropped(),
        }
    finally:
        host.close()


def run_bomb(count: int) -> dict[str, Any]:
    """Host RSS before and after ``count`` deflate bombs (the host as in a game: 4 phones in play)."""
    host = Host(0.25, seats=4)
    try:
        time.sleep(0.5)
        before = host.rss_kib()
        attack = _attack("bomb", host.port, count, 3.0)
        time.sleep(2.5)
        during = host.rss_kib()
        result = _attack_result(attack)
        return {"before_kib": before, "during_kib": during, "attack": result, "honest_dropped": host.dropped()}
    finally:
        host.close()


def run_slowloris(count: int) -> dict[str, Any]:
    """``count`` slowloris connections opened, held, closed at once; honest sockets and a new phone meanwhile.

    "During" is measured once all are open and before they are told to close, so ``served_while_held`` says whether
    the new phone got its state while every slowloris socket was open (a server whose workers they tie up serves it
    only after they close)."""
    host = Host(1.0)
    try:
        quiet = _time_to_first_state(host.port)
        attack = _attack("slowloris", host.port, count, 60.0)
        assert attack.stdout is not None and attack.stdin is not None
        opened = attack.stdout.readline()
        during = _time_to_first_state(host.port)
        served_while_held = attack.poll() is None
        attack.stdin.write("close\n")
        attack.stdin.flush()
        result = _attack_result(attack)  # they were all closed at once
        after = _time_to_first_state(host.port)
        time.sleep(1.0)
        later = _time_to_first_state(host.port)
        return {
            "connect_quiet": quiet,
            "connect_during": during,
            "connect_after_close": after,
            "connect_later": later,
            "opened_line": opened.strip(),
            "served_while_held": served_while_held and result["closed_when_told"],
            "attack": result,
            "honest_dropped": host.dropped(),
        }
    finally:
        host.close()


def run_doors(idle: int, addresses: int, deaf_count: int) -> dict[str, Any]:
    """The door held by ``idle`` sockets from ``addresses`` addresses: the honest times, quiet then with the door
    full; then ``deaf_count`` sockets that never read: how long they stay."""
    lobby = Lobby()
    try:
        return _doors(lobby, idle, addresses, deaf_count)
    except Exception as exc:
        # Whether the host is still there says which side failed (its exit code: a signal that killed it).
        raise RuntimeError(f"the host child's exit code: {lobby.proc.poll()} (None: still running)") from exc
    finally:
        lobby.close()


def _doors(lobby: Lobby, idle: int, addresses: int, deaf_count: int) -> dict[str, Any]:
    """The body of :func:`run_doors`, on a host already started."""
    quiet = lobby.times()
    hold = 14.0
    attack = _attack("idle", lobby.port, idle, addresses, hold, 16)  # held 14 s, and until 16 were closed
    assert attack.stdout is not None
    said: list[int] = []
    said_json: list[str] = []
    out = attack.stdout

    def listen() -> None:
        for line in out:
            (said.append(int(line.split()[1])) if line.startswith("OPEN ") else said_json.append(line))

    reader = threading.Thread(target=listen, daemon=True)
    reader.start()
    latency._wait(lambda: bool(said), timeout=60)  # all open: the door is full
    open_then = said[-1]
    _say(f"door full ({open_then} idle sockets open)")
    held = lobby.times()
    held_while_full = attack.poll() is None  # the idle sockets still held the door when the last one got in
    _say(f"door full: {held}")
    # Held until the host closed 16 for never saying hello (they came again), a minute more at most, then closed a
    # few at a time (5 ms each): the attackers' own bounds (bench/flood_attackers.py idlers), waited for in full.
    attack.wait(timeout=hold + 60.0 + idle * 0.005 + 10.0)
    reader.join(5)
    attack_summary = json.loads(said_json[-1])
    deaf_attack = _attack("deaf", lobby.port, deaf_count, 30.0)
    end = time.monotonic() + 31.0
    while deaf_attack.poll() is None and time.monotonic() < end:
        lobby.change()  # the table keeps talking: what the deaf sockets do not read piles up
        time.sleep(0.25)
    deaf_result = _attack_result(deaf_attack)
    return {
        "quiet": quiet,
        "held": held,
        "held_while_full": held_while_full,
        "open_then": open_then,
        "attack": attack_summary,
        "deaf": deaf_result["lived"],
        "honest_dropped": int(lobby.seated.closed) + int(not lobby.screen.ws.connected),
    }


def _ms(samples: list[float]) -> str:
    if not samples:
        return "(no samples)"
    p50, p99, mx = latency._percentiles(samples)
    return f"n={len(samples):<4} p50 {p50:7.2f} ms  p99 {p99:7.2f} ms  max {mx:7.2f} ms"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", nargs="?", choices=("flood", "bomb", "slowloris", "doors", "all"), default="all")
    ap.add_argument("--seconds", type=float, default=5.0, help="quiet and flooded measuring time each (default 5)")
    ap.add_argument("--flooders", type=int, default=100)
    ap.add_argument("--bombs", type=int, default=100)
    ap.add_argument("--slow", type=int, default=1000)
    ap.add_argument("--idle", type=int, default=1022)
    ap.add_argument("--addresses", type=int, default=90)
    ap.add_argument("--deaf", type=int, default=20)
    args = ap.parse_args(argv)
    ok = True
    print(f"loopback, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    if args.what in ("flood", "all"):
        r = run_flood(args.flooders, args.seconds)
        quiet, flooded = r["quiet"], r["flooded"]
        a = r["attack"]
        print(f"flood: {args.flooders} flooding sockets over {len(ADDRESSES)} addresses, reconnecting when closed")
        print(f"  honest swap -> screen, quiet:   {_ms(quiet)}")
        print(f"  honest swap -> screen, flooded: {_ms(flooded)}")
        if quiet and flooded:
            ratio = latency._percentiles(flooded)[1] / latency._percentiles(quiet)[1]
            print(f"  flooded p99 / quiet p99 = {ratio:.2f} (target <= 2)")
            ok &= ratio <= 2.0
        print(
            f"  {a['sockets']} flooding sockets got in ({a['flooders_in']} of the {args.flooders} flooders), the "
            f"longest lived {a['lived_max']:.2f} s (target <= 3 s); {a['refused']} connections refused at the door "
            f"(address over its cap or banned); honest sockets dropped {r['honest_dropped']}"
        )
        ok &= a["lived_max"] <= 3.0 and a["still_open"] == 0 and r["honest_dropped"] == 0
    if args.what in ("bomb", "all"):
        r = run_bomb(args.bombs)
        grew = (r["during_kib"] - r["before_kib"]) / 1024
        print(
            f"bomb: {r['attack']['sent']} sockets x {r['attack']['bytes_each']} bytes inflating to 64 MiB each; "
            f"deflate accepted by {r['attack']['deflate_accepted']}; host RSS {r['before_kib'] / 1024:.1f} -> "
            f"{r['during_kib'] / 1024:.1f} MiB (+{grew:.1f} MiB, target < 50); honest dropped {r['honest_dropped']}"
        )
        ok &= grew < 50 and r["honest_dropped"] == 0
    if args.what in ("slowloris", "all"):
        r = run_slowloris(args.slow)
        print(
            f"slowloris: {r['attack']['opened']} of {args.slow} connections opened; a new phone's first state: "
            f"quiet {r['connect_quiet'] * 1000:.0f} ms, during {r['connect_during'] * 1000:.0f} ms, "
            f"right after all closed {r['connect_after_close'] * 1000:.0f} ms, 1 s later "
            f"{r['connect_later'] * 1000:.0f} ms (target < 1 s); honest sockets dropped {r['honest_dropped']}"
        )
        ok &= max(r["connect_during"], r["connect_after_close"], r["connect_later"]) < 1.0 and r["honest_dropped"] == 0
    if args.what in ("doors", "all"):
        r = run_doors(args.idle, args.addresses, args.deaf)
        a = r["attack"]
        print(
            f"doors: {args.idle} idle sockets from {args.addresses} addresses, opening again when closed "
            f"for 14 s once full ({a['opened']} opened, {a['closed_by_host']} closed by the host for never saying "
            f"hello, "
            f"{a['refused']} refused at the door; {r['open_then']} open when measured)"
        )
        for what in ("new_phone", "tv", "tv_page", "seated_back"):
            q, h = (r[k][what] * 1000 for k in ("quiet", "held"))
            print(f"  {what:12} quiet {q:6.0f} ms   door full {h:6.0f} ms   ratio {h / q:5.2f}")
        worst = max(r["held"][what] for what in ("new_phone", "tv", "tv_page", "seated_back"))
        print(
            f"  worst {worst * 1000:.0f} ms (target < 1000 ms; a guest phone connected in {r['held']['tries']} "
            f"tries, as its page does); served while the door was full: {r['held_while_full']}; "
            f"honest sockets dropped {r['honest_dropped']}"
        )
        lived = [x for x in r["deaf"] if x is not None]
        print(
            f"  {args.deaf} sockets that never read: {len(lived)} closed, after {min(lived, default=0):.1f} to "
            f"{max(lived, default=0):.1f} s (target: all within 30 s)"
        )
        ok &= worst < 1.0 and r["honest_dropped"] == 0 and len(lived) == args.deaf and max(lived) <= 30.0
    print("all targets met" if ok else "SOME TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
