"""The host answers only to its own names, says so in its headers, and refuses what it could not write back."""

from __future__ import annotations

import base64
import json
import os
import socket
import urllib.request

import pytest


def _http(port: int, path: str, host: str | None = None, origin: str | None = None) -> tuple[int, dict[str, str]]:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    if host is not None:
        req.add_header("Host", host)
    if origin is not None:
        req.add_header("Origin", origin)
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, dict(resp.headers)
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers)


def _handshake(port: int, path: str, origin: str | None, host: str | None = None) -> bytes:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    extra = f"Origin: {origin}\r\n" if origin else ""
    s.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {host or f'127.0.0.1:{port}'}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n"
        ).encode()
    )
    head = s.recv(4096)
    s.close()
    return head.split(b"\r\n")[0]


@pytest.mark.live_server(public_host="party.test")
@pytest.mark.parametrize("path", ["/ws/phone", "/ws/screen"])
def test_a_foreign_origin_is_refused_on_both_sockets(live_server, path):
    port = live_server.port
    assert _handshake(port, path, "http://evil.example") == b"HTTP/1.1 403 FORBIDDEN"
    assert _handshake(port, path, "null") == b"HTTP/1.1 403 FORBIDDEN"
    assert _handshake(port, path, f"http://party.test.evil.example:{port}") == b"HTTP/1.1 403 FORBIDDEN"
    for ok in (f"party.test:{port}", f"127.0.0.1:{port}", f"localhost:{port}"):  # a page of the host asks its own
        assert _handshake(port, path, f"http://{ok}", host=ok) == b"HTTP/1.1 101 Switching Protocols", ok
    assert _handshake(port, path, None) == b"HTTP/1.1 101 Switching Protocols"


@pytest.mark.live_server(public_host="party.test")
def test_a_foreign_host_gets_403_on_the_pages(live_server):
    port = live_server.port
    for path in ("/", "/screen", "/rules", "/phone.js", "/qr.png", "/info.json"):
        assert _http(port, path, host=f"evil.example:{port}")[0] == 403, path
        assert _http(port, path, host=f"party.test:{port}")[0] == 200, path
        assert _http(port, path)[0] == 200, path  # 127.0.0.1
    assert _handshake(port, "/ws/phone", None, host=f"rebound.example:{port}") == b"HTTP/1.1 403 FORBIDDEN"


def test_the_pages_carry_the_security_headers(live_server):
    for path in ("/", "/screen", "/rules"):
        status, headers = _http(live_server.port, path)
        assert status == 200
        assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"
        csp = headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
        assert f"connect-src 'self' ws://127.0.0.1:{live_server.port}" in csp
        assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp  # no page runs inline script
    assert _http(live_server.port, "/phone.js")[1]["X-Content-Type-Options"] == "nosniff"


def test_strings_that_cannot_be_encoded_get_a_clear_error_and_the_socket_stays(live_server):
    screen = live_server.client("/ws/screen")
    screen.send('{"type": "hello", "host": "\\ud800"}')
    err = screen.expect("error")
    assert err["code"] == "bad_field" and "cannot be encoded" in err["message"]
    phone = live_server.phone()
    phone.send('{"type": "ready", "id": "\\udfff"}')
    err = phone.expect("error")
    assert err["code"] == "bad_field" and err["id"] is None and "'id'" in err["message"]
    phone.send('{"type": "join", "seat": 0, "name": "Ana\\ud83d"}')
    assert phone.expect("error")["code"] == "bad_field"
    assert phone.join(0, "Ana")["seat"] == 0  # the same socket goes on
    assert not screen.closed


def test_an_empty_token_is_a_bad_token(live_server):
    phone = live_server.phone(hello=False)
    phone.send({"type": "hello", "token": ""})
    assert phone.expect(lambda m: m["type"] in ("error", "joined", "state"))["code"] == "bad_token"


def test_names_rules_apply_in_join(live_server):
    screen = live_server.screen()
    ana = live_server.phone()
    assert ana.join(0, "Ana")["name"] == "Ana"
    for invisible in ("Ana\u3164", "\u3164\u3164", "\u200b"):
        phone = live_server.phone()
        ref = phone.send({"type": "join", "seat": 1, "name": invisible})
        reply = phone.reply(ref)
        assert reply["type"] == "refused" and reply["reason"] == "bad_name", json.dumps(reply)
    cyrillic = live_server.phone()
    assert cyrillic.join(1, "\u0410na")["name"] == "\u0410na 2"  # a Cyrillic А: the same name to the eye
    view = screen.wait_state(lambda v: v["seats"][1]["kind"] == "human")
    assert [s["name"] for s in view["seats"][:2]] == ["Ana", "\u0410na 2"]
