"""However the game is installed, the host serves every page: the wheel and the sdist carry ``web/`` inside the
package, and the wheel installed with ``--target``, ``--user`` and into a venv, each started from ``/tmp``,
answers ``/``, ``/screen``, ``/rules``, a JS module and ``/qr.png``.

Nothing is downloaded: the dependencies come from a wheelhouse packed from this test environment (see
``wheelhouse.py``) and pip is told of no index.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.host.hosting import BASE_PYTHON, ROOT, clean_env, copy_checkout, get, read_until_port, stop
from tests.packaging.wheelhouse import build_project, wheelhouse
from tests.sharing import OncePerRun

#: What a host must answer, whatever the install: the phone, the TV, the rules, a JS module, the QR code.
PAGES = {"/": "text/html", "/screen": "text/html", "/rules": "text/html", "/common/socket.js": "javascript"}
PAGES["/qr.png"] = "image/png"
DATA_FILES = ("quatro_party/server/data/confusables.txt", "quatro_party/server/data/UNICODE-LICENSE.txt")
WEB_FILES = sorted(str(p.relative_to(ROOT / "web")) for p in (ROOT / "web").rglob("*") if p.is_file())


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, once: OncePerRun) -> tuple[Path, Path, Path]:
    """The project's sdist and wheel, and a wheelhouse of its dependencies: built once per run, read by every
    worker (the tests only read them)."""

    def build() -> tuple[Path, Path, Path]:
        work = tmp_path_factory.mktemp("packaging")
        checkout = copy_checkout(work / "quatro")
        sdist, wheel = build_project(checkout, work / "dist")
        return sdist, wheel, wheelhouse(work / "wheelhouse")

    return once.get("install: the sdist, the wheel and the wheelhouse", build)


def test_the_wheel_and_the_sdist_carry_every_page_inside_the_package(built, tmp_path):
    sdist, wheel, _ = built
    with zipfile.ZipFile(wheel) as whl:
        names = whl.namelist()
    assert sorted(n.removeprefix("quatro_party/web/") for n in names if n.startswith("quatro_party/web/")) == WEB_FILES
    assert not any(n.startswith(("web/", "share/")) or ".data/" in n for n in names)  # nothing beside the package
    assert set(DATA_FILES) <= set(names)  # the names' look-alike table, read through importlib.resources
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    with zipfile.ZipFile(wheel) as whl:
        text = whl.read(metadata).decode()
    for dependency in ("flask", "werkzeug", "flask-sock", "simple-websocket", "wsproto", "zeroconf", "ifaddr"):
        assert f"Requires-Dist: {dependency}>=" in text, dependency
    assert "License-Expression: MIT" in text and "Classifier: Operating System :: Microsoft :: Windows" in text
    # A wheel built from the sdist (what pip does with it) carries them too.
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path, filter="data")
    (unpacked,) = tmp_path.iterdir()
    _, again = build_project(unpacked, tmp_path / "again")
    with zipfile.ZipFile(again) as whl:
        assert sorted(n.removeprefix("quatro_party/web/") for n in whl.namelist() if "/web/" in n) == WEB_FILES
        assert set(DATA_FILES) <= set(whl.namelist())


def _installer_env(home: Path, **extra: str) -> dict[str, str]:
    """No index, no configuration of this machine's: only the wheelhouse."""
    env = {k: v for k, v in clean_env(home).items() if not k.startswith("PIP_")}
    return {**env, "PIP_CONFIG_FILE": os.devnull, "PIP_DISABLE_PIP_VERSION_CHECK": "1", **extra}


def _pip(python: Path | str, env: dict[str, str], house: Path, *args: str) -> None:
    command = [str(python), "-m", "pip", "install", "--no-index", "--find-links", str(house), *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def _pages(command: list[str], env: dict[str, str]) -> dict[str, tuple[int, str]]:
    """Start the host with ``command`` from /tmp; what each of :data:`PAGES` answers; then Ctrl-C."""
    proc = subprocess.Popen(
        command + ["--port", "0", "--bind", "127.0.0.1", "--no-browser", "--no-mdns"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd="/tmp",
    )
    try:
        port, _ = read_until_port(proc)
        answers = {}
        for page in PAGES:
            status, kind, _ = get(f"http://127.0.0.1:{port}{page}")
            answers[page] = (status, kind)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(10) == 0
    finally:
        stop(proc)
    return answers


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("how", ["target", "user", "venv"])
def test_the_installed_wheel_serves_every_page_from_tmp(built, how, tmp_path):
    """Before the fix the pages were looked for beside the source or under ``sys.prefix/share``: a ``--user``
    install (also Debian's ``sudo pip`` and Windows' per-user fallback) answered 404 to every page."""
    _, wheel, house = built
    env = _installer_env(tmp_path / "home", QUATRO_STATE_DIR=str(tmp_path / "state"))
    if how == "target":
        target = tmp_path / "target"
        _pip(sys.executable, env, house, "--target", str(target), str(wheel))
        # -S: no site-packages at all, only what --target put there.
        command = [str(BASE_PYTHON), "-S", "-m", "quatro_party.launch"]
        env = {**env, "PYTHONPATH": str(target)}
    elif how == "user":
        env = {**env, "PYTHONUSERBASE": str(tmp_path / "userbase")}
        _pip(BASE_PYTHON, env, house, "--user", str(wheel))
        command = [str(tmp_path / "userbase" / "bin" / "quatro-party")]
    else:
        venv = tmp_path / "venv"
        subprocess.run([str(BASE_PYTHON), "-m", "venv", str(venv)], check=True, env=env)
        _pip(venv / "bin" / "python", env, house, str(wheel))
        command = [str(venv / "bin" / "quatro-party")]
    answers = _pages(command, env)
    assert {page: status for page, (status, _) in answers.items()} == dict.fromkeys(PAGES, 200)
    assert all(kind in answers[page][1] for page, kind in PAGES.items()), answers
