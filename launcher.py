#!/usr/bin/env python3
"""Quatro Party from a fresh clone, with nothing but Python 3.10+.

    python3 launcher.py            # host a table: server, mDNS, QR code, big screen
    python3 launcher.py test       # run the whole test suite
    python3 launcher.py bundle     # build the self-contained folder for hosts without Python

If the dependencies are not importable, this first creates a virtual environment in ``.venv`` beside this file
and installs the project into it (with the ``test`` extra for ``test``), through ``constraints.txt`` (the
versions the tests passed with); then it runs itself there. The host sees one line about it; the installer's
own output goes to ``install.log``. Only the standard library is used before that point, and this file parses
on any Python 3.6+ so that an old Python is told where to get a new one rather than shown a syntax error.

On POSIX the environment's Python replaces this process (``os.execv``). On Windows ``os.execv`` is no exec: the C
runtime starts a child with its arguments joined unquoted (a folder with a space breaks it), returns the prompt
at once and loses the exit code; there the environment's Python runs as a child, Ctrl-C reaches it through
the console, and its exit code is passed back.
"""

import hashlib
import importlib
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import IO  # noqa: F401 - named in type comments (this file parses on Python 3.6)

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
CONSTRAINTS = ROOT / "constraints.txt"
INSTALL_LOG = ROOT / "install.log"
RUNTIME_MODULES = (
    "flask",
    "werkzeug",
    "flask_sock",
    "simple_websocket",
    "wsproto",
    "zeroconf",
    "ifaddr",
    "qrcode",
    "PIL",
    "platformdirs",
    "filelock",
)
TEST_MODULES = (
    "pytest",
    "pytest_timeout",
    "hypothesis",
    "playwright",
    "axe_playwright_python",
    "pyzbar",
    "mypy",
    "ruff",
    "vulture",
    "pyte",
    "xdist",
)
BUNDLE_MODULES = ("PyInstaller",)
#: What the first run downloads, said before it starts (measured on Linux: the wheels, the build backend, pip).
DOWNLOAD = "about 13 MB"
#: ``os.execv`` replaces this process everywhere but on Windows (see the module's docstring).
EXEC_REPLACES_PROCESS = os.name != "nt"
#: Words in the installer's log that mean it could not reach the package index.
OFFLINE_SIGNS = (
    "NewConnectionError",
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Name or service not known",
    "nodename nor servname",
    "getaddrinfo failed",
    "Network is unreachable",
    "No route to host",
    "Connection refused",
    "ConnectTimeoutError",
    "Read timed out",
    "ProxyError",
    "SSLError",
)
#: Where pip looks when its configuration names no other index (it then writes no "Looking in indexes" line).
DEFAULT_INDEX = "https://pypi.org/simple/"
#: How long the launcher waits for the package index (or the proxy before it) to answer a connection.
PROBE_SECONDS = 5.0


def _say(text):  # type: (str) -> None
    print("Quatro Party: " + text, flush=True)


def _fail(text, code=1):  # type: (str, int) -> None
    print("Quatro Party: " + text, file=sys.stderr, flush=True)
    sys.exit(code)


def too_old_python():  # type: () -> str
    """Where to get Python 3.10 or newer, for the system this runs on."""
    here = f"this is Python {sys.version_info[0]}.{sys.version_info[1]}.{sys.version_info[2]} ({sys.executable})"
    if sys.platform == "win32":
        how = (
            'Install Python from https://www.python.org/downloads/ (tick "Add python.exe to PATH" in the installer), '
            "then run:  py launcher.py"
        )
    elif sys.platform == "darwin":
        how = (
            "Install Python from https://www.python.org/downloads/ (or with Homebrew: brew install python), "
            "then run:  python3 launcher.py"
        )
    else:
        how = (
            "Install a newer python3 with your system's package manager (Debian 12, Ubuntu 22.04 and later: "
            "sudo apt install python3), or from https://www.python.org/downloads/, then run:  python3 launcher.py"
        )
    bundle = "Or take the ready-made download, which needs no Python (README: Host a game night)."
    return f"Quatro Party needs Python 3.10 or newer; {here}.\n{how}\n{bundle}"


def _venv_python():  # type: () -> Path
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _missing(modules):  # type: (tuple[str, ...]) -> list[str]
    return [m for m in modules if importlib.util.find_spec(m) is None]


def _stamp(extra):  # type: (str) -> str
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + CONSTRAINTS.read_bytes()).hexdigest()[:16]
    return f"{digest}:{extra}"


def _runs(*command):  # type: (str) -> bool
    """Whether ``command`` exits with 0 (its output discarded)."""
    try:
        return subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    except OSError:
        return False


def _no_venv_module():  # type: () -> str | None
    """Why this Python cannot make a virtual environment with pip in it, in the host's words, or None."""
    try:
        import ensurepip  # noqa: F401 - Debian and Ubuntu ship python3 without it
        import venv  # noqa: F401
    except ImportError:
        pass
    else:
        return None
    if Path("/etc/debian_version").exists() or shutil.which("apt-get"):
        package = "python3-venv" if sys.executable.startswith("/usr/bin/") else f"python3.{sys.version_info[1]}-venv"
        return (
            "this Python cannot make its own environment yet. Install the missing part, then run the same "
            f"command again:\n    sudo apt install {package}"
        )
    return (
        "this Python has no venv module. Install Python from https://www.python.org/downloads/ and run the same "
        "command again."
    )


def _installer(log, *command):  # type: (IO[str], str) -> bool
    """Run ``command`` with its output in the install log; True when it succeeded.

    ``PIP_CONSTRAINT`` (not ``-c``) so that the build backend, installed in its own environment, is held to
    ``constraints.txt`` too; relative to ``ROOT``, the working folder, because pip splits that variable at
    spaces (a user folder such as John Smith's)."""
    log.write("\n$ {}\n".format(" ".join(command)))
    log.flush()
    env = dict(os.environ, PIP_CONSTRAINT=CONSTRAINTS.name, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    done = subprocess.run(command, cwd=str(ROOT), stdout=log, stderr=subprocess.STDOUT, env=env)
    return done.returncode == 0


def _offline(since):  # type: (int) -> bool
    """True when the installer could not reach its package index: its log says so from byte ``since`` on (this
    run's part: an evening offline long ago says nothing now), or no index answers now.

    The log's words come with pip's retries; with none (``PIP_RETRIES=0``), an index that cannot be reached reads as
    "ResolutionImpossible", so the index named in the log (or pip's default) is tried too."""
    try:
        text = INSTALL_LOG.read_bytes()[since:].decode("utf-8", errors="replace")
    except OSError:
        return False
    if any(sign in text for sign in OFFLINE_SIGNS):
        return True
    named = [line.split(":", 1)[1] for line in text.splitlines() if line.startswith("Looking in indexes:")]
    indexes = [url.strip() for url in named[-1].split(",")] if named else [DEFAULT_INDEX]
    return not any(_answers(url) for url in indexes)


def _answers(url):  # type: (str) -> bool
    """True when ``url``'s host (or the proxy this computer's settings put before it) accepts a connection.

    Only a connection, no request: a Python whose certificates are not installed (macOS) must not look offline."""
    import urllib.parse  # here: only a failed install needs them, and they cost every start 30 ms
    import urllib.request

    parts = urllib.parse.urlsplit(url)
    proxy = urllib.request.getproxies().get(parts.scheme)  # the environment's, Windows' registry, macOS' settings
    if proxy and not urllib.request.proxy_bypass(parts.hostname or ""):
        parts = urllib.parse.urlsplit(proxy if "://" in proxy else "http://" + proxy)
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        socket.create_connection((parts.hostname or "", port), timeout=PROBE_SECONDS).close()
    except (OSError, ValueError):
        return False
    return True


def _install(extra):  # type: (str) -> None
    """Make ``.venv`` (again, when it was left half-made) and install the project into it, quietly."""
    python = str(_venv_python())
    fresh = not (_venv_python().exists() and _runs(python, "-m", "pip", "--version"))
    if fresh:
        why = _no_venv_module()
        if why:
            _fail(why)
    if fresh and VENV.exists():
        _say(f"the environment in {VENV} was left unfinished: making it again.")
        shutil.rmtree(str(VENV), ignore_errors=True)
    if fresh:
        _say(
            f"first run: setting up what the game needs in {VENV.name} (it downloads {DOWNLOAD}, once; "
            f"the details go to {INSTALL_LOG.name})."
        )
    else:
        _say(f"this version needs other packages: updating {VENV.name} (the details go to {INSTALL_LOG.name}).")
    since = INSTALL_LOG.stat().st_size if INSTALL_LOG.exists() else 0
    with open(str(INSTALL_LOG), "a", encoding="utf-8") as log:
        if fresh and not _installer(log, sys.executable, "-m", "venv", str(VENV)):
            why = _no_venv_module() or f"could not make its environment in {VENV}; the details are in {INSTALL_LOG}."
            _fail(why)
        target = f".[{extra}]" if extra != "run" else "."
        # A newer installer first; an old one is fine too, so its failure matters only when it says why: offline.
        ok = _installer(log, python, "-m", "pip", "install", "--upgrade", "pip")
        offline = not ok and _offline(since)
        if not offline:
            ok = _installer(log, python, "-m", "pip", "install", "-e", target)
            offline = not ok and _offline(since)
    if offline:
        _fail(
            f"the first run needs the internet once, to download what the game needs ({DOWNLOAD}). "
            "Connect this computer and run the same command again."
        )
    if not ok:
        _fail(f"could not install what the game needs; the details are in {INSTALL_LOG}.")
    stamp_file = VENV / ".quatro-installed"
    have = stamp_file.read_text().split() if stamp_file.exists() else []
    stamp_file.write_text("\n".join(have + [_stamp(extra)]))
    _say("ready.")


def _ensure_environment(extra):  # type: (str) -> None
    """Return when the game can run in this interpreter; else install it in ``.venv`` and run there.

    The game always runs from its own environment, so a fresh clone behaves like the developer's checkout.
    ``QUATRO_NO_VENV=1`` uses the current interpreter as it is.
    """
    in_our_venv = Path(sys.prefix).resolve() == VENV.resolve()
    wanted = RUNTIME_MODULES + {"test": TEST_MODULES, "bundle": BUNDLE_MODULES}.get(extra, ())
    if in_our_venv or os.environ.get("QUATRO_NO_VENV"):
        missing = _missing(wanted)
        if missing and not in_our_venv:
            _fail("missing modules {}".format(", ".join(missing)), 2)
        if missing:  # our environment lost something: install again
            _install(extra)
            importlib.invalidate_caches()
        sys.path.insert(0, str(ROOT))
        return
    stamp_file = VENV / ".quatro-installed"
    have = stamp_file.read_text().split() if stamp_file.exists() else []
    if not ({_stamp("test"), _stamp(extra)} & set(have)) or not _venv_python().exists():
        _install(extra)
    run_in_venv(sys.argv[1:])


def run_in_venv(args):  # type: (list[str]) -> None
    """Run this file again with the environment's Python; never returns."""
    python = str(_venv_python())
    command = [python, str(ROOT / "launcher.py")] + list(args)
    if EXEC_REPLACES_PROCESS:
        sys.stdout.flush()
        os.execv(python, command)
    child = subprocess.Popen(command)
    # Ctrl-C goes to every process of the console: the child gets it too and stops by itself. Ignored here only
    # once the child has started, so that it does not inherit the ignoring.
    code = None  # type: int | None
    while code is None:
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            code = child.wait()
        except KeyboardInterrupt:
            pass
    if code < 0:  # killed by a signal (POSIX): the shell's way of saying it
        code = 128 - code
    elif code > 0x7FFFFFFF:  # a Windows status such as 0xC000013A (Ctrl-C) as the signed 32-bit code it is
        code -= 1 << 32
    sys.exit(code)


def _bundle(args):  # type: (list[str]) -> int
    """Build the self-contained folder (PyInstaller, one folder) in ``dist/quatro-party``."""
    spec = ROOT / "packaging" / "quatro-party.spec"
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--distpath", str(ROOT / "dist")]
    command += ["--workpath", str(ROOT / "build" / "pyinstaller"), str(spec)] + args
    done = subprocess.run(command, cwd=str(ROOT))
    if done.returncode:
        return done.returncode
    folder = ROOT / "dist" / "quatro-party"
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())
    _say(f"the bundle is {folder} ({size / 1e6:.0f} MB): zip that folder and hand it to the host.")
    return 0


def main():  # type: () -> int
    if sys.version_info < (3, 10):  # noqa: UP036 - this file runs on any python3 to say why not
        print(too_old_python(), file=sys.stderr)
        return 2
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    extra = command if command in ("test", "bundle") else "run"
    _ensure_environment(extra)
    if command == "test":
        import pytest

        os.chdir(str(ROOT))
        return int(pytest.main(sys.argv[2:]))
    if command == "bundle":
        return _bundle(sys.argv[2:])
    from quatro_party.launch import main as launch

    return launch(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
