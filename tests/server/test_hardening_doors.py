"""What the door says and to whom: the whole origin compared, the security headers on every answer, refusals
logged once per address, and the documented rights of a watching remote.

Real sockets on loopback; guests connect from 127.0.0.2 and up (the host machine's 127.0.0.1 is not capped).
"""

from __future__ import annotations

import base64
import logging
import os
import socket
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from quatro_party.server.app import create_app
from quatro_party.server.guard import Limits
from quatro_party.server.origin import SECURITY_HEADERS, HostPolicy
from quatro_party.server.serving import ServerThread
from quatro_party.server.testing import TestingTable, WsClient

ROOT = Path(__file__).resolve().parents[2]


def _request(port: int, path: str, method: str = "GET", **headers: str) -> tuple[int, dict[str, str]]:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, dict(resp.headers)
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers)


def _handshake(port: int, origin: str | None, host: str, source: str = "127.0.0.1") -> bytes:
    """The status line and headers of a WebSocket handshake on ``/ws/phone``."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    extra = f"Origin: {origin}\r\n" if origin else ""
    s.sendall(
        (
            f"GET /ws/phone HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            break
        head += chunk
    s.close()
    return head


# --- the origin, whole --------------------------------------------------------------------------------------


@pytest.mark.live_server(public_host="party.test")
def test_the_origin_is_compared_by_scheme_host_and_port(live_server):
    port = live_server.port
    own = f"party.test:{port}"
    assert _handshake(port, f"http://{own}", own).startswith(b"HTTP/1.1 101")
    assert _handshake(port, f"http://127.0.0.1:{port}", f"127.0.0.1:{port}").startswith(b"HTTP/1.1 101")
    for foreign in (
        f"http://party.test:{port + 1}",  # another server of an allowed name (any port used to do)
        f"http://party.test:{port - 1}",
        "http://party.test",  # port 80
        f"https://party.test:{port}",  # another scheme
        f"ws://party.test:{port}",
        f"http://127.0.0.1:{port}",  # a page of another of the host's names than the one it asks
        f"http://user@party.test:{port}",
    ):
        assert _handshake(port, foreign, own).startswith(b"HTTP/1.1 403"), foreign
    # The same on plain requests: a page of another port cannot post to the host.
    status, _ = _request(port, "/seat-link/qr.png", "POST", Origin=f"http://127.0.0.1:{port + 1}")
    assert status == 403


def test_the_policy_compares_the_origin_with_the_host_header():
    policy = HostPolicy(["http://192.168.1.20:8765/"])
    assert policy.origin_ok("http://192.168.1.20:8765", "192.168.1.20:8765")
    assert policy.origin_ok("http://192.168.1.20", "192.168.1.20")  # both port 80
    assert policy.origin_ok("http://[::1]:8765", "[::1]:8765")
    assert not policy.origin_ok("http://192.168.1.20:8766", "192.168.1.20:8765")
    assert not policy.origin_ok("https://192.168.1.20:8765", "192.168.1.20:8765")
    assert not policy.origin_ok("http://localhost:8765", "192.168.1.20:8765")
    assert policy.origin_ok("http://192.168.1.20:8765") and not policy.origin_ok("http://evil.example")  # no Host


# --- headers on every answer --------------------------------------------------------------------------------


def test_every_answer_carries_the_security_headers_405_and_404_too(live_server):
    port = live_server.port
    answers = {
        "GET /": _request(port, "/"),
        "POST / (405)": _request(port, "/", "POST"),
        "DELETE /screen (405)": _request(port, "/screen", "DELETE"),
        "PUT /ws/phone (405)": _request(port, "/ws/phone", "PUT"),
        "GET /nothing (404)": _request(port, "/nothing-here.js"),
        "GET / foreign host (403)": _request(port, "/", Host="evil.example"),
    }
    assert [a[0] for a in answers.values()] == [200, 405, 405, 405, 404, 403]
    for what, (_, headers) in answers.items():
        for name, value in SECURITY_HEADERS.items():
            assert headers.get(name) == value, (what, name)


class _Server:
    def __init__(self, limits: Limits) -> None:
        self.app = create_app({"host_secret": "s", "seed": 1, "table_class": TestingTable})
        self.thread = ServerThread(self.app, "127.0.0.1", 0, limits=limits).start()
        self.port = self.thread.port

    def stop(self) -> None:
        self.thread.stop()


@pytest.fixture
def small_door() -> Any:
    server = _Server(Limits(sockets_per_peer=1))
    yield server
    server.stop()


def test_a_429_carries_the_headers_and_is_logged_once_per_address_at_info(small_door, caplog):
    port = small_door.port
    held = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.2", 0))
    key = base64.b64encode(os.urandom(16)).decode()
    held.sendall(
        (
            f"GET /ws/phone HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    assert held.recv(4096).startswith(b"HTTP/1.1 101")
    with caplog.at_level(logging.DEBUG):
        heads = [_handshake(port, None, f"127.0.0.1:{port}", source="127.0.0.2") for _ in range(5)]
        other = _handshake(port, None, f"127.0.0.1:{port}", source="127.0.0.3")
    held.close()
    assert other.startswith(b"HTTP/1.1 101")
    for head in heads:
        assert head.startswith(b"HTTP/1.1 429")
        for name, value in SECURITY_HEADERS.items():
            assert f"{name}: {value}".encode() in head, name
    told = [r for r in caplog.records if "127.0.0.2" in r.getMessage() and "429" in r.getMessage()]
    assert len(told) == 1 and told[0].levelno == logging.INFO
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# --- the documents say what the code does -------------------------------------------------------------------


def test_the_rules_page_runs_no_inline_script_and_the_threat_model_says_so(live_server):
    page = (ROOT / "web" / "rules.html").read_text("utf-8")
    assert "<script>" not in page.replace(" ", "") and "<script src=" in page
    _, headers = _request(live_server.port, "/rules")
    assert "'unsafe-inline'" not in headers["Content-Security-Policy"]
    doc = (ROOT / "docs" / "protocol.md").read_text("utf-8")
    headers_part = doc.split("## 7. Threat model")[1].split("* **The attacker pays")[0]
    assert "allows its own inline script" not in headers_part and "no page runs an inline script" in headers_part


@pytest.mark.live_server(seats=4)
def test_a_watching_remote_keeps_the_hosts_rights_as_documented(live_server):
    screen = live_server.screen()
    url = screen.host("vip_link")  # the link comes first, then ok
    link = next(m for m in screen.frames if '"vip_link"' in m)
    assert url["type"] == "ok" and "?vip=" in link
    secret = link.split("?vip=")[1].split('"')[0]
    for seat in range(2):
        live_server.phone().join(seat, f"P{seat}")
    assert screen.host("start_game")["type"] == "ok"
    remote: WsClient = live_server.phone(hello=False)
    remote.send({"type": "hello", "token": None, "vip": secret})
    remote.expect("state")
    assert remote.act("watch")["type"] == "ok"
    assert remote.act("pause")["type"] == "ok"  # a spectator, but the host's remote: its controls count
    plain = live_server.phone()
    assert plain.act("watch")["type"] == "ok"
    assert plain.act("resume")["code"] == "not_host"  # a spectator without the remote: not_host
    doc = (ROOT / "docs" / "protocol.md").read_text("utf-8")
    section = doc.split("### 2.1 Phone")[1].split("### 2.2")[0]
    assert "holds the host's remote" in section
