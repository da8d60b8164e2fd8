"""The self-contained bundle, for hosts without Python: built by the README's command, then run as such a host
runs it — from an empty folder, a fresh ``HOME``, no Python on ``PATH`` — it serves every page, plays a swap
through the documented protocol (docs/protocol.md: hello, join, start_game, swap), resumes its table after a
``kill -9``, announces itself with mDNS, and stops on Ctrl-C within 2 s.

Built on Linux here; the same command builds the Windows and macOS bundles on those systems (PyInstaller does
not cross-compile), which nothing here can run.
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from quatro_party.server.testing import WsClient
from tests.host.hosting import ROOT, get, read_until_port, stop
from tests.sharing import OncePerRun
from tests.timeouts import limit

BUNDLE = ROOT / "dist" / "quatro-party"


@pytest.fixture(scope="module")
def bundle(once: OncePerRun) -> Path:
    """The bundle, built by the README's command (``python3 launcher.py bundle``) in this checkout, once per run:
    the build replaces the folder, which a second worker's build must not do while a test runs the first."""

    def build() -> Path:
        shutil.rmtree(BUNDLE, ignore_errors=True)
        done = subprocess.run(
            [sys.executable, str(ROOT / "launcher.py"), "bundle"], capture_output=True, text=True, timeout=900, cwd=ROOT
        )
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        assert re.search(r"the bundle is .*quatro-party \(\d+ MB\)", done.stdout), done.stdout[-1000:]
        return BUNDLE / "quatro-party"

    return once.get("bundle: dist/quatro-party", build)


def _host_env(home: Path, no_python: Path) -> dict[str, str]:
    """All a host without Python has: a home, a language, a PATH with nothing on it."""
    return {"HOME": str(home), "PATH": str(no_python), "LANG": "C.UTF-8"}


def _start(exe: Path, env: dict[str, str], cwd: Path, *args: str) -> tuple[subprocess.Popen[str], int, str]:
    proc = subprocess.Popen(
        [str(exe), "--port", "0", "--bind", "127.0.0.1", "--no-browser", "--no-mdns", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=cwd,
    )
    port, out = read_until_port(proc)
    return proc, port, out


def _secret(out: str) -> str:
    return re.search(r"/screen#host=(\S+)", out).group(1)


@pytest.mark.slow
@pytest.mark.timeout(900)  # the build (about 70 s here) happens in its fixture
def test_the_bundle_hosts_a_game_night_on_a_computer_without_python(bundle, tmp_path):
    home, empty, here = tmp_path / "home", tmp_path / "no-python", tmp_path / "here"
    for folder in (home, empty, here):
        folder.mkdir()
    env = _host_env(home, empty)
    assert shutil.which("python3", path=env["PATH"]) is None and shutil.which("python", path=env["PATH"]) is None
    proc, port, out = _start(bundle, env, here, "--seed", "3", "--time-scale", "0.1")
    try:
        # Every page and every file of web/, as the source has it.
        for page in ("/", "/screen", "/rules", "/rules?lang=fr", "/qr.png", "/qr.svg", "/info.json"):
            assert get(f"http://127.0.0.1:{port}{page}")[0] == 200, page
        for path in sorted(p for p in (ROOT / "web").rglob("*") if p.is_file()):
            status, _, body = get(f"http://127.0.0.1:{port}/{path.relative_to(ROOT / 'web').as_posix()}")
            assert status == 200 and body == path.read_bytes(), path

        # A swap, through the protocol: a screen with the host secret, a phone that joins seat 0.
        screen = WsClient(f"ws://127.0.0.1:{port}/ws/screen")
        screen.send({"type": "hello", "host": _secret(out)})
        assert screen.expect("state")["table"]["host"] is True
        phone = WsClient(f"ws://127.0.0.1:{port}/ws/phone")
        phone.hello()
        token = phone.join(0, "Ana")["token"]
        assert screen.host("start_game")["type"] == "ok"  # bots take seats 1-3
        view = phone.wait_state(lambda v: v["phase"] == "play" and v["you"]["swap_wait"] == 0, timeout=20)
        for _ in range(10):  # a bot may take that centre card first (card_taken): look again
            card, centre = view["you"]["hand"][0], view["centre"][0]
            reply = phone.act("swap", card=card["id"], place=0, expected=centre["id"])
            if reply["type"] == "ok":
                break
            view = phone.wait_state(lambda v: v["you"]["swap_wait"] == 0, timeout=10)
        assert reply["type"] == "ok", reply
        hand = phone.wait_state(lambda v: centre["id"] in [c["id"] for c in v["you"]["hand"]], timeout=5)["you"]
        assert card["id"] not in [c["id"] for c in hand["hand"]]
        held = sorted(c["id"] for c in hand["hand"])
        phone.close()
        screen.close()
        time.sleep(0.5)  # (the journal is written as each call happens; this only lets the bots settle)

        # kill -9, and the same command again: the table comes back, and the phone's token its seat and hand.
        proc.kill()
        proc.wait(10)
        proc, port, out = _start(bundle, env, here)
        assert "round 1" in out, out
        phone = WsClient(f"ws://127.0.0.1:{port}/ws/phone")
        joined = phone.hello(token)
        assert joined["type"] == "joined" and joined["seat"] == 0, joined
        view = phone.wait_state(lambda v: "you" in v, timeout=5)
        assert sorted(c["id"] for c in view["you"]["hand"]) == held
        phone.close()

        # Ctrl-C: within 2 s, exit code 0. (2.15 s once beside two `yes` and a parallel run: a machine that slow
        # raises QUATRO_TEST_TIMEOUT_FACTOR, as for every other wait.)
        t = time.monotonic()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(limit(5)) == 0
        assert time.monotonic() - t < limit(2.0)
    finally:
        stop(proc)
    assert (home / ".local" / "state" / "quatro-party" / "table.jsonl").exists()  # the platform's folder


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_bundle_announces_itself_with_mdns(bundle, tmp_path):
    """zeroconf works inside the bundle (its compiled parts were collected): in a private network namespace
    with a veth pair standing for the LAN, the host registers its service."""
    setup = (
        "ip link set lo up && ip link add v0 type veth peer name v1 && ip addr add 10.99.0.1/24 dev v0"
        " && ip addr add 10.99.0.2/24 dev v1 && ip link set v0 up && ip link set v1 up"
    )
    (tmp_path / "home").mkdir()
    (tmp_path / "no-python").mkdir()
    host = f'exec "{bundle}" --port 0 --no-browser --host-ip 10.99.0.1 --verbose'
    proc = subprocess.Popen(
        ["unshare", "-n", "sh", "-c", f"{setup} && {host}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**_host_env(tmp_path / "home", tmp_path / "no-python"), "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"},
        cwd=tmp_path,
    )
    try:
        out = ""
        assert proc.stdout is not None
        deadline = time.monotonic() + 30
        for line in proc.stdout:
            out += line
            if "mDNS" in line or time.monotonic() > deadline:
                break
        assert "mDNS: registered 'Quatro Party on" in out, out
        proc.send_signal(signal.SIGINT)
        assert proc.wait(5) == 0
    finally:
        stop(proc)


def test_the_readme_opens_with_the_two_commands_and_tells_hosts_how_to_get_the_bundle():
    readme = (ROOT / "README.md").read_text()
    opening = readme.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert [line.split("#")[0].strip() for line in opening] == ["python3 launcher.py", "python3 launcher.py test"]
    night = readme.split("## Host a game night", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"python3 launcher\.py bundle .*\d+ MB", night)  # the command, and the size it makes
    for words in ("Add python.exe to PATH", "py launcher.py", "brew install python", "python3-venv", "firewall"):
        assert words in night, words
