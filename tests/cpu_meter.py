"""Where the suite's CPU goes: a pytest plugin that charges each test the processor time its worker and every
process under it spent while it ran (its browsers, servers, pools and subprocesses), read from ``/proc``.

Wall-clock durations say little on a busy 2-core machine: a test waits for the processor as much as it uses it, and
the same test takes 2 s alone and 30 s beside three others. Processor seconds add up: their sum over the suite,
halved, is the least a run can take on two cores. Linux only (``/proc``); elsewhere it records nothing.

    python3 launcher.py test -p tests.cpu_meter            # then: python3 -m tests.cpu_meter
    QUATRO_CPU_REPORT=/tmp/cpu.jsonl python3 launcher.py test -p tests.cpu_meter

Each test adds a JSON line ``{"test", "cpu", "wall", "start", "worker"}`` to the report (default
``cpu-report.jsonl`` in the repository, ignored by git); ``python3 -m tests.cpu_meter [report]`` sums it per file,
largest first, and says when each worker ended its last test.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

REPORT = Path(os.environ.get("QUATRO_CPU_REPORT") or Path(__file__).resolve().parents[1] / "cpu-report.jsonl")
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: str) -> tuple[int, float] | None:
    """(parent pid, user+system seconds of the process and of its children it has waited for)."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    fields = raw[raw.rindex(b")") + 2 :].split()  # the name may hold spaces and parentheses
    utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
    return int(fields[1]), (utime + stime + cutime + cstime) / _TICK


def tree_cpu(root: int) -> float:
    """Processor seconds of ``root`` and of every live process under it (with their waited-for children)."""
    procs = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            found = _stat(entry)
            if found:
                procs[int(entry)] = found
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in procs.items():
        children.setdefault(ppid, []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        if pid in procs:
            total += procs[pid][1]
        todo.extend(children.get(pid, ()))
    return total


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    if not Path("/proc/self/stat").exists():
        yield
        return
    me = os.getpid()
    cpu, start = tree_cpu(me), time.time()
    yield
    # A session fixture torn down after the last test (a browser) leaves the tree without its parent waiting for it:
    # its seconds vanish from the sum. They were charged to the tests that ran it; this test gets none of them back.
    spent = max(0.0, tree_cpu(me) - cpu)
    line = {
        "test": item.nodeid,
        "cpu": round(spent, 2),
        "wall": round(time.time() - start, 2),
        "start": round(start, 2),
        "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
    }
    with REPORT.open("ab") as out:  # one short append per test: lines from parallel workers do not interleave
        out.write(json.dumps(line).encode() + b"\n")


def summary(report: Path) -> str:
    """The report summed per file: processor seconds, wall seconds, tests; largest first."""
    cpu: Counter[str] = Counter()
    wall: Counter[str] = Counter()
    count: Counter[str] = Counter()
    for raw in report.read_bytes().splitlines():
        line = json.loads(raw)
        name = line["test"].split("::")[0]
        cpu[name] += line["cpu"]
        wall[name] += line["wall"]
        count[name] += 1
    rows = [
        f"{'cpu s':>8} {'wall s':>8} {'tests':>5}  file",
        *(f"{c:8.1f} {wall[n]:8.1f} {count[n]:5d}  {n}" for n, c in cpu.most_common()),
    ]
    rows.append(f"{sum(cpu.values()):8.1f} {sum(wall.values()):8.1f} {sum(count.values()):5d}  in all")
    return "\n".join(rows + timeline(report))


def timeline(report: Path) -> list[str]:
    """When each worker ended its last test, from the run's first start: the run's tail is the spread."""
    lines = [json.loads(raw) for raw in report.read_bytes().splitlines()]
    if not lines or "start" not in lines[0]:
        return []
    first = min(line["start"] for line in lines)
    ends: dict[str, float] = {}
    for line in lines:
        ends[line["worker"]] = max(ends.get(line["worker"], 0.0), line["start"] + line["wall"] - first)
    return [f"{w}: last test ended at {e:.0f} s" for w, e in sorted(ends.items(), key=lambda x: x[1])]


if __name__ == "__main__":
    print(summary(Path(sys.argv[1]) if len(sys.argv) > 1 else REPORT))
