"""``launcher.py`` as a new host meets it: the first run, offline, a half-made environment, a Python that
cannot make one or is too old, a folder with a space, and Windows (emulated: nothing here runs Windows).

Windows' ``os.execv`` is emulated as its C runtime behaves (as reported on CPython's tracker): the arguments
joined with spaces and no quotes, a child started, and the caller gone at once with exit code 0.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import signal
import socket
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from tests.host.hosting import BASE_PYTHON, ROOT, clean_env, copy_checkout, get, read_until_port, stop

#: Words of the installer's that must never reach the host's terminal.
INSTALLER_WORDS = ("pip", "setuptools", "wheel", "Traceback")


def _launcher_module(checkout: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("copied_launcher", checkout / "launcher.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _ready_checkout(dest: Path) -> Path:
    """A copy of the checkout whose ``.venv`` is ready: a real environment that sees this test environment's
    packages (a ``.pth`` file) and carries the launcher's stamp, so nothing is installed."""
    checkout = copy_checkout(dest)
    subprocess.run([str(BASE_PYTHON), "-m", "venv", "--without-pip", str(checkout / ".venv")], check=True)
    lib = checkout / ".venv" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    (lib / "quatro_test_packages.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    (checkout / ".venv" / ".quatro-installed").write_text(_launcher_module(checkout)._stamp("run"))
    return checkout


#: launcher.py as Windows runs it: os.execv is no exec there, so the launcher must start a child instead.
WINDOWS = textwrap.dedent(
    """
    import os, subprocess, sys
    checkout = sys.argv[1]
    sys.path.insert(0, checkout)
    import launcher

    launcher.EXEC_REPLACES_PROCESS = False  # as os.name == "nt" makes it

    def windows_execv(path, args):
        # The C runtime starts ``path`` with the arguments joined without quotes (the child splits them at
        # spaces again), and the caller exits at once, with 0.
        subprocess.Popen(" ".join(args).split(), executable=path)
        os._exit(0)

    os.execv = windows_execv
    sys.argv = [os.path.join(checkout, "launcher.py")] + sys.argv[2:]
    sys.exit(launcher.main())
    """
)


@pytest.fixture(scope="module")
def spaced_checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A checkout in a folder whose path holds spaces, as a Windows user's folder does ("John Smith",
    "OneDrive - Company")."""
    return _ready_checkout(tmp_path_factory.mktemp("home") / "John Smith" / "OneDrive - Company" / "quatro")


def test_from_a_folder_with_a_space_the_exit_code_comes_back(spaced_checkout, tmp_path):
    """On POSIX (a real exec) and on Windows (a child process): ``--seats 5`` is refused by the game with 2."""
    env = clean_env(tmp_path)
    posix = subprocess.run(
        [str(BASE_PYTHON), str(spaced_checkout / "launcher.py"), "--seats", "5"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert posix.returncode == 2 and "invalid choice: 5" in posix.stderr, posix
    windows = subprocess.run(
        [str(BASE_PYTHON), "-c", WINDOWS, str(spaced_checkout), "--seats", "5"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert windows.returncode == 2 and "invalid choice: 5" in windows.stderr, windows
    assert "can't open file" not in windows.stderr


def test_on_windows_ctrl_c_reaches_the_game_and_its_exit_code_comes_back(spaced_checkout, tmp_path):
    """The console sends Ctrl-C to every process attached to it (here: the launcher's process group)."""
    proc = subprocess.Popen(
        [str(BASE_PYTHON), "-c", WINDOWS, str(spaced_checkout), "--port", "0", "--bind", "127.0.0.1"]
        + ["--no-browser", "--no-mdns"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=clean_env(tmp_path, QUATRO_STATE_DIR=str(tmp_path / "state")),
        start_new_session=True,
    )
    try:
        port, _ = read_until_port(proc)
        assert get(f"http://127.0.0.1:{port}/")[0] == 200
        os.killpg(proc.pid, signal.SIGINT)
        rest, _ = proc.communicate(timeout=10)
        assert proc.returncode == 0, rest
        assert "Traceback" not in rest and "Stopping" in rest
    finally:
        stop(proc)


def _sitecustomize(folder: Path, code: str) -> dict[str, str]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitecustomize.py").write_text(code)
    return {"PYTHONPATH": str(folder)}


def test_a_python_too_old_is_told_where_to_get_a_new_one(tmp_path):
    env = clean_env(
        tmp_path, **_sitecustomize(tmp_path / "old", "import sys\nsys.version_info = (3, 9, 6, 'final', 0)\n")
    )
    done = subprocess.run([str(BASE_PYTHON), str(ROOT / "launcher.py")], capture_output=True, text=True, env=env)
    assert done.returncode == 2 and done.stdout == ""
    assert "needs Python 3.10 or newer; this is Python 3.9.6" in done.stderr
    assert "https://www.python.org/downloads/" in done.stderr and "Traceback" not in done.stderr


def test_the_launcher_parses_on_python_3_6():
    """So that an old Python says why it cannot run the game, instead of a SyntaxError."""
    source = (ROOT / "launcher.py").read_text()
    ast.parse(source, feature_version=(3, 6))
    assert "from __future__ import annotations" not in source  # a SyntaxError before Python 3.7


def test_a_python_without_venv_gets_the_apt_command_and_no_half_made_environment(tmp_path):
    """Debian and Ubuntu ship python3 without ensurepip (python3-venv): before the fix the first run left a
    .venv without pip behind, and every later run ended in a traceback."""
    checkout = copy_checkout(tmp_path / "quatro")
    env = clean_env(tmp_path, **_sitecustomize(tmp_path / "debian", "import sys\nsys.modules['ensurepip'] = None\n"))
    done = subprocess.run(
        [str(BASE_PYTHON), str(checkout / "launcher.py")], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 1, done
    assert re.search(r"\n    sudo apt install python3(\.\d+)?-venv$", done.stderr.rstrip()), done.stderr
    assert "Traceback" not in done.stdout + done.stderr and not (checkout / ".venv").exists()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
@pytest.mark.timeout(400)
@pytest.mark.parametrize("retries", [None, "0"], ids=["pip's retries", "no retries"])
def test_offline_the_first_run_says_so_in_one_sentence(tmp_path, retries):
    """The package index unreachable (a closed port, no configuration, no cache): one sentence, exit 1. With no
    retries pip's log says nothing of the network (it reads "ResolutionImpossible"): the launcher finds out itself."""
    checkout = copy_checkout(tmp_path / "quatro")
    env = {k: v for k, v in clean_env(tmp_path / "home").items() if not k.startswith("PIP_")}
    env.update(
        PIP_CONFIG_FILE=os.devnull,
        PIP_INDEX_URL=f"http://127.0.0.1:{_closed_port()}/simple/",
        PIP_CACHE_DIR=str(tmp_path / "empty-cache"),
    )
    if retries is not None:
        env["PIP_RETRIES"] = retries
    done = subprocess.run(
        [str(BASE_PYTHON), str(checkout / "launcher.py")], capture_output=True, text=True, env=env, timeout=300
    )
    lines = (done.stdout + done.stderr).splitlines()
    assert done.returncode == 1, lines
    assert lines[-1].startswith("Quatro Party: the first run needs the internet once"), lines
    assert len(lines) == 2 and lines[0].startswith("Quatro Party: first run:"), lines
    assert not any(word.lower() in line.lower() for line in lines for word in INSTALLER_WORDS), lines
    log = (checkout / "install.log").read_text()
    assert "Connection refused" in log if retries is None else "ResolutionImpossible" in log  # the details stay there


def _probe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, log: str) -> ModuleType:
    """The launcher's module with its install log in ``tmp_path`` holding ``log``, and no proxy configured."""
    launcher = _launcher_module(ROOT)
    monkeypatch.setattr(launcher, "INSTALL_LOG", tmp_path / "install.log")
    (tmp_path / "install.log").write_bytes(log.encode())
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    return launcher


def test_the_launcher_asks_the_index_named_in_its_log_whether_it_answers(tmp_path, monkeypatch):
    """What pip's log left out (no retries, no words of the network) the launcher asks of the index itself: a
    closed port is offline, a listening one is not, and an evening offline long ago (before this run) says nothing."""
    with socket.socket() as index:
        index.bind(("127.0.0.1", 0))
        index.listen()
        listening = index.getsockname()[1]
        earlier = "Retrying after connection broken by 'NewConnectionError'\n"
        now = f"Looking in indexes: http://127.0.0.1:{listening}/simple/\nERROR: ResolutionImpossible\n"
        launcher = _probe(tmp_path, monkeypatch, earlier + now)
        assert launcher._offline(len(earlier)) is False
        assert launcher._offline(0) is True  # the whole log: its old words count
        closed = f"Looking in indexes: http://127.0.0.1:{_closed_port()}/simple/\nERROR: ResolutionImpossible\n"
        (tmp_path / "install.log").write_bytes(closed.encode())
        assert launcher._offline(0) is True
        two = f"Looking in indexes: http://127.0.0.1:{_closed_port()}/simple/, http://127.0.0.1:{listening}/x/\n"
        (tmp_path / "install.log").write_bytes(two.encode())
        assert launcher._offline(0) is False  # one index of two answers


def test_behind_a_proxy_the_launcher_asks_the_proxy(tmp_path, monkeypatch):
    """A network that reaches the index only through its proxy (the environment's, Windows' or macOS' settings)."""
    with socket.socket() as proxy:
        proxy.bind(("127.0.0.1", 0))
        proxy.listen()
        index = f"http://127.0.0.1:{_closed_port()}/simple/"
        launcher = _probe(tmp_path, monkeypatch, f"Looking in indexes: {index}\n")
        monkeypatch.setenv("http_proxy", f"127.0.0.1:{proxy.getsockname()[1]}")
        assert launcher._offline(0) is False
        monkeypatch.setenv("http_proxy", f"http://127.0.0.1:{_closed_port()}")
        assert launcher._offline(0) is True


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_first_run_with_a_fresh_home_rebuilds_a_half_made_environment_and_says_nothing_of_installers(tmp_path):
    """What a host on stock Debian met: a .venv without pip, left by a run before python3-venv was installed.
    It is made again; the terminal shows the launcher's own lines and the game's, no installer's."""
    checkout = copy_checkout(tmp_path / "John Smith" / "quatro")
    subprocess.run([str(BASE_PYTHON), "-m", "venv", "--without-pip", str(checkout / ".venv")], check=True)
    cache = subprocess.run(
        [sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True, check=True
    ).stdout.strip()
    env = clean_env(tmp_path / "home", PIP_CACHE_DIR=cache)  # the real index, through this machine's pip cache
    command = [str(BASE_PYTHON), str(checkout / "launcher.py"), "--port", "0", "--bind", "127.0.0.1"]
    proc = subprocess.Popen(
        command + ["--no-browser", "--no-mdns"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
    )
    try:
        port, out = read_until_port(proc, timeout=400)
        assert get(f"http://127.0.0.1:{port}/")[0] == 200
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=10)
    finally:
        stop(proc)
    lines = (out + rest).splitlines()
    assert proc.returncode == 0, lines
    assert any("left unfinished: making it again" in line for line in lines), lines
    assert not any(word.lower() in line.lower() for line in lines for word in INSTALLER_WORDS), lines
    assert (checkout / ".venv" / "bin" / "pip").exists() and (checkout / "install.log").stat().st_size > 0
    state = tmp_path / "home" / ".local" / "state" / "quatro-party"
    assert (state / "table.jsonl").exists()  # the platform's state folder, in the fresh HOME
    # The second run installs nothing and says nothing about it.
    again = subprocess.run(command + ["--version"], capture_output=True, text=True, env=env, timeout=60)
    assert again.returncode == 0 and again.stdout.startswith("quatro-party ") and "first run" not in again.stdout
