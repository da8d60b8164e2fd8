"""The two servers ``bench/latency.py`` measures side by side, each in a child process, and their clients.

* :class:`HostSide` — the real host (``quatro_party.launch``, 8 seats, its journal on) with 8 seated phones in
  play and the other sockets as big screens.
* :class:`RelaySide` — the bare relay (``bench/latency_relay.py``) with as many sockets.

Each side keeps what it sent (a key to find in the frames, and the time); :meth:`Side.latencies` matches the
frames every socket received against it.
"""

from __future__ import annotations

import bisect
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from latency_clients import Client, Listener, Reader
from latency_relay import TAG

ROOT = Path(__file__).resolve().parents[1]
PHONES = 8
TIME_SCALE = 0.1  # R15's 2 s cooldown becomes 0.2 s: about 35 swaps a second for the 8 phones


def _start_child(args: list[str], env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str]:
    # QUATRO_BENCH_CHILD_LOG=<file>: the child's stderr (its log, a traceback) goes there instead of nowhere.
    log = os.environ.get("QUATRO_BENCH_CHILD_LOG")
    proc = subprocess.Popen(
        [sys.executable, "-X", "faulthandler", *args],  # a crash in C code still leaves its threads' stacks
        stdout=subprocess.PIPE,
        stderr=open(log, "ab") if log else subprocess.DEVNULL,  # noqa: SIM115 - the child owns it from here
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
        self.proc, out = _start_child([str(Path(__file__).resolve().with_name("latency_relay.py")), frames_path])
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
