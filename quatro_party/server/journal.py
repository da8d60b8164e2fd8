"""The table's journal: an append-only JSON-lines file from which a restarted host rebuilds its table.

The engine is pure and deterministic, so the table is saved as the calls that made it, not as a
snapshot: the first line is a header with what a new :class:`~quatro_party.engine.Game` needs (seat
count, the seed actually used, the timing), then one line per engine call, in order —

* ``{"t": now, "cmd": "Swap", "f": {...}, "r": refusal code or null, "n": events}`` for ``Game.apply``,
* ``{"t": now, "tick": true, "n": events}`` for ``Game.tick``,
* ``{"t": now, "position": "AAAK ... | KQT9"}`` for the ``set_position`` test hook,

and one line per table-level change that is not an engine command: ``{"token": ..., "seat": s}`` (a
seat token issued), ``{"revoke": s}``, ``{"bot": s, "level": ...}``, ``{"unbot": s}``,
``{"settings": {...}}``. ``r`` and ``n`` let a replay check that every call had the same outcome.

Seat tokens are the phones' secrets: the file is created readable by this user only (0600).
A line cut short by a crash mid-write is the last line: reading drops it and keeps the rest.
"""

from __future__ import annotations

import dataclasses
import json
import os
from enum import Enum
from pathlib import Path
from typing import IO, Any, get_args

from ..engine import Command

#: Bumped when a journal of the previous format can no longer be replayed.
FORMAT = 1

#: Every engine command class, by the name the journal stores.
COMMANDS: dict[str, type] = {cls.__name__: cls for cls in get_args(Command)}

#: The key that tells each kind of line apart (exactly one per line).
ENTRY_KINDS = ("cmd", "tick", "position", "token", "revoke", "bot", "unbot", "settings")


class JournalError(Exception):
    """The journal cannot be read or replayed (corrupt, another format, or a different outcome)."""


def command_entry(command: Any) -> dict[str, Any]:
    """``{"cmd": class name, "f": fields}`` for an engine command (enum fields stored by value)."""
    cls = type(command)
    if COMMANDS.get(cls.__name__) is not cls:
        raise TypeError(f"not an engine command: {command!r}")
    fields = {}
    for f in dataclasses.fields(command):
        value = getattr(command, f.name)
        fields[f.name] = value.value if isinstance(value, Enum) else value
    return {"cmd": cls.__name__, "f": fields}


def command_from(entry: dict[str, Any]) -> Any:
    """The engine command a :func:`command_entry` line describes. Raises :class:`JournalError` if it names none."""
    name, fields = entry.get("cmd"), entry.get("f")
    cls = COMMANDS.get(name) if isinstance(name, str) else None
    if cls is None or not isinstance(fields, dict):
        raise JournalError(f"not a command line: {entry!r}")
    try:
        return cls(**fields)
    except (TypeError, ValueError) as exc:  # unknown field, or a SeatKind that is none
        raise JournalError(f"bad command line {entry!r}: {exc}") from exc


def entry_kind(entry: Any) -> str:
    """Which kind of line ``entry`` is (one of :data:`ENTRY_KINDS`); :class:`JournalError` if none or several."""
    if not isinstance(entry, dict) or not isinstance(entry.get("t"), (int, float)) or isinstance(entry["t"], bool):
        raise JournalError(f"a journal line is an object with a time 't': {entry!r}")
    kinds = [k for k in ENTRY_KINDS if k in entry]
    if len(kinds) != 1:
        raise JournalError(f"a journal line has exactly one kind: {entry!r}")
    return kinds[0]


def read(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """The header, the entries and the length in bytes of the good part of the journal at ``path``.

    A last line that does not decode to a known entry (cut short by a crash mid-write) is left out,
    and the length returned stops before it. Anything else wrong raises :class:`JournalError`;
    a file that cannot be read raises :class:`OSError`.
    """
    data = Path(path).read_bytes()
    lines = data.split(b"\n")
    # Offsets of each line's end, newline included when there is one.
    ends: list[int] = []
    pos = 0
    for line in lines:
        pos += len(line) + 1
        ends.append(min(pos, len(data)))
    decoded: list[tuple[Any, int]] = []
    for i, line in enumerate(lines):
        if not line.strip():
            if i == len(lines) - 1:
                break  # the newline that ends the last line
            raise JournalError(f"empty line {i + 1} in the journal")
        last = i == len(lines) - 1 or (i == len(lines) - 2 and not lines[-1].strip())
        try:
            value = json.loads(line)
            if i > 0:
                entry_kind(value)
            elif not isinstance(value, dict):
                raise JournalError("the journal's first line is not a header")
        except (ValueError, JournalError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            if last and i > 0:
                break  # cut short by a crash: drop it, keep the rest
            raise JournalError(f"line {i + 1} of the journal: {exc}") from exc
        decoded.append((value, ends[i]))
    if not decoded:
        raise JournalError("the journal is empty")
    header = decoded[0][0]
    if header.get("quatro_journal") != FORMAT:
        raise JournalError(f"not a journal of format {FORMAT}: {header!r}")
    for key in ("seats", "seed", "timing", "settings", "t"):
        if key not in header:
            raise JournalError(f"the journal's header lacks {key!r}")
    return header, [value for value, _ in decoded[1:]], decoded[-1][1]


class Journal:
    """The open journal of a running table: :meth:`write` appends one line and flushes it."""

    def __init__(self, path: Path, file: IO[str]) -> None:
        self.path = path
        self._file = file

    @classmethod
    def create(cls, path: str | Path, header: dict[str, Any]) -> Journal:
        """A new journal at ``path`` (replacing any file there), mode 0600, starting with ``header``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)  # an older file keeps its mode through O_CREAT: seat tokens go in here
        journal = cls(path, os.fdopen(fd, "w", encoding="utf-8"))
        journal.write({"quatro_journal": FORMAT, **header})
        return journal

    @classmethod
    def reopen(cls, path: str | Path, length: int) -> Journal:
        """The journal at ``path``, cut back to its first ``length`` bytes (a torn last line goes), for appending."""
        path = Path(path)
        fd = os.open(path, os.O_RDWR)
        try:
            os.fchmod(fd, 0o600)
            os.ftruncate(fd, length)
            if length and os.pread(fd, 1, length - 1) != b"\n":
                os.pwrite(fd, b"\n", length)  # the last good line was complete but for its newline
            os.lseek(fd, 0, os.SEEK_END)
        except OSError:
            os.close(fd)
            raise
        return cls(path, os.fdopen(fd, "a", encoding="utf-8"))

    def write(self, entry: dict[str, Any]) -> None:
        """Append one line and flush it (a crash loses at most the line being written).

        Raises ``OSError`` (disk) or ``TypeError`` / ``ValueError`` (a value JSON cannot hold).
        """
        # ASCII only: a phone's name may hold a lone surrogate (refused, but journaled), which UTF-8 cannot encode.
        line = json.dumps(entry, separators=(",", ":"), allow_nan=False)
        self._file.write(line + "\n")
        self._file.flush()

    def close(self) -> None:
        """Close the file (idempotent)."""
        try:
            self._file.close()
        except OSError:
            pass


def lock(path: str | Path) -> int | None:
    """Hold ``<path>.lock`` for this process: a file descriptor to close when done, or ``None`` if another
    process holds it (a second host started on the same journal must not write into the first one's).

    Where ``fcntl`` does not exist the lock file is opened but not locked. Raises ``OSError`` if it cannot be opened.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return fd
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def set_aside(path: str | Path, suffix: str) -> Path | None:
    """Rename the journal to ``<path><suffix>`` (replacing an older one); the new name, or ``None`` if it failed."""
    path = Path(path)
    target = path.with_name(path.name + suffix)
    try:
        os.replace(path, target)
    except OSError:
        return None
    return target
