"""Helpers for the tests of the host as a host runs it: a copy of the checkout, a clean environment, a real
terminal (a pseudo-terminal read by a terminal emulator), and what that terminal shows turned into a picture
for a QR decoder."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import termios
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pyte
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
#: The interpreter the test environment was made from (the one a host types ``python3`` for), not the venv's.
BASE_PYTHON = Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
#: What a checkout holds that a copy must not: environments, builds, caches.
NOT_COPIED = (".venv", ".git", "build", "dist", "__pycache__", "screenshots", "*.egg-info", ".*_cache", ".hypothesis")


def copy_checkout(dest: Path) -> Path:
    """A copy of this checkout (its files, no environment) at ``dest``."""
    shutil.copytree(ROOT, dest, ignore=shutil.ignore_patterns(*NOT_COPIED, "install.log"))
    return dest


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    """This process's environment less what points at the test's own Python or state, with ``HOME`` fresh."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTHON", "QUATRO_", "XDG_", "VIRTUAL_ENV", "PYTEST")) and k != "COLUMNS"
    }
    env["HOME"] = str(home)
    env.update(extra)
    return env


def read_until_port(proc: subprocess.Popen[str], timeout: float = 60.0) -> tuple[int, str]:
    """The launcher's output up to its last start-up line ("Port N. Press Ctrl-C to stop."), and N."""
    assert proc.stdout is not None
    out = ""
    deadline = time.monotonic() + timeout
    for line in proc.stdout:
        out += line
        if line.startswith("Port "):
            return int(line.split()[1].rstrip(".")), out
        assert time.monotonic() < deadline, out
    raise AssertionError(f"the host stopped before it was ready (exit {proc.wait()}):\n{out}")


def get(url: str) -> tuple[int, str, bytes]:
    """Status, content type and body of a GET (an error status is returned, not raised)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.status, resp.headers.get("Content-Type", ""), resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers.get("Content-Type", ""), err.read()


def stop(proc: subprocess.Popen[Any], timeout: float = 10.0) -> None:
    """Make sure ``proc`` is gone (after a test that failed before stopping it)."""
    if proc.poll() is None:
        proc.kill()
        proc.wait(timeout)


class Terminal:
    """A command run in a real pseudo-terminal of ``cols`` × ``rows``, its output fed to a terminal emulator
    (pyte): :meth:`lines` is what the host's window shows, its last ``rows`` lines."""

    def __init__(self, command: list[str], env: dict[str, str], cols: int = 80, rows: int = 24) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.proc = subprocess.Popen(
            command, stdin=slave, stdout=slave, stderr=slave, env={**env, "TERM": "xterm-256color"}, cwd="/"
        )
        os.close(slave)
        self._master = master
        self.screen = pyte.Screen(cols, rows)
        self._stream = pyte.ByteStream(self.screen)
        self._lock = threading.Lock()
        self.raw = bytearray()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self._master, 65536)
            except OSError:  # EIO: the other side closed
                return
            if not data:
                return
            with self._lock:
                self.raw += data
                self._stream.feed(data)

    def lines(self) -> list[str]:
        with self._lock:
            return list(self.screen.display)

    def wait_for(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, "\n".join(self.lines()))
            if found:
                return found
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} never showed; the terminal:\n" + "\n".join(self.lines()))

    def picture(self, theme: str) -> Image.Image:
        with self._lock:
            return screen_picture(self.screen, theme)

    def close(self) -> None:
        stop(self.proc)
        self._reader.join(5)
        os.close(self._master)


#: A terminal theme: its default foreground and background.
THEMES = {"dark": ((229, 229, 229), (0, 0, 0)), "light": ((0, 0, 0), (255, 255, 255))}
_NAMED = {"black": (0, 0, 0), "white": (229, 229, 229), "brightwhite": (255, 255, 255)}


def _colour(value: str, default: tuple[int, int, int]) -> tuple[int, int, int]:
    if value == "default":
        return default
    if re.fullmatch(r"[0-9a-fA-F]{6}", value):
        return int(value[:2], 16), int(value[2:4], 16), int(value[4:], 16)
    return _NAMED.get(value, default)


def screen_picture(screen: pyte.Screen, theme: str, scale: int = 4) -> Image.Image:
    """What ``screen`` looks like in ``theme`` (``dark``: light text on black, ``light``: black on white), as
    a picture: each cell two squares high (its top and bottom half); a half block paints its half in the cell's
    foreground colour, everything else (text included) is the cell's background."""
    fg_default, bg_default = THEMES[theme]
    img = Image.new("RGB", (screen.columns * scale, screen.lines * 2 * scale))
    pixels = img.load()
    for y in range(screen.lines):
        row = screen.buffer[y]
        for x in range(screen.columns):
            cell = row[x]
            fg, bg = _colour(cell.fg, fg_default), _colour(cell.bg, bg_default)
            if cell.reverse:
                fg, bg = bg, fg
            halves = (fg if cell.data in "\u2588\u2580" else bg, fg if cell.data in "\u2588\u2584" else bg)
            for half, colour in enumerate(halves):
                for dy in range(scale):
                    for dx in range(scale):
                        pixels[x * scale + dx, (2 * y + half) * scale + dy] = colour
    return img


def decode_qr(img: Image.Image) -> list[str]:
    """What zbar reads in ``img`` (QR codes only)."""
    from pyzbar.pyzbar import ZBarSymbol, decode

    return [s.data.decode() for s in decode(img, symbols=[ZBarSymbol.QRCODE])]
