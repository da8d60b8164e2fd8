"""The host's terminal, as the host sees it all evening: the QR code and the join URL stay in view, the QR code
scans on a dark and a light theme, and an output that cannot draw it still gets the URL and a running host.

"15 minutes of play with 8 phones connecting and reconnecting" is driven, not slept: the real launcher runs in
a real 80×24 pseudo-terminal at ``--time-scale 0.05`` (every rule duration × 0.05, so 45 s of wall time are
15 minutes of the game's clock: rounds end, time out, the journal is compacted), while 8 phones on real sockets
join, then drop and come back, cleanly or by cutting their connection, over a hundred times — several times
the 42 connection lines a real 15-minute evening logged. The emulated screen is then read as the host would
read it, and its QR code decoded by zbar.
"""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pyte
import pytest

from quatro_party.server.qr import qr_terminal
from quatro_party.server.testing import WsClient
from tests.host.hosting import ROOT, Terminal, clean_env, decode_qr, get, screen_picture, stop

URL = "http://192.168.100.123:8765/"


def _drawn(text: str, cols: int = 80, rows: int = 24) -> pyte.Screen:
    screen = pyte.Screen(cols, rows)
    pyte.ByteStream(screen).feed(text.replace("\n", "\r\n").encode())
    return screen


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_terminal_qr_code_scans_on_a_dark_and_a_light_theme(theme):
    assert decode_qr(screen_picture(_drawn(qr_terminal(URL)), theme)) == [URL]


def test_a_qr_code_drawn_in_the_themes_own_colours_is_inverted_on_a_light_one():
    """Why the colours are given outright: without them (the old drawing) a light theme inverts the code and
    zbar (like many phones) reads nothing. Without colour at all, the code is drawn for a dark theme."""
    plain = _drawn(qr_terminal(URL, colour=False))
    assert decode_qr(screen_picture(plain, "dark")) == [URL]
    assert decode_qr(screen_picture(plain, "light")) == []


def _launcher_env(tmp_path: Path) -> dict[str, str]:
    return clean_env(tmp_path / "home", PYTHONPATH=str(ROOT), QUATRO_STATE_DIR=str(tmp_path / "state"))


HOST = [sys.executable, "-m", "quatro_party.launch", "--port", "0", "--bind", "127.0.0.1", "--no-browser"]


def test_a_redirected_output_that_cannot_draw_the_qr_code_gets_the_url_and_a_running_host(tmp_path):
    """``PYTHONIOENCODING=cp1252 quatro-party … > out.txt`` (a redirected Windows console): the QR code's block
    characters cannot be written there; before the fix that raised UnicodeEncodeError after the server had
    started. A phone's emoji name in the log cannot be written there either: it comes out as ``?``."""
    out_file, err_file = tmp_path / "out.txt", tmp_path / "err.txt"
    env = {**_launcher_env(tmp_path), "PYTHONIOENCODING": "cp1252"}
    with out_file.open("wb") as out, err_file.open("wb") as err:
        proc = subprocess.Popen(HOST + ["--no-mdns", "--verbose"], stdout=out, stderr=err, env=env, cwd="/tmp")
        try:
            deadline = time.monotonic() + 30
            while not re.search(rb"Port (\d+)\.", out_file.read_bytes()):
                assert proc.poll() is None and time.monotonic() < deadline, err_file.read_text("cp1252")
                time.sleep(0.05)
            port = int(re.search(rb"Port (\d+)\.", out_file.read_bytes()).group(1))
            phone = WsClient(f"ws://127.0.0.1:{port}/ws/phone")
            phone.hello()
            phone.join(0, "Zoé 🦊")
            phone.close()
            assert get(f"http://127.0.0.1:{port}/")[0] == 200  # still serving
            proc.send_signal(signal.SIGINT)
            assert proc.wait(10) == 0
        finally:
            stop(proc)
    text, log = out_file.read_bytes().decode("cp1252"), err_file.read_bytes().decode("cp1252")
    assert "open  http://" in text and "cannot draw the QR code" in text and "\u2588" not in text
    assert "Traceback" not in text + log and "Zo\xe9 ?" in log  # the name, as cp1252 can write it


def _phones(port: int, count: int) -> list[WsClient]:
    phones = []
    for seat in range(count):
        phone = WsClient(f"ws://127.0.0.1:{port}/ws/phone")
        phone.hello()
        phone.join(seat, ["Ana", "Bo", "Chloé", "Dev", "Émile", "Fatou", "Gus", "Zoé 🦊"][seat])
        phones.append(phone)
    return phones


def _come_back(port: int, phone: WsClient, rng: random.Random) -> WsClient:
    """The phone drops (a clean close, or its connection cut as a phone leaving the Wi-Fi does) and comes back."""
    if rng.random() < 0.5:
        phone.close()
    else:
        phone.ws.sock.shutdown(socket.SHUT_RDWR)
        phone.ws.sock.close()
    again = WsClient(f"ws://127.0.0.1:{port}/ws/phone")
    assert again.hello(phone.token)["type"] == "joined"
    again.token = phone.token
    return again


#: The evening's pace: a phone drops and comes back every STEP real seconds, at SCALE of the rules' durations, so
#: 150 comebacks span 15 minutes of the game's clock (150 × 0.1 s / 0.0167 ≈ 900 s) in 15 real seconds.
STEP, SCALE = 0.1, 0.1 / 6


def _evening(tmp_path: Path, reconnects: int, *options: str) -> tuple[Terminal, str, Path]:
    """The launcher in an 80×24 terminal, 8 phones seated and playing at ``--time-scale`` SCALE while they drop
    and come back ``reconnects`` times, one every STEP seconds; the terminal, the join URL, and the log file."""
    term = Terminal(
        HOST + ["--no-mdns", "--seats", "8", "--time-scale", f"{SCALE:.4f}", *options], _launcher_env(tmp_path)
    )
    found = term.wait_for(r"open\s+(http://\S+)(?:.|\n)*Port (\d+)\.")
    join_url, port = found.group(1), int(found.group(2))
    secret = re.search(r"host=(\S+)", "\n".join(term.lines())).group(1)
    screen = WsClient(f"ws://127.0.0.1:{port}/ws/screen")
    screen.send({"type": "hello", "host": secret})
    screen.expect("state")
    phones = _phones(port, 8)
    assert screen.host("start_game")["type"] == "ok"
    rng = random.Random(8)
    for i in range(reconnects):
        k = rng.randrange(8)
        phones[k] = _come_back(port, phones[k], rng)
        if i % 5 == 0:  # and somebody plays now and then (refused or not: a message either way)
            view = phones[k].wait_state(timeout=5)
            if view.get("you") and view.get("centre"):
                phones[k].act("swap", card=view["you"]["hand"][0]["id"], place=0, expected=view["centre"][0]["id"])
        time.sleep(STEP)
    screen.close()
    for phone in phones:
        phone.close()
    time.sleep(0.5)
    return term, join_url, tmp_path / "state" / "host.log"


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_after_15_minutes_of_8_phones_coming_and_going_the_qr_code_and_url_are_still_in_view(tmp_path):
    term, join_url, log = _evening(tmp_path, 150)
    try:
        lines = term.lines()
        assert any(f"open  {join_url}" in line for line in lines), "\n".join(lines)
        for theme in ("dark", "light"):
            assert decode_qr(term.picture(theme)) == [join_url], f"{theme} theme:\n" + "\n".join(lines)
        assert term.proc.poll() is None
        chatter = log.read_text(encoding="utf-8")
        assert chatter.count(" connected") >= 150 and chatter.count(" disconnected") >= 150  # it all happened
        assert "compacted at the end of round" in chatter  # rounds came and went on the game's clock
        term.proc.send_signal(signal.SIGINT)
        assert term.proc.wait(10) == 0
    finally:
        term.close()


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_verbose_shows_every_connection_in_the_terminal(tmp_path):
    """The other side of the same test: with every connection on the terminal the QR code is soon gone."""
    term, join_url, _ = _evening(tmp_path, 20, "--verbose")
    try:
        lines = term.lines()
        # The tail of the evening may be all goodbyes, so every kind of connection line counts.
        chatter = ("connected", "resumed seat", "send failed")
        assert sum(any(word in line for word in chatter) for line in lines) >= 5, "\n".join(lines)
        assert decode_qr(term.picture("dark")) == []
    finally:
        term.close()


def test_version_prints_the_version():
    done = subprocess.run(
        [sys.executable, "-m", "quatro_party.launch", "--version"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=30,
    )
    from quatro_party import __version__

    assert done.returncode == 0 and done.stdout == f"quatro-party {__version__}\n"


def test_a_host_that_cannot_find_its_pages_says_so_and_exits(tmp_path):
    """An install that lost its pages (they used to land where --user installs never looked): one sentence and
    exit 1, never "running" with a 404 for every page."""
    pkg = tmp_path / "site" / "quatro_party"
    import shutil

    shutil.copytree(ROOT / "quatro_party", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run(
        [sys.executable, "-m", "quatro_party.launch", "--port", "0", "--no-browser", "--no-mdns"],
        capture_output=True,
        text=True,
        env={**_launcher_env(tmp_path), "PYTHONPATH": str(tmp_path / "site")},
        cwd=tmp_path,
        timeout=30,
    )
    assert done.returncode == 1 and "cannot find its pages" in done.stderr, done
    assert "running" not in done.stdout and "Traceback" not in done.stderr
