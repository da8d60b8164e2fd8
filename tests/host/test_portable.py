"""Every host OS: no POSIX-only call outside a platform-guarded place, the platform's own folders (through
platformdirs), and a table an earlier version kept in ``~/.config/quatro-party`` still found."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import platformdirs
import platformdirs.macos
import pytest
from filelock import FileLock

from quatro_party import launch
from quatro_party.server.botstub import make_bot as make_stub
from quatro_party.server.table import Table
from quatro_party.server.testing import FakeClock
from tests.host.hosting import ROOT, clean_env, read_until_port, stop

# --- POSIX-only calls ---------------------------------------------------------------------------------------

#: Modules that do not exist on Windows.
POSIX_MODULES = {"fcntl", "termios", "tty", "pty", "pwd", "grp", "resource", "posix", "syslog", "crypt", "curses"}
#: Names of ``os``, ``signal`` and ``socket`` that do not exist on Windows, or do not do there what they say
#: (``os.execv`` spawns a child and exits: see launcher.py).
# fmt: off
POSIX_NAMES = {
    "os": {
        "fork", "forkpty", "execv", "execve", "execl", "execle", "execlp", "execlpe", "execvp", "execvpe", "setsid",
        "setpgid", "getpgid", "getpgrp", "killpg", "getuid", "geteuid", "getgid", "getegid", "setuid", "setgid",
        "chown", "fchown", "lchown", "fchmod", "lchmod", "chroot", "mkfifo", "mknod", "nice", "sync", "statvfs",
        "fstatvfs", "getloadavg", "openpty", "pipe2", "wait3", "wait4", "uname", "sysconf", "pathconf",
        "fpathconf", "sched_getaffinity", "sched_setaffinity", "O_NONBLOCK", "O_CLOEXEC", "O_NOFOLLOW",
        "O_DIRECTORY", "WNOHANG", "posix_spawn", "register_at_fork",
    },
    "signal": {
        "SIGKILL", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGCHLD", "SIGPIPE", "SIGSTOP",
        "SIGCONT", "SIGTSTP", "SIGWINCH", "alarm", "setitimer", "getitimer", "pause", "pthread_kill",
        "pthread_sigmask", "sigwait", "siginterrupt",
    },
    "socket": {"AF_UNIX", "SO_REUSEPORT", "MSG_NOSIGNAL", "SO_BINDTODEVICE"},
    "time": {"tzset"},
}
# fmt: on
#: What a guard may test: the platform, or whether a name exists.
GUARD_NAMES = {"name", "platform", "system", "hasattr", "getattr"}
#: What a ``try`` may catch around a call that is not everywhere.
GUARD_ERRORS = {"ImportError", "ModuleNotFoundError", "AttributeError"}


def _mentions_platform(node: ast.AST, platform_names: set[str]) -> bool:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr in GUARD_NAMES:
            return True
        if isinstance(sub, ast.Name) and (sub.id in GUARD_NAMES or sub.id in platform_names):
            return True
    return False


def _catches(handler: ast.ExceptHandler) -> set[str]:
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return {k.id for k in kinds if isinstance(k, ast.Name)}


def posix_only_calls(source: str) -> list[str]:
    """``line: what`` for every POSIX-only module or name ``source`` uses outside a platform-guarded place: an
    ``if`` / conditional expression testing ``os.name``, ``sys.platform``, ``platform.system()``, ``hasattr``,
    ``getattr`` (or a module-level name set from them), or a ``try`` catching ImportError / AttributeError."""
    tree = ast.parse(source)
    platform_names = {
        t.id
        for node in tree.body
        if isinstance(node, ast.Assign) and _mentions_platform(node.value, set())
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node

    def guarded(node: ast.AST) -> bool:
        while node in parents:
            parent = parents[node]
            if isinstance(parent, (ast.If, ast.IfExp, ast.While)) and _mentions_platform(parent.test, platform_names):
                return True
            if isinstance(parent, ast.Try) and node in parent.body:
                if any(_catches(h) & GUARD_ERRORS for h in parent.handlers):
                    return True
            node = parent
        return False

    found = []
    for node in ast.walk(tree):
        what = None
        if isinstance(node, ast.Import):
            what = next((a.name for a in node.names if a.name.split(".")[0] in POSIX_MODULES), None)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in POSIX_MODULES:
                what = node.module
            elif node.module in POSIX_NAMES:
                what = next((f"{node.module}.{a.name}" for a in node.names if a.name in POSIX_NAMES[node.module]), None)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.attr in POSIX_NAMES.get(node.value.id, ()):
                what = f"{node.value.id}.{node.attr}"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("get_context", "set_start_method") and any(
                isinstance(a, ast.Constant) and a.value in ("fork", "forkserver") for a in node.args
            ):
                what = f"multiprocessing start method {node.args[0].value!r}"  # type: ignore[attr-defined]
        if what and not guarded(node):
            found.append((node.lineno, what))  # type: ignore[attr-defined]
    return [f"{line}: {what}" for line, what in sorted(found)]


def _host_sources() -> list[Path]:
    return sorted((ROOT / "quatro_party").rglob("*.py")) + [
        ROOT / "launcher.py",
        ROOT / "packaging" / "quatro_party_host.py",
    ]


def test_no_posix_only_call_outside_a_platform_guard():
    found = {
        str(path.relative_to(ROOT)): calls for path in _host_sources() if (calls := posix_only_calls(path.read_text()))
    }
    assert found == {}


def test_the_posix_only_check_finds_what_it_should():
    """The check can fail: unguarded calls are found, guarded ones are not."""
    unguarded = """
import fcntl
import os, signal
from os import fork
os.execv(a, b)
os.fchmod(fd, 0o600)
signal.signal(signal.SIGHUP, f)
ctx = multiprocessing.get_context("fork")
"""
    assert [c.split(": ")[1] for c in posix_only_calls(unguarded)] == [
        "fcntl",
        "os.fork",
        "os.execv",
        "os.fchmod",
        "signal.SIGHUP",
        "multiprocessing start method 'fork'",
    ]
    guarded = """
import os, sys
TRUE_EXEC = os.name != "nt"
try:
    import fcntl
except ImportError:
    fcntl = None
if hasattr(os, "fchmod"):
    os.fchmod(fd, 0o600)
if TRUE_EXEC:
    os.execv(a, b)
if sys.platform != "win32":
    signal.signal(signal.SIGHUP, f)
ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
"""
    assert posix_only_calls(guarded) == []
    old_launcher = subprocess.run(
        ["git", "-C", str(ROOT), "show", "3047529:launcher.py"], capture_output=True, text=True
    ).stdout
    if old_launcher:  # (a shallow clone may not have it)
        assert [c.split(": ")[1] for c in posix_only_calls(old_launcher)] == ["os.execv"]


# --- the platform's folders -----------------------------------------------------------------------------------


@pytest.fixture
def home(tmp_path, monkeypatch):
    for var in ("QUATRO_STATE_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def test_the_state_and_log_folders_are_the_platforms(home, monkeypatch):
    assert launch.state_dir() == home / ".local" / "state" / "quatro-party"  # Linux: XDG's state folder
    assert launch.log_file() == home / ".local" / "state" / "quatro-party" / "log" / "host.log"
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.macos.MacOS)  # what macOS answers
    assert launch.state_dir() == home / "Library" / "Application Support" / "quatro-party"
    assert launch.log_file() == home / "Library" / "Logs" / "quatro-party" / "host.log"
    monkeypatch.setenv("QUATRO_STATE_DIR", str(home / "chosen"))
    assert launch.state_dir() == home / "chosen" and launch.log_file() == home / "chosen" / "host.log"


def test_a_table_kept_in_the_old_folder_is_moved_to_the_new_one(home):
    old = home / ".config" / "quatro-party" / "table.jsonl"
    old.parent.mkdir(parents=True)
    old.write_text("the last table\n")
    written = old.stat().st_mtime
    said = launch.adopt_legacy_table()
    new = launch.state_dir() / "table.jsonl"
    assert said is not None and "moved" in said
    assert new.read_text() == "the last table\n" and not old.exists()
    assert new.stat().st_mtime == written  # a table left days ago is still not resumed
    old.write_text("an older one\n")
    assert launch.adopt_legacy_table() is None and new.read_text() == "the last table\n"  # never over a table


def test_a_table_an_old_host_is_still_running_stays_where_it_is(home):
    old = home / ".config" / "quatro-party" / "table.jsonl"
    old.parent.mkdir(parents=True)
    old.write_text("the running table\n")
    running = FileLock(old.with_name("table.jsonl.lock"), timeout=0)  # an older host's lock (flock, as filelock's)
    running.acquire()
    try:
        assert launch.adopt_legacy_table() is None
        assert old.exists() and not (launch.state_dir() / "table.jsonl").exists()
    finally:
        running.release()


def test_an_upgraded_host_resumes_the_table_of_the_old_folder(tmp_path):
    old = tmp_path / "home" / ".config" / "quatro-party" / "table.jsonl"
    table = Table({"clock": FakeClock(), "host_secret": "s", "seed": 5, "journal": old, "bot_factory": make_stub})
    table.host.start_game()  # four bots: a game in play
    table.stop()
    env = clean_env(tmp_path / "home", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "quatro_party.launch", "--port", "0", "--bind", "127.0.0.1", "--no-browser"]
        + ["--no-mdns"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        _, out = read_until_port(proc)
    finally:
        proc.terminate()
        proc.wait(10)
        stop(proc)
    assert "The last table moved from" in out and "round 1" in out, out
    assert (tmp_path / "home" / ".local" / "state" / "quatro-party" / "table.jsonl").exists()


def test_a_second_host_on_the_same_state_folder_is_refused_through_the_librarys_lock(tmp_path):
    """The lock is filelock's: whatever holds it (here this test, through filelock) keeps a second host away
    from the table's journal."""
    state = tmp_path / "state"
    state.mkdir()
    running = FileLock(state / "table.jsonl.lock", timeout=0)
    running.acquire()
    env = clean_env(tmp_path / "home", PYTHONPATH=str(ROOT), QUATRO_STATE_DIR=str(state))
    proc = subprocess.Popen(
        [sys.executable, "-m", "quatro_party.launch", "--port", "0", "--bind", "127.0.0.1", "--no-browser"]
        + ["--no-mdns", "--fresh"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        _, out = read_until_port(proc)
    finally:
        proc.terminate()
        proc.wait(10)
        stop(proc)
        running.release()
    assert "Another Quatro Party host is running" in out
    assert not (state / "table.jsonl").exists() and not (state / "table.jsonl.old").exists()
    assert sorted(os.listdir(state)) == ["host.log", "table.jsonl.lock"]
