"""The host's terminal, all evening: what reaches it of the log (a few lines, so that the QR code stays in view),
the log file that keeps the rest, and the QR code drawn as the terminal can show it."""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
from pathlib import Path
from typing import TextIO

#: Server modules whose records are about one socket (a phone came, went, flooded, got stuck): the log file
#: keeps them; the terminal shows them only with ``--verbose``, so that the QR code stays in view.
CONNECTION_MODULES = frozenset(
    {"connection", "guard", "door", "routes", "serving", "table", "seats", "audience", "outbox", "host"}
)


class TerminalFilter(logging.Filter):
    """What reaches the terminal without ``--verbose``: no record about one socket, none from Werkzeug, short
    of an error."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR:
            return True
        return record.name != "werkzeug" and record.module not in CONNECTION_MODULES


def log_to_terminal(quiet: bool, verbose: bool) -> logging.Handler:
    """Logging as the host needs it: the terminal gets warnings (errors with ``--quiet``, every record with
    ``--verbose``); the root logger passes INFO on, for the log file that :func:`log_to_file` adds."""
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per page or socket, even in the file
    terminal = logging.StreamHandler(sys.stderr)
    terminal.setLevel(logging.ERROR if quiet else logging.INFO if verbose else logging.WARNING)
    terminal.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s", "%H:%M:%S"))
    if not verbose:
        terminal.addFilter(TerminalFilter())
    root.addHandler(terminal)
    return terminal


def log_to_file(path: Path) -> Path | None:
    """Every record from INFO up also goes to ``path`` (UTF-8, rotated at 1 MB, two kept); where it cannot be
    opened, the terminal says so once and the host goes on without it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(path, maxBytes=1_000_000, backupCount=2, encoding="utf-8")
    except OSError as exc:
        print(f"cannot write the log file {path} ({exc}): the host goes on without it", file=sys.stderr)
        return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    logging.getLogger().addHandler(handler)
    return path


def _takes_colour(out: TextIO) -> bool:
    """Whether escape codes (colour) draw on ``out``: a terminal that is not a dumb one. On Windows the console
    must be asked to read them (Windows 10 and later can); an older console cannot."""
    try:
        if not out.isatty() or os.environ.get("TERM") == "dumb":
            return False
    except (AttributeError, ValueError):
        return False
    if sys.platform != "win32":
        return True
    import ctypes

    kernel32 = ctypes.windll.kernel32
    handle = kernel32.GetStdHandle(-11)  # STD_OUTPUT_HANDLE
    mode = ctypes.c_uint32()
    if not kernel32.GetConsoleMode(handle, ctypes.byref(mode)):
        return False
    return bool(kernel32.SetConsoleMode(handle, mode.value | 0x0004))  # ENABLE_VIRTUAL_TERMINAL_PROCESSING


def terminal_qr(url: str, out: TextIO) -> str | None:
    """The QR code of ``url`` as ``out`` can show it (in black on white where it takes colour), or ``None``
    when ``out`` cannot print its characters (a redirected Windows console is cp1252): the URL alone then."""
    from .server.qr import qr_terminal

    text = qr_terminal(url, colour=_takes_colour(out))
    try:
        text.encode(getattr(out, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return None
    return text


def never_fails_to_print() -> None:
    """A character the output cannot encode (a phone's emoji name in a warning, on a cp1252 console) is printed
    as ``?`` instead of raising inside the host."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="replace")
            except (ValueError, OSError):  # pragma: no cover - a stream that cannot change now
                pass
