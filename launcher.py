#!/usr/bin/env python3
"""Quatro Party from a fresh clone, with nothing but Python 3.10+.

    python3 launcher.py            # host a table: server, mDNS, QR code, big screen
    python3 launcher.py test       # run the whole test suite

If the dependencies are not importable, this first creates a virtual environment
in ``.venv`` beside this file, installs the project into it (with the ``test`` extra
for ``test``), says so, and re-runs itself there. Only the standard library is
used before that point.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
RUNTIME_MODULES = ("flask", "flask_sock", "simple_websocket", "zeroconf", "qrcode", "PIL")
TEST_MODULES = ("pytest", "pytest_timeout", "hypothesis", "playwright", "pyzbar", "mypy", "ruff", "vulture")


def _venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _missing(modules: tuple[str, ...]) -> list[str]:
    return [m for m in modules if importlib.util.find_spec(m) is None]


def _stamp(extra: str) -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()[:16]
    return f"{digest}:{extra}"


def _ensure_environment(testing: bool) -> None:
    """Re-exec inside ``.venv``, creating it and installing the project first when needed.

    The game always runs from its own environment, so a fresh clone behaves like the
    developer's checkout. ``QUATRO_NO_VENV=1`` uses the current interpreter as it is.
    """
    in_our_venv = Path(sys.prefix).resolve() == VENV.resolve()
    if in_our_venv or os.environ.get("QUATRO_NO_VENV"):
        wanted = RUNTIME_MODULES + (TEST_MODULES if testing else ())
        if _missing(wanted):
            print(f"quatro: missing modules {', '.join(_missing(wanted))}", file=sys.stderr)
            if not in_our_venv:
                sys.exit(2)
        else:
            sys.path.insert(0, str(ROOT))
            return
    extra = "test" if testing else "run"
    stamp_file = VENV / ".quatro-installed"
    have = stamp_file.read_text().split() if stamp_file.exists() else []
    if _stamp("test") not in have and _stamp(extra) not in have:
        if not _venv_python().exists():
            print(f"quatro: creating a virtual environment in {VENV} (first run only)…", flush=True)
            venv.EnvBuilder(with_pip=True).create(VENV)
        target = ".[test]" if testing else "."
        print(f"quatro: installing dependencies into {VENV} (pip install -e '{target}')…", flush=True)
        subprocess.run([str(_venv_python()), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=False)
        subprocess.run([str(_venv_python()), "-m", "pip", "install", "-q", "-e", target], cwd=ROOT, check=True)
        stamp_file.write_text("\n".join(have + [_stamp(extra)]))
    if in_our_venv:
        return
    os.execv(str(_venv_python()), [str(_venv_python()), str(ROOT / "launcher.py"), *sys.argv[1:]])


def main() -> int:
    if sys.version_info < (3, 10):  # noqa: UP036 - this file runs on any python3 to say why not
        print("Quatro Party needs Python 3.10 or newer.", file=sys.stderr)
        return 2
    testing = len(sys.argv) > 1 and sys.argv[1] == "test"
    _ensure_environment(testing)
    if testing:
        import pytest

        os.chdir(ROOT)
        return int(pytest.main(sys.argv[2:]))
    from quatro_party.launch import main as launch

    return launch(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
