"""The launcher takes the journal's lock before it touches any file, and the host secret lives one run only."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from quatro_party.server.testing import WsClient

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def state_dir(tmp_path):
    return tmp_path / "state"


def _launcher(state: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "quatro_party.launch", "--port", "0", "--bind", "127.0.0.1", "--no-browser"]
        + ["--no-mdns", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "QUATRO_STATE_DIR": str(state)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _until_ready(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out = ""
    assert proc.stdout is not None
    for line in proc.stdout:
        out += line
        if line.startswith("Port "):
            break
    port = int(re.search(r"Port (\d+)", out).group(1))
    secret = re.search(r"/screen#host=(\S+)", out).group(1)
    return port, secret, out


def _stop(proc: subprocess.Popen[str]) -> str:
    proc.terminate()
    try:
        rest, _ = proc.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        rest, _ = proc.communicate()
    return rest


def _is_host(port: int, secret: str) -> bool:
    screen = WsClient(f"ws://127.0.0.1:{port}/ws/screen")
    try:
        screen.send({"type": "hello", "host": secret})
        return bool(screen.expect("state")["table"]["host"])
    finally:
        screen.close()


def test_a_second_host_with_fresh_leaves_the_running_hosts_journal_where_it_is(state_dir):
    first = _launcher(state_dir, "--seed", "3")
    second = None
    try:
        port, secret, _ = _until_ready(first)
        journal = state_dir / "table.jsonl"
        before = journal.stat()
        second = _launcher(state_dir, "--fresh")
        port2, _, out2 = _until_ready(second)
        assert port2 != port
        rest2 = _stop(second)
        after = journal.stat()
        assert (after.st_ino, after.st_dev) == (before.st_ino, before.st_dev)  # the same file, where it was
        assert not (state_dir / "table.jsonl.old").exists()
        assert "Another Quatro Party host is running" in out2 + rest2
        assert _is_host(port, secret)  # the first host goes on, untouched
    finally:
        _stop(first)
        if second is not None and second.poll() is None:
            second.kill()


def test_the_host_secret_of_the_previous_run_is_refused(state_dir):
    first = _launcher(state_dir)
    port, old, out = _until_ready(first)
    assert "open it again from here" in out  # the terminal keeps the big screen's address for the host
    assert _is_host(port, old)
    _stop(first)
    again = _launcher(state_dir)
    try:
        port, new, _ = _until_ready(again)
        assert new != old
        assert not _is_host(port, old) and _is_host(port, new)
        assert not (state_dir / "host-secret").exists()
    finally:
        _stop(again)
