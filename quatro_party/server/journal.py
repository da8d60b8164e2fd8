"""The table's journal: an append-only JSON-lines file from which a restarted host rebuilds its table.

The engine is pure and deterministic, so the table is saved as the calls that made it, not as a
snapshot: the first line is a header with what a new :class:`~quatro_party.engine.Game` needs (seat
count, the seed actually used, the timing), then one line per engine call, in order —

* ``{"t": now, "cmd": "Swap", "f": {...}, "r": refusal code or null, "n": events}`` for ``Game.apply``,
* ``{"t": now, "tick": true, "n": events}`` for ``Game.tick``,
* ``{"t": now, "snapshot": Game.snapshot()}``: the whole game at that point (see compaction below),

and one line per table-level change that is not an engine command: ``{"token": ..., "seat": s}`` (a
seat token issued), ``{"revoke": s}``, ``{"bot": s, "level": ...}``, ``{"unbot": s}``,
``{"settings": {...}}``. ``r`` and ``n`` let a replay check that every call had the same outcome.

At a round's end the table compacts its journal (:meth:`Journal.rewrite`): the header, then
``{"t": now, "snapshot": Game.snapshot()}`` (the whole game, its random generator included), then the
token, bot and settings lines of the table as it stands; so a restart replays one round at most.

Seat tokens are the phones' secrets: the file is created readable by this user only (0600).

The journal is never thrown away. Reading keeps every line up to the first one that cannot be
used (cut short by a crash, damaged, or a time jump no table makes: :data:`MAX_STEP`); blank lines
are skipped. Reopening for append sets what follows the good part aside in ``<path>.rest`` before
cutting it off. A write that fails (a full disk) leaves the file as it was before that write:
the lines are kept in memory, written again with the next one, and :attr:`Journal.failure` says
why in the meantime, for the big screen to tell the host.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import logging
import math
import os
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Any, get_args

from ..engine import Command

log = logging.getLogger("quatro.server")

#: Bumped when a journal of the previous format can no longer be replayed.
FORMAT = 1

#: Every engine command class, by the name the journal stores.
COMMANDS: dict[str, type] = {cls.__name__: cls for cls in get_args(Command)}

#: The key that tells each kind of line apart (exactly one per line).
ENTRY_KINDS = ("cmd", "tick", "token", "revoke", "bot", "unbot", "settings", "snapshot")

#: Largest step of the table's clock from one line to the next (seconds). The table's clock only moves while the
#: host runs (a restart goes on from the last line), so a real journal steps by seconds, at most by the hours a
#: table sits idle; a bigger jump is damage, and replaying it would make the engine catch up on it for minutes.
MAX_STEP = 24 * 3600.0
#: How far back a line's time may go from the latest one before it (float rounding only; the clock is monotonic).
MAX_BACK = 1.0

#: Where the part of a journal after its first unusable line is kept (see :meth:`Journal.reopen`).
REST_SUFFIX = ".rest"


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
    """The header, the entries and the length in bytes of the good part of the journal at ``path``
    (see :func:`read_lines`)."""
    header, entries, ends = read_lines(path)
    return header, entries, ends[-1]


def read_lines(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]], list[int]]:
    """The header, the entries, and where each line ends in the file: ``ends[0]`` after the header, ``ends[i]``
    after entry ``i - 1`` (a replay that must stop before entry ``i`` keeps the first ``ends[i]`` bytes).

    The good part ends before the first line that cannot be used: one that does not decode to a known
    entry (cut short by a crash mid-write, or damaged), or whose time goes back or jumps by more than
    :data:`MAX_STEP`. Blank lines are skipped. What follows is not replayed; :meth:`Journal.reopen` keeps it
    aside. Only a header that cannot be used raises :class:`JournalError` (there is nothing to resume);
    a file that cannot be read raises :class:`OSError`.
    """
    data = Path(path).read_bytes()
    header: dict[str, Any] | None = None
    entries: list[dict[str, Any]] = []
    ends: list[int] = []
    good = 0  # bytes up to the end of the last good line (its newline included when it has one)
    last_t = 0.0
    pos = 0
    number = 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        end = len(data) if nl < 0 else nl + 1
        line = data[pos:end]
        number += 1
        pos = end
        if not line.strip():
            if header is not None:
                good = ends[-1] = end  # a blank line is kept with the good part, not cut off
            continue
        try:
            value = json.loads(line)
        except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            if header is None:
                raise JournalError(f"line {number} of the journal: {exc}") from exc
            _stopped(path, number, f"not JSON ({exc})")
            break
        if header is None:
            header = _header(value)
            last_t = float(header["t"])
            good = end
            ends.append(end)
            continue
        try:
            entry_kind(value)
            t = float(value["t"])
            if not math.isfinite(t) or t < last_t - MAX_BACK or t > last_t + MAX_STEP:
                raise JournalError(f"its time {t!r} jumps from {last_t!r}")
        except JournalError as exc:
            _stopped(path, number, str(exc))
            break
        last_t = max(last_t, t)
        entries.append(value)
        good = end
        ends.append(end)
    if header is None:
        raise JournalError("the journal is empty")
    assert ends[-1] == good
    return header, entries, ends


def _header(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise JournalError("the journal's first line is not a header")
    if value.get("quatro_journal") != FORMAT:
        raise JournalError(f"not a journal of format {FORMAT}: {value!r}")
    for key in ("seats", "seed", "timing", "settings", "t"):
        if key not in value:
            raise JournalError(f"the journal's header lacks {key!r}")
    t = value["t"]
    if not isinstance(t, (int, float)) or isinstance(t, bool) or not math.isfinite(t):
        raise JournalError(f"the journal's header has no usable time: {t!r}")
    return value


def _stopped(path: str | Path, number: int, why: str) -> None:
    log.warning("the table's journal %s is replayed up to its line %d, which cannot be used: %s", path, number, why)


def describe(exc: OSError) -> str:
    """A few plain words for why a write failed, for the host to read on the big screen."""
    if exc.errno == errno.ENOSPC:
        return "disk full"
    if exc.errno == getattr(errno, "EDQUOT", -1):
        return "disk quota exceeded"
    if exc.errno == errno.EFBIG:
        return "file too large"
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return "not allowed to write"
    return exc.strerror or type(exc).__name__


class Journal:
    """The open journal of a running table: :meth:`write` appends one line.

    Writes go straight to the file descriptor (no buffer of ours), so the size of the file's good part is
    always known: a write that fails is cut back off the file and kept in memory, and the next :meth:`write`
    (or :meth:`retry`) writes it again first. :attr:`failure` is ``None`` while every line is on disk, else a
    few words of why (``"disk full"``); ``on_failure`` (if set) is called with it each time it changes.
    """

    def __init__(self, path: Path, fd: int, length: int) -> None:
        self.path = path
        self._fd = fd
        self._length = length  # bytes of the file that hold whole lines
        self._pending: list[bytes] = []  # lines not on disk yet, in order
        self.failure: str | None = None
        self.on_failure: Callable[[str | None], None] | None = None

    @classmethod
    def create(cls, path: str | Path, header: dict[str, Any]) -> Journal:
        """A new journal at ``path`` (replacing any file there), mode 0600, starting with ``header``.

        Raises ``OSError`` when the file cannot be created or its header cannot be written.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.fchmod(fd, 0o600)  # an older file keeps its mode through O_CREAT: seat tokens go in here
        except (OSError, AttributeError):  # pragma: no cover - Windows has no fchmod
            pass
        journal = cls(path, fd, 0)
        journal.write({"quatro_journal": FORMAT, **header})
        if journal.failure is not None:
            journal.close()
            raise OSError(errno.EIO, f"cannot write the journal's header: {journal.failure}")
        return journal

    @classmethod
    def reopen(cls, path: str | Path, length: int) -> Journal:
        """The journal at ``path``, cut back to its first ``length`` bytes (its good part, see :func:`read`),
        for appending.

        Whatever followed the good part (a line torn by a crash, damage and every line after it) is first
        kept in ``<path>.rest``, so that nothing written is ever thrown away; a torn last line is not worth
        keeping, and neither is whitespace.
        """
        path = Path(path)
        fd = os.open(path, os.O_RDWR)
        try:
            try:
                os.fchmod(fd, 0o600)
            except AttributeError:  # pragma: no cover - Windows
                pass
            size = os.fstat(fd).st_size
            if size > length:
                os.lseek(fd, length, os.SEEK_SET)
                rest = _read_all(fd, size - length)
                if rest.count(b"\n") > 1 or (rest.strip() and rest.endswith(b"\n")):
                    _keep_aside(path, rest)
            os.ftruncate(fd, length)
            if length:
                os.lseek(fd, length - 1, os.SEEK_SET)
                if os.read(fd, 1) != b"\n":
                    os.lseek(fd, length, os.SEEK_SET)
                    _write_all(fd, b"\n")  # the last good line was complete but for its newline
                    length += 1
        except OSError:
            os.close(fd)
            raise
        return cls(path, fd, length)

    def write(self, entry: dict[str, Any]) -> None:
        """Append one line (a crash loses at most the line being written).

        A disk that refuses it does not raise: the line waits in memory with the ones before it
        (see :attr:`failure`). Raises ``TypeError`` / ``ValueError`` for a value JSON cannot hold.
        """
        # ASCII only: a phone's name may hold a lone surrogate (refused, but journaled), which UTF-8 cannot encode.
        line = json.dumps(entry, separators=(",", ":"), allow_nan=False)
        self._pending.append(line.encode("ascii") + b"\n")
        self.retry()

    def retry(self) -> bool:
        """Write the lines still waiting; True when none waits any more."""
        if not self._pending:
            return True
        if self._fd < 0:
            return False
        data = b"".join(self._pending)
        try:
            os.lseek(self._fd, self._length, os.SEEK_SET)
            _write_all(self._fd, data)
        except OSError as exc:
            try:
                os.ftruncate(self._fd, self._length)  # no half line stays behind (shrinking needs no space)
            except OSError:
                pass
            self._set_failure(describe(exc))
            return False
        self._length += len(data)
        self._pending.clear()
        self._set_failure(None)
        return True

    def rewrite(self, entries: list[dict[str, Any]]) -> bool:
        """Replace the whole journal by ``entries`` (header first), atomically: a new file is written beside it,
        flushed to the disk and renamed over it, so a crash at any moment leaves the old journal or the new one.
        False (and the journal as it was) when the disk refuses, or lines still wait to be written."""
        if self._fd < 0 or self._pending:
            return False
        data = b"".join(json.dumps(e, separators=(",", ":"), allow_nan=False).encode("ascii") + b"\n" for e in entries)
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = -1
        try:
            fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
            _write_all(fd, data)
            os.fsync(fd)
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warning("cannot compact the table's journal %s (%s): it goes on as it is", self.path, exc)
            if fd >= 0:
                os.close(fd)
            try:
                os.unlink(tmp)
            except OSError:
                pass
            return False
        old, self._fd, self._length = self._fd, fd, len(data)
        os.close(old)
        return True

    @property
    def waiting(self) -> int:
        """Lines written by the table but not on disk yet."""
        return len(self._pending)

    def _set_failure(self, failure: str | None) -> None:
        if failure == self.failure:
            return
        if failure is None:
            log.warning("the table's journal %s is written again", self.path)
        else:
            log.warning("cannot write the table's journal %s (%s): kept in memory, tried again", self.path, failure)
        self.failure = failure
        if self.on_failure is not None:
            try:
                self.on_failure(failure)
            except Exception:  # pragma: no cover - the journal must not take the table down
                log.exception("journal failure callback")

    def close(self) -> None:
        """Write what still waits if the disk takes it now, and close the file (idempotent)."""
        if self._fd < 0:
            return
        self.retry()
        try:
            os.close(self._fd)
        except OSError:
            pass
        self._fd = -1


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        if n <= 0:  # pragma: no cover - a write of 0 bytes to a regular file
            raise OSError(errno.EIO, "write wrote nothing")
        view = view[n:]


def _read_all(fd: int, size: int) -> bytes:
    chunks = []
    while size > 0:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _keep_aside(path: Path, rest: bytes) -> None:
    """Add ``rest`` (lines cut off a journal) to ``<path>.rest``; a failure to do so is only logged."""
    target = path.with_name(path.name + REST_SUFFIX)
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            _write_all(fd, rest if rest.endswith(b"\n") else rest + b"\n")
        finally:
            os.close(fd)
        log.warning("%d bytes after the good part of the journal are kept in %s", len(rest), target)
    except OSError as exc:
        log.warning("cannot keep the end of the journal aside in %s (%s)", target, exc)


#: Lock files this process took with :func:`hold`, for its whole life: path of the lock file → descriptor.
_HELD: dict[str, int] = {}


def _lock_file(path: str | Path) -> Path:
    path = Path(path)
    return path.with_name(path.name + ".lock")


def lock(path: str | Path) -> int | None:
    """Hold ``<path>.lock`` for this process: a file descriptor to close when done, or ``None`` if another
    process holds it (a second host started on the same journal must not write into the first one's).

    A lock this process already took with :func:`hold` is shared: the descriptor returned is a duplicate
    of the held one (closing it keeps the lock). Where ``fcntl`` does not exist the lock file is opened
    but not locked. Raises ``OSError`` if it cannot be opened.
    """
    target = _lock_file(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    held = _HELD.get(str(target.resolve()))
    if held is not None:
        return os.dup(held)
    fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o600)
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


def hold(path: str | Path) -> bool:
    """Take the journal's lock for the rest of this process (the launcher, before it touches any file).

    True when this process holds it (now or already); False when another process does. The table of this
    process then shares it (:func:`lock`). Raises ``OSError`` if the lock file cannot be opened.
    """
    key = str(_lock_file(path).resolve())
    if key in _HELD:
        return True
    fd = lock(path)
    if fd is None:
        return False
    _HELD[key] = fd
    return True


def release(path: str | Path) -> None:
    """Give back a lock taken with :func:`hold` (tests; the launcher keeps it until it exits)."""
    fd = _HELD.pop(str(_lock_file(path).resolve()), None)
    if fd is not None:
        os.close(fd)


def set_aside(path: str | Path, suffix: str) -> Path | None:
    """Rename the journal to ``<path><suffix>`` (replacing an older one); the new name, or ``None`` if it failed."""
    path = Path(path)
    target = path.with_name(path.name + suffix)
    try:
        os.replace(path, target)
    except OSError:
        return None
    return target
