"""The honest side of ``bench/flood.py``: a phone on a guest address, the host in play, the lobby at the door, and
the attackers started as a child process."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import latency  # noqa: E402
from flood_attackers import frame, handshake  # noqa: E402


class GuestPhone:
    """An honest phone on a guest address (a raw socket from ``source``): it reads every frame and echoes every ping
    as a browser does."""

    def __init__(self, port: int, source: str, path: str = "/ws/phone") -> None:
        self.sock, head = handshake(port, source, path)
        self.sock.settimeout(None)
        self.messages: list[dict[str, Any]] = []
        self._buf = head.split(b"\r\n\r\n", 1)[1]
        self._lock = threading.Lock()
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()

    @classmethod
    def like_a_page(cls, port: int, source: str, tries: list[int]) -> GuestPhone:
        """Connect as the phone's page does (web/common/socket.js): refused, it tries again after 0.5, 1, 2, 4 and
        8 s. A full door refuses a newcomer while every socket it could push out is in its first half second
        (Limits.hello_grace); ``tries`` gets the number of attempts."""
        for attempt, delay in enumerate((0.5, 1.0, 2.0, 4.0, 8.0, None), start=1):
            try:
                phone = cls(port, source)
            except OSError:
                if delay is None:
                    raise
                time.sleep(delay)
                continue
            tries.append(attempt)
            return phone
        raise AssertionError("unreachable")

    def _read(self) -> None:
        buf = self._buf
        try:
            while True:
                while True:  # every whole frame in buf
                    if len(buf) < 2:
                        break
                    op, size, at = buf[0] & 0x0F, buf[1] & 0x7F, 2
                    if size == 126:
                        size, at = int.from_bytes(buf[2:4], "big"), 4
                    elif size == 127:
                        size, at = int.from_bytes(buf[2:10], "big"), 10
                    if len(buf) < at + size:
                        break
                    payload, buf = buf[at : at + size], buf[at + size :]
                    if op == 0x1:
                        self.messages.append(json.loads(payload))
                    elif op == 0x9:
                        self._send_raw(frame(payload, opcode=0xA))  # the echo a browser sends
                    elif op == 0x8:
                        raise ConnectionError("closed by the host")
                data = self.sock.recv(65536)
                if not data:
                    raise ConnectionError("closed")
                buf += data
        except OSError:
            self.closed = True

    def _send_raw(self, data: bytes) -> None:
        with self._lock:
            self.sock.sendall(data)

    def send(self, msg: dict[str, Any]) -> None:
        self._send_raw(frame(json.dumps(msg).encode()))

    def wait(self, pred: Any, timeout: float = 5.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        seen = 0
        while time.monotonic() < end:
            for m in self.messages[seen:]:
                if pred(m):
                    return m
            seen = len(self.messages)
            time.sleep(0.005)
        raise TimeoutError("no such message")

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def _attack(kind: str, port: int, *args: float) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "flood_attackers.py"), kind, str(port), *map(str, args)],
        stdin=subprocess.PIPE,  # the slowloris closes its sockets when told
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def _attack_result(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, _ = proc.communicate(timeout=120)
    return json.loads(out.strip().splitlines()[-1])


class Host:
    """The real launcher (child process) with 8 phones seated and in play, and its big screen listening."""

    def __init__(self, scale: float, seats: int = 8) -> None:
        # Its own state folder: a benchmark never touches the user's table (journal, lock).
        os.environ.setdefault("QUATRO_STATE_DIR", tempfile.mkdtemp(prefix="quatro-bench-"))
        self.proc, out = latency._start_child(
            ["-m", "quatro_party.launch", "--port", "0", "--bind", "127.0.0.1", "--no-browser", "--no-mdns"]
            + ["--quiet", "--fresh", "--seats", str(seats), "--seed", "1", "--time-scale", str(scale)]
        )
        self.port = int(re.search(r"Port (\d+)", out).group(1))
        secret = re.search(r"#host=(\S+)", out).group(1)
        base = f"ws://127.0.0.1:{self.port}"
        self.screen = latency.Listener(base + "/ws/screen")
        self.screen.send(json.dumps({"type": "hello", "host": secret}))
        self.phones = [latency.Listener(base + "/ws/phone") for _ in range(seats)]
        for seat, ph in enumerate(self.phones):
            ph.send(json.dumps({"type": "hello", "token": None}))
            ph.send(json.dumps({"type": "join", "seat": seat, "name": f"P{seat}"}))
        latency._wait(lambda: all('"you"' in ph.latest for ph in self.phones))
        self.screen.send(json.dumps({"type": "start_game"}))
        latency._wait(lambda: all('"phase":"sign"' in ph.latest for ph in self.phones))
        for ph in self.phones:
            ph.send(json.dumps({"type": "ready"}))
        latency._wait(lambda: all('"phase":"play"' in ph.latest for ph in self.phones))
        self.everyone = [self.screen, *self.phones]
        self.sent: list[tuple[str, float]] = []

    def rss_kib(self) -> int:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))

    def swap(self, n: int) -> None:
        """Phone ``n % seats`` swaps one of its cards with the centre, from its own view (as bench/latency)."""
        seat = n % len(self.phones)
        view = latency._latest_view(self.phones[seat])
        if view is None or view["phase"] != "play":
            return
        place = seat % 4
        card = view["you"]["hand"][n // len(self.phones) % 4]["id"]
        key = f'"type":"swapped","seat":{seat},"place":{place},"put":{{"id":{card},'
        msg = {"type": "swap", "card": card, "place": place, "expected": view["centre"][place]["id"]}
        self.sent.append((key, self.phones[seat].send(json.dumps(msg))))

    def play(self, seconds: float, scale: float) -> None:
        """Every phone swaps at its R15 limit for ``seconds``."""
        step = 2.0 * scale / len(self.phones)
        start = time.perf_counter()
        n = 0
        while True:
            at = start + n * step + 0.03 * (n // len(self.phones))
            if at > start + seconds:
                return
            time.sleep(max(0.0, at - time.perf_counter()))
            self.swap(len(self.sent) + n)
            n += 1

    def latencies(self, first: int, last: int) -> list[float]:
        """Swap → screen, for the swaps sent[first:last] that were accepted."""
        found = []
        for i in range(first, last):
            key, t0 = self.sent[i]
            until = next((t for k, t in self.sent[i + 1 :] if k == key), float("inf"))
            t = next((t for t, text in self.screen.frames if t0 <= t < until and key in text), None)
            if t is not None:
                found.append(t - t0)
        return found

    def dropped(self) -> int:
        return sum(not lst.ws.connected for lst in self.everyone)

    def close(self) -> None:
        for lst in self.everyone:
            lst.close()
        latency._stop_child(self.proc)


def _time_to_first_state(port: int) -> float:
    t0 = time.perf_counter()
    phone = latency.Listener(f"ws://127.0.0.1:{port}/ws/phone")
    phone.send(json.dumps({"type": "hello", "token": None}))
    latency._wait(lambda: any(text.startswith('{"type":"state"') for _, text in phone.frames), timeout=10)
    took = time.perf_counter() - t0
    phone.close()
    return took


class Lobby:
    """The real launcher (child process) with 8 seats in the lobby, its big screen (127.0.0.1) listening, and one
    phone seated from a guest address."""

    def __init__(self) -> None:
        os.environ.setdefault("QUATRO_STATE_DIR", tempfile.mkdtemp(prefix="quatro-bench-"))
        self.proc, out = latency._start_child(
            ["-m", "quatro_party.launch", "--port", "0", "--bind", "127.0.0.1", "--no-browser", "--no-mdns"]
            + ["--quiet", "--fresh", "--seats", "8", "--seed", "1"]
        )
        self.port = int(re.search(r"Port (\d+)", out).group(1))
        self.secret = re.search(r"#host=(\S+)", out).group(1)
        self.screen = self.tv()
        self.seated = GuestPhone(self.port, "127.0.0.201")
        self.seated.send({"type": "hello", "token": None})
        self.seated.send({"type": "join", "seat": 0, "name": "Sam"})
        self.token = self.seated.wait(lambda m: m["type"] == "joined")["token"]
        self.joined = 0

    def tv(self) -> Any:
        screen = latency.Listener(f"ws://127.0.0.1:{self.port}/ws/screen")
        screen.send(json.dumps({"type": "hello", "host": self.secret}))
        return screen

    def times(self) -> dict[str, float]:  # seconds each, and "tries": the most attempts a phone needed
        """A new phone joins; the big screen connects (and loads its page); the seated phone drops and comes back."""
        import urllib.request

        self.joined += 1
        t0 = time.perf_counter()
        tries: list[int] = []
        phone = GuestPhone.like_a_page(self.port, f"127.0.0.{201 + self.joined}", tries)
        phone.send({"type": "hello", "token": None})
        phone.send({"type": "join", "seat": self.joined, "name": f"New {self.joined}"})
        phone.wait(lambda m: m["type"] == "joined")
        new_phone = time.perf_counter() - t0
        _say(f"new phone {new_phone:.3f} s")
        t0 = time.perf_counter()
        screen = self.tv()
        latency._wait(lambda: any(text.startswith('{"type":"state"') for _, text in screen.frames), timeout=10)
        tv = time.perf_counter() - t0
        screen.close()
        t0 = time.perf_counter()
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/screen", timeout=10) as page:
            page.read()
        tv_page = time.perf_counter() - t0
        self.seated.close()
        t0 = time.perf_counter()
        self.seated = GuestPhone.like_a_page(self.port, "127.0.0.201", tries)
        self.seated.send({"type": "hello", "token": self.token})
        self.seated.wait(lambda m: m["type"] == "joined" and m.get("seat") == 0)
        back = time.perf_counter() - t0
        return {"new_phone": new_phone, "tv": tv, "tv_page": tv_page, "seated_back": back, "tries": max(tries)}

    def change(self) -> None:
        """A change every phone gets a fresh view of (the bots' level, back and forth)."""
        self.flip = not getattr(self, "flip", False)
        level = "easy" if self.flip else "hard"
        self.screen.send(json.dumps({"type": "settings", "bot_level": level}))

    def close(self) -> None:
        self.seated.close()
        self.screen.close()
        latency._stop_child(self.proc)


def _say(text: str) -> None:
    print(f"  ... {text}", file=sys.stderr, flush=True)
