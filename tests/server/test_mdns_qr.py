"""Finding the game: the mDNS announcement and the QR code of the join URL."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlencode, urlparse

import pytest
from PIL import Image

from quatro_party.server.network import candidates, lan_ip

ROOT = Path(__file__).resolve().parents[2]


def test_mdns_registers_and_a_browser_finds_it_in_a_private_namespace():
    """Register "Quatro Party on …" and find it again (address, port, TXT path), then see it unregistered.

    Runs in a private network namespace with only loopback up (``unshare -n``), so no
    multicast ever leaves the machine. Never skipped: a machine that cannot do this fails.
    """
    assert shutil.which("unshare") and shutil.which("ip"), "unshare and ip (util-linux, iproute2) are needed"
    probe = Path(__file__).with_name("mdns_probe.py")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = ["unshare", "-n", "sh", "-c", f'ip link set lo up && exec "{sys.executable}" "{probe}" 4321']
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["found"], found
    assert found["name"] == "Quatro Party on testhost._http._tcp.local."
    assert found["addresses"] == ["127.0.0.1"] and found["port"] == 4321 and found["path"] == "/"
    assert found.get("removed") == found["name"], "unregistering must tell the browsers"
    assert found["close_seconds"] < 1.5


def _decode_qr(png: bytes) -> str:
    from pyzbar.pyzbar import decode

    symbols = decode(Image.open(io.BytesIO(png)))
    assert len(symbols) == 1
    return symbols[0].data.decode()


def test_qr_png_decodes_to_the_join_url_with_a_lan_address(live_server):
    with urllib.request.urlopen(live_server.url + "/qr.png") as resp:
        url = _decode_qr(resp.read())
    assert url == live_server.join_url
    host = urlparse(url).hostname
    assert urlparse(url).port == live_server.port and urlparse(url).path == "/"
    if any(not a.loopback for a in candidates()):
        assert host == lan_ip() and not host.startswith("127."), "phones cannot reach 127.0.0.1"


def test_qr_follows_the_public_host(live_server_factory):
    server = live_server_factory(public_host="party.test")
    with urllib.request.urlopen(server.url + "/qr.png") as resp:
        assert _decode_qr(resp.read()) == f"http://party.test:{server.port}/"
    assert server.screen().state["table"]["join_url"] == f"http://party.test:{server.port}/"


def test_the_launcher_announces_the_table_and_withdraws_it_on_ctrl_c(tmp_path):
    """End to end: ``quatro_party.launch`` registers "Quatro Party on <host>" with its address, port and
    path; a zeroconf browser finds it; Ctrl-C stops the launcher within 2 s and the service is withdrawn.

    A private network namespace with a veth pair (10.99.0.1 ↔ 10.99.0.2) stands in for the LAN:
    the multicast never leaves it.
    """
    setup = (
        "ip link set lo up && ip link add v0 type veth peer name v1 && ip addr add 10.99.0.1/24 dev v0"
        " && ip addr add 10.99.0.2/24 dev v1 && ip link set v0 up && ip link set v1 up"
    )
    probe = Path(__file__).with_name("mdns_launcher_probe.py")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QUATRO_STATE_DIR": str(tmp_path)}
    done = subprocess.run(
        ["unshare", "-n", "sh", "-c", f'{setup} && exec "{sys.executable}" "{probe}"'],
        capture_output=True,
        text=True,
        timeout=90,
        env=env,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["found"], found
    assert found["name"].startswith("Quatro Party on ") and found["name"].endswith("._http._tcp.local.")
    assert found["addresses"] == ["10.99.0.1"] and found["service_port"] == found["port"] and found["path"] == "/"
    assert found["exit_code"] == 0 and found["stop_seconds"] < 2.0, found
    assert found["removed"], "Ctrl-C must unregister the service"


def _post(url: str, body: bytes, content_type: str = "application/json") -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def test_seat_link_qr_is_made_only_for_a_live_seat_link_of_this_host(live_server):
    """``POST /seat-link/qr.png`` with ``{"url": …}`` draws the QR code of a seat link (docs/protocol.md §4.4) —
    only of one this host issued and that still works, on its own join URL: the host is no QR service for any
    text, and the secret travels in a POST body (no access log, no history, no cache), never in a query string."""
    screen, ana = live_server.screen(), live_server.phone()
    ana.join(0, "Ana")
    assert screen.host("allow_move", seat=0)["type"] == "ok"
    link = ana.expect("seat_link")["url"]
    endpoint = live_server.url + "/seat-link/qr.png"
    status, headers, png = _post(endpoint, json.dumps({"url": link}).encode())
    assert status == 200 and headers["Content-Type"] == "image/png"
    assert "no-store" in headers["Cache-Control"]
    assert _decode_qr(png) == link

    token = link.split("?seat=", 1)[1]
    elsewhere = urlparse(link)._replace(netloc=f"evil.example:{live_server.port}").geturl()
    for text in [
        "https://example.com/",
        live_server.join_url,
        elsewhere,
        link + "x",
        link.replace(token, "A" * 24),
        f"{live_server.join_url}?seat={token}&next=https://example.com/",
        "hello",
        "",
    ]:
        status, _, body = _post(endpoint, json.dumps({"url": text}).encode())
        assert status == 404 and not body.startswith(b"\x89PNG"), text
    for raw, kind in [
        (b"not json", "application/json"),
        (b'{"url": 5}', "application/json"),
        (b"[]", "application/json"),
        (link.encode(), "text/plain"),
        (json.dumps({"url": link + "x" * 5000}).encode(), "application/json"),
    ]:
        status, _, _ = _post(endpoint, raw, kind)
        assert status in (400, 413), raw[:40]
    with pytest.raises(urllib.error.HTTPError) as get:  # never in a query string (logs, history)
        urllib.request.urlopen(endpoint + "?" + urlencode({"url": link}), timeout=5)
    assert get.value.code in (404, 405)

    moved = live_server.phone(hello=False)  # the link is used: it no longer draws
    assert moved.hello(token)["type"] == "joined"
    assert _post(endpoint, json.dumps({"url": link}).encode())[0] == 404
