"""A guest with many addresses cannot lock the room out, and a socket that stops reading does not stay.

Real sockets from 90 loopback addresses against the real launcher in a child process, through ``bench/flood.py
doors`` (the benchmark prints the figures beside those of a quiet table; this test checks what must hold): with
1,022 idle sockets held (none says hello; each sends a pong of its own every 4 s and comes again when closed), a
new phone joins a seat, the big screen connects from the host machine and gets its state, and a seated phone
that dropped gets its seat back, all while the door is full, each phone at its page's first retry at the latest;
the host closes the sockets that never said hello (16 a second at most: a thousand ended at once would stall it);
then 20 sockets that say hello, never read and keep sending pongs of their own are all closed within 30 s.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_flood", ROOT / "bench" / "flood.py")
assert _spec is not None and _spec.loader is not None
flood = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(flood)


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_1022_idle_sockets_from_90_addresses_lock_nobody_out_and_deaf_sockets_go(tmp_path, monkeypatch):
    log = tmp_path / "host.stderr"
    monkeypatch.setenv("QUATRO_BENCH_CHILD_LOG", str(log))  # the host's own stderr: its last words if it dies
    state = tmp_path / "state"
    monkeypatch.setenv("QUATRO_STATE_DIR", str(state))  # and its log file (host.log): when it dropped whom
    try:
        r = flood.run_doors(1022, 90, 20)
    except Exception:
        print("the host's stderr, last 6,000 bytes:\n" + log.read_bytes()[-6000:].decode(errors="replace"))
        said = state / "host.log"
        if said.exists():
            print("its log, last 12,000 bytes:\n" + said.read_bytes()[-12000:].decode(errors="replace"))
        raise
    print(json.dumps(r))
    assert r["open_then"] >= 1000, r["open_then"]  # the door was full when the honest ones came
    # A new phone, the big screen, its page, a seated phone back: all served while the idle sockets held the door
    # (how long each took is the bench's figure, beside the quiet table's; a bound in seconds would measure the
    # machine: this one is shared and often loaded 20-fold).
    assert r["held_while_full"], r["held"]
    # Each got in by its page's first retry at the latest (0.5 s on): the sockets that never say hello are kept
    # from newcomers for their first half second only (Limits.hello_grace). While that was 2 s, a new phone coming
    # right after the door filled was refused twice (3 tries, 1.5 s).
    assert r["held"]["tries"] <= 2, r["held"]
    assert r["attack"]["closed_by_host"] >= 16  # the host closes the sockets that never say hello (a few a second)
    assert r["honest_dropped"] == 0
    assert all(x is not None and x <= 30.0 for x in r["deaf"]), r["deaf"]
