#!/usr/bin/env python3
"""The attackers of ``bench/flood.py``: raw WebSocket clients from guest loopback addresses, run in a child process
of their own (their threads must not share a GIL with the honest clients being timed)."""

from __future__ import annotations

import base64
import json
import os
import socket
import sys
import threading
import time
import zlib
from typing import Any

ADDRESSES = [f"127.0.0.{i}" for i in range(2, 12)]  # ten guests' addresses, all loopback


# --- raw WebSocket clients (the attackers) -----------------------------------------------------------


def handshake(
    port: int, source: str, path: str = "/ws/phone", deflate: bool = False, timeout: float = 5.0
) -> tuple[socket.socket, bytes]:
    """A TCP socket from ``source`` that did the WebSocket handshake, and the answer's head; OSError if refused."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    ext = "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n" if deflate else ""
    s.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{ext}\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            s.close()
            raise ConnectionError("closed during the handshake")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        s.close()
        raise ConnectionError(head.split(b"\r\n")[0].decode(errors="replace"))
    return s, head


def frame(payload: bytes, opcode: int = 1, rsv1: bool = False) -> bytes:
    """One masked client frame (mask zero: the XOR leaves the payload as it is)."""
    b0 = 0x80 | (0x40 if rsv1 else 0) | opcode
    n = len(payload)
    if n < 126:
        head = bytes([b0, 0x80 | n])
    elif n < 65536:
        head = bytes([b0, 0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([b0, 0x80 | 127]) + n.to_bytes(8, "big")
    return head + b"\0\0\0\0" + payload


def flooders(port: int, count: int, seconds: float) -> dict[str, Any]:
    """``count`` flooders over :data:`ADDRESSES` for ``seconds``, each connecting again whenever it is closed or
    refused: how long each socket that got in lived, how many got in, how many were refused at the door."""
    blob = frame(b'{"type":"ready"}') * 4000  # ~90 KB of small frames per send
    lived: list[list[float]] = [[] for _ in range(count)]
    refused = [0] * count
    # The flood lasts ``seconds``: the caller times its honest swaps inside that span, and a flooder the host
    # never closed lives until the end and counts as still open.
    stop = time.monotonic() + seconds

    def one(i: int) -> None:
        source = ADDRESSES[i % len(ADDRESSES)]
        while time.monotonic() < stop:
            try:
                s, _ = handshake(port, source)
            except OSError:
                refused[i] += 1
                time.sleep(0.05)
                continue
            t0 = time.monotonic()
            s.settimeout(1.0)
            try:
                while time.monotonic() < stop:
                    s.sendall(blob)
            except OSError:
                pass
            lived[i].append(time.monotonic() - t0)
            s.close()

    threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 10)
    every = [x for xs in lived for x in xs]
    return {
        "lived_max": max(every, default=0.0),
        "sockets": len(every),
        "flooders_in": sum(1 for xs in lived if xs),
        "refused": sum(refused),
        "still_open": sum(1 for xs in lived for x in xs if x >= seconds - 0.5),
    }


def bombs(port: int, count: int, hold: float) -> dict[str, Any]:
    """``count`` sockets that each send one deflate frame inflating to 64 MiB, held open for ``hold`` s."""
    bomb = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = bomb.compress(b"\0" * (64 * 1024 * 1024)) + bomb.flush(zlib.Z_SYNC_FLUSH)
    data = data[:-4]  # permessage-deflate drops the 00 00 ff ff tail
    socks, accepted_deflate, errors = [], 0, 0
    for i in range(count):
        try:
            s, head = handshake(port, ADDRESSES[i % len(ADDRESSES)], deflate=True)
        except OSError:
            errors += 1
            continue
        if b"permessage-deflate" in head.lower():
            accepted_deflate += 1
        try:
            s.sendall(frame(data, rsv1=True))
        except OSError:
            errors += 1
        socks.append(s)
    time.sleep(hold)
    for s in socks:
        s.close()
    return {"sent": len(socks), "deflate_accepted": accepted_deflate, "bytes_each": len(data), "errors": errors}


def slowloris(port: int, count: int, hold: float) -> dict[str, Any]:
    """``count`` connections that send half a request line and stall, then all close at once: when a line comes on
    stdin, or after ``hold`` seconds. Prints ``OPEN <n>`` once all are open; the last line is a JSON summary.

    Closing on demand lets the caller measure "during" while every socket is certainly still held, however slow a
    loaded machine is to open a thousand of them."""
    told = threading.Event()

    def listen() -> None:
        sys.stdin.readline()
        told.set()

    threading.Thread(target=listen, daemon=True).start()
    socks = []
    for i in range(count):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(ADDRESSES[i % 10], 0))
            s.send(b"GET / HTTP/1.1\r\nHost: x\r\nX-a: ")
            socks.append(s)
        except OSError:
            pass
    print(f"OPEN {len(socks)}", flush=True)
    closed_when_told = told.wait(hold)
    for s in socks:
        s.close()
    return {"opened": len(socks), "closed_when_told": closed_when_told}


def _open_or_none(port: int, source: str) -> socket.socket | None:
    try:
        s, _ = handshake(port, source, timeout=2.0)
    except OSError:
        return None
    s.setblocking(False)
    return s


def idlers(port: int, count: int, addresses: int, seconds: float, min_closed: int = 0) -> dict[str, Any]:
    """``count`` idle sockets over ``addresses`` guest addresses, held ``seconds`` once all are open: none says
    hello, each sends a pong of its own every 4 s, and a closed one is opened again. Prints ``OPEN <n>`` lines as
    it goes (the first once all are open); the last line is a JSON summary.

    The hold counts from the door being full, not from the first socket: on a loaded machine opening a thousand
    sockets can take longer than the host's hello grace, and a hold that ended meanwhile saw no socket closed."""
    sources = [f"127.0.0.{2 + i % addresses}" for i in range(count)]
    socks: list[socket.socket | None] = [None] * count
    pong = frame(b"", opcode=0xA)
    # Bounded all the same: the door never full within a minute is a result too.
    stop = time.monotonic() + 60.0 + seconds
    opened = refused = closed = most = 0
    ready = False
    next_pong = [0.0] * count
    last_said = 0.0
    hard_stop = stop
    # Held until the host has closed ``min_closed`` of them too (a minute more at most): a loaded host may take
    # longer than the hold to get round to its first drops, and a hold that ended meanwhile saw none.
    while time.monotonic() < stop or (ready and closed < min_closed and time.monotonic() < hard_stop):
        now = time.monotonic()
        for i in range(count):
            s = socks[i]
            if s is None:
                s = socks[i] = _open_or_none(port, sources[i])
                if s is None:
                    refused += 1
                    continue
                opened += 1
                next_pong[i] = now + 4.0
            try:
                while s.recv(65536):  # pings and all: read and dropped (an idle socket, not a deaf one)
                    pass
                gone = True  # b"": the host closed it
            except BlockingIOError:
                gone = False
            except OSError:
                gone = True
            if not gone and now >= next_pong[i]:
                try:
                    s.send(pong)
                    next_pong[i] = now + 4.0
                except BlockingIOError:
                    pass
                except OSError:
                    gone = True
            if gone:
                s.close()
                socks[i] = None
                closed += 1
        live = sum(x is not None for x in socks)
        most = max(most, live)
        if (live == count and not ready) or (ready and now - last_said >= 0.5):
            if not ready:
                stop = min(stop, now + seconds)
                hard_stop = now + seconds + 60.0
            ready = True
            last_said = now
            print(f"OPEN {live}", flush=True)
        time.sleep(0.05)
    for s in socks:  # a few at a time: a thousand closed at once is another attack (see the host's notes)
        if s is not None:
            s.close()
            time.sleep(0.005)
    return {"opened": opened, "refused": refused, "closed_by_host": closed, "most_open": most}


def deaf(port: int, count: int, seconds: float) -> dict[str, Any]:
    """``count`` sockets (4 per address) that say hello and never read again, each sending a pong of its own every
    second: how long each stayed open (``None``: still open after ``seconds`` and a minute more)."""
    socks = []
    for i in range(count):
        s, _ = handshake(port, f"127.0.0.{150 + i // 4}", timeout=30.0)
        s.sendall(frame(b'{"type": "hello", "token": null}'))
        socks.append((s, time.monotonic()))
    lived: list[float | None] = [None] * count
    pong = frame(b"", opcode=0xA)
    # Watched a minute past the target, so a socket that stays too long gets a figure, not just "too long"; the
    # watch ends as soon as every socket is closed.
    stop = time.monotonic() + 60.0 + seconds
    while time.monotonic() < stop and any(x is None for x in lived):
        for i, (s, t0) in enumerate(socks):
            if lived[i] is not None:
                continue
            try:
                s.settimeout(0.2)
                s.send(pong)
            except TimeoutError:
                pass  # its buffers are full: still open
            except OSError:
                lived[i] = time.monotonic() - t0
        time.sleep(1.0)
    for s, _ in socks:
        s.close()
    return {"lived": lived}


def main(argv: list[str]) -> int:
    """``flood_attackers.py KIND PORT ARGS…``: run one attack in this process and print its summary as JSON."""
    kind, port, *rest = argv
    if kind == "idle":
        closes = int(float(rest[3])) if len(rest) > 3 else 0
        print(
            json.dumps(idlers(int(port), int(float(rest[0])), int(float(rest[1])), float(rest[2]), closes)), flush=True
        )
        return 0
    fn = {"flood": flooders, "bomb": bombs, "slowloris": slowloris, "deaf": deaf}[kind]
    print(json.dumps(fn(int(port), int(float(rest[0])), float(rest[1]))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
