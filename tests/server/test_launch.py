"""The launcher: command line, printed join URL and QR code, and a clean stop on Ctrl-C / SIGTERM."""

from __future__ import annotations

import errno
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from simple_websocket import ConnectionClosed

from quatro_party.launch import (
    DEFAULT_PORT,
    TV_RETURN_WAIT,
    _parser,
    cannot_listen,
    host_secret_file,
    new_host_secret,
    open_big_screen,
)
from quatro_party.server.testing import FakeClock, WsClient

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def state_dir(tmp_path, monkeypatch):
    """Launchers started here keep their host secret in a temporary folder, never in the user's config."""
    monkeypatch.setenv("QUATRO_STATE_DIR", str(tmp_path / "state"))
    return tmp_path / "state"


def _launcher(*args: str, stderr: int = subprocess.STDOUT) -> subprocess.Popen[str]:
    """The real launcher in a child process (``python -m quatro_party.launch``), its output piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "quatro_party.launch", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
    )


def _until_ready(proc: subprocess.Popen[str]) -> str:
    """What the launcher printed up to its last start-up line ("Port N. Press Ctrl-C to stop.")."""
    out = ""
    assert proc.stdout is not None
    for line in proc.stdout:
        out += line
        if line.startswith("Port "):
            break
    return out


def test_the_host_secret_is_new_at_each_start_and_kept_nowhere(state_dir):
    """Whoever read the secret off the TV once does not hold the host controls at the next party."""
    state_dir.mkdir()
    host_secret_file().write_text("a secret an earlier version kept")
    first = new_host_secret()
    assert first and len(first) >= 16 and not host_secret_file().exists()
    assert new_host_secret() != first


def test_options_and_defaults():
    args = _parser().parse_args([])
    assert args.port == DEFAULT_PORT == 8765 and args.seats == 4 and args.bots == "normal"
    args = _parser().parse_args(
        [
            "--port",
            "9000",
            "--host-ip",
            "10.0.0.5",
            "--seats",
            "6",
            "--bots",
            "hard",
            "--seed",
            "7",
            "--time-scale",
            "0.1",
            "--no-browser",
        ]
    )
    assert (args.port, args.host_ip, args.seats, args.bots, args.seed, args.time_scale, args.no_browser) == (
        9000,
        "10.0.0.5",
        6,
        "hard",
        7,
        0.1,
        True,
    )
    with pytest.raises(SystemExit):
        _parser().parse_args(["--seats", "5"])


@pytest.mark.parametrize("port", ["70000", "-1", "http"])
def test_a_port_that_cannot_exist_is_refused_by_the_options(port, capsys):
    # before, 70000 reached the socket and ended in an OverflowError traceback
    with pytest.raises(SystemExit) as stop:
        _parser().parse_args(["--port", port])
    assert stop.value.code == 2
    assert "is not a port number" in capsys.readouterr().err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_stop_closes_every_socket_with_1001_within_two_seconds(signum):
    proc = _launcher("--port", "0", "--bind", "127.0.0.1", "--no-browser", "--no-mdns", "--seats", "6", "--seed", "2")
    try:
        out = _until_ready(proc)
        port = int(re.search(r"Port (\d+)", out).group(1))
        assert re.search(rf"open\s+http://[\d.]+:{port}/", out), out  # the join URL is printed
        assert "█" in out  # and a QR code drawn in the terminal
        secret = re.search(r"/screen#host=(\S+)", out).group(1)
        screen = WsClient(f"ws://127.0.0.1:{port}/ws/screen")
        screen.send({"type": "hello", "host": secret})
        first = screen.expect("state")
        assert first["table"]["host"] is True and first["view"]["seat_count"] == 6
        phone = WsClient(f"ws://127.0.0.1:{port}/ws/phone")
        phone.hello()
        phone.join(0, "Ana")
        t = time.monotonic()
        proc.send_signal(signum)
        for client in (phone, screen):
            with pytest.raises(ConnectionClosed) as closed:
                while time.monotonic() - t < 3:
                    client.recv(timeout=0.5)
            assert closed.value.reason == 1001
        assert proc.wait(timeout=2.5) == 0
        assert time.monotonic() - t < 2.0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_warns_when_the_only_address_is_loopback():
    """In a private network namespace with only loopback up, the launcher says phones cannot join."""
    # unshare and sh exec the launcher, so the signal below reaches it directly.
    launcher = f'exec "{sys.executable}" -m quatro_party.launch --port 0 --no-browser'
    proc = subprocess.Popen(
        ["unshare", "-n", "sh", "-c", f"ip link set lo up && {launcher}"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out = _until_ready(proc)
        proc.send_signal(signal.SIGINT)
        rest, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
        assert "no LAN address" in err
        assert re.search(r"open\s+http://127\.0\.0\.1:\d+/", out)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_an_impatient_burst_of_ctrl_c_still_stops_the_host(state_dir):
    """Ctrl-C pressed again and again (or a terminal and a process manager both signalling) must not hang the
    host: before the fix, a handler re-entered inside the stop Event's lock and deadlocked, 5 times in 8."""
    for trial in range(3):
        proc = _launcher("--port", "0", "--bind", "127.0.0.1", "--no-browser", "--no-mdns")
        try:
            _until_ready(proc)
            for _ in range(200):
                proc.send_signal(signal.SIGINT)
            assert proc.wait(timeout=5) == 0, f"trial {trial}: the host did not stop"
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_a_port_already_in_use_is_said_plainly_and_nothing_is_touched(state_dir, tmp_path, monkeypatch):
    """A second host started on a busy port (another host, or any program) says so in one plain sentence that
    names --port, exits with 1 and leaves everything alone: the journal of the table already running (--fresh
    would set it aside), the browser, mDNS. Before the fix Werkzeug printed its own two lines and exited from
    inside the server's constructor, after the launcher had already set the journal aside."""
    journal = state_dir / "table.jsonl"
    journal.parent.mkdir(parents=True)
    journal.write_text("the running host's table\n")
    opened = tmp_path / "browser-opened"
    # webbrowser runs $BROWSER (with %s the URL): a host that got as far as opening the screen leaves a mark.
    monkeypatch.setenv(
        "BROWSER",
        " ".join(
            shlex.quote(a)
            for a in (sys.executable, "-c", "import sys; open(sys.argv[1], 'w').write(sys.argv[2])", str(opened), "%s")
        ),
    )
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = _launcher("--port", str(port), "--bind", "127.0.0.1", "--no-mdns", "--fresh", stderr=subprocess.PIPE)
        try:
            out, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert proc.returncode == 1, (out, err)
    other = port + 1 if port < 65535 else port - 1
    assert err == (
        f"Port {port} is already in use (another Quatro Party host may be running). "
        f"Stop it, or start this one with --port {other}.\n"
    ), err  # that sentence alone: no log lines
    assert "Traceback" not in out + err
    assert "running" not in out and "/screen#host=" not in out  # no join URL, no QR code, no big screen
    assert not opened.exists()
    assert journal.read_text() == "the running host's table\n"  # neither set aside (--fresh) nor rewritten
    assert sorted(p.name for p in state_dir.iterdir()) == ["table.jsonl"]  # no lock taken, no secret written


def test_why_the_host_cannot_listen_is_one_plain_sentence_with_the_way_out():
    in_use = OSError(errno.EADDRINUSE, "Address already in use")
    assert cannot_listen(8765, "0.0.0.0", in_use) == (
        "Port 8765 is already in use (another Quatro Party host may be running). "
        "Stop it, or start this one with --port 8766."
    )
    assert cannot_listen(65535, "0.0.0.0", in_use).endswith("--port 65534.")  # a port that exists
    # Any other reason (here --bind with an address this computer does not have) is said as it is.
    assert cannot_listen(8765, "192.0.2.7", OSError(errno.EADDRNOTAVAIL, "Cannot assign requested address")) == (
        "Cannot listen on port 8765 of 192.0.2.7: Cannot assign requested address. Check --port and --bind."
    )


def _browser_marks(monkeypatch, mark: Path) -> None:
    """webbrowser runs $BROWSER (with %s the URL): a host that opened the big screen leaves a mark."""
    monkeypatch.setenv(
        "BROWSER",
        " ".join(
            shlex.quote(a)
            for a in (sys.executable, "-c", "import sys; open(sys.argv[1], 'w').write(sys.argv[2])", str(mark), "%s")
        ),
    )


def test_the_big_screen_opens_unless_the_hosts_tab_comes_back_first(capsys):
    clock = FakeClock()
    opened: list[str] = []
    back_at = [clock() + 1.0]
    assert not open_big_screen("u", lambda: clock() >= back_at[0], 3.0, clock, clock.advance, opened.append)
    assert opened == [] and "came back on its own" in capsys.readouterr().out
    assert open_big_screen("u", lambda: False, 3.0, clock, clock.advance, opened.append)  # none came back
    assert opened == ["u"]
    start = clock()
    assert open_big_screen("v", None, 3.0, clock, clock.advance, opened.append)  # nothing could: at once
    assert opened == ["u", "v"] and clock() == start


def test_after_a_restart_the_hosts_tv_tab_comes_back_and_no_second_tab_opens(state_dir, tmp_path, monkeypatch):
    """The host restarts (Ctrl-C, then the launcher again): its TV tab, still open, comes back with its key (the
    journal keeps the key's hash, a lobby's too), and the browser opens no second big screen. Started again with
    that tab closed, it opens one."""

    def start(mark: Path) -> tuple[subprocess.Popen[str], int, str]:
        _browser_marks(monkeypatch, mark)
        proc = _launcher("--port", "0", "--bind", "127.0.0.1", "--no-mdns", "--seats", "4")
        out = _until_ready(proc)
        return proc, int(re.search(r"Port (\d+)", out).group(1)), out

    def stop(proc: subprocess.Popen[str]) -> str:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=10)
        return out

    first, port, out = start(tmp_path / "first")
    try:
        screen = WsClient(f"ws://127.0.0.1:{port}/ws/screen")
        screen.send({"type": "hello", "host": re.search(r"/screen#host=(\S+)", out).group(1)})
        key = screen.expect("host_key")["key"]
        deadline = time.monotonic() + 10
        while not (tmp_path / "first").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (tmp_path / "first").exists()  # a first start opens the big screen at once
    finally:
        stop(first)

    second, port, out = start(tmp_path / "second")
    # Stopped anyway after a while, so that a launcher that never says it ends the loop below.
    guard = threading.Timer(TV_RETURN_WAIT + 10, second.send_signal, (signal.SIGINT,))
    guard.start()
    try:
        screen = WsClient(f"ws://127.0.0.1:{port}/ws/screen")
        screen.send({"type": "hello", "key": key})  # the tab that stayed open, trying again each second
        assert screen.expect("state")["table"]["host"] is True
        assert second.stdout is not None
        said = next((line for line in second.stdout if "big screen came back" in line or "Traceback" in line), "")
        assert "came back on its own" in said, said  # the launcher's wait ended there: it opens nothing now
    finally:
        guard.cancel()
        stop(second)
    assert not (tmp_path / "second").exists()

    third, port, out = start(tmp_path / "third")
    try:
        deadline = time.monotonic() + TV_RETURN_WAIT + 10
        while not (tmp_path / "third").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (tmp_path / "third").exists()  # the tab was closed meanwhile: nothing came back, a new one opens
    finally:
        stop(third)
