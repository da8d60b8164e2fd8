"""The table's journal, the file: an append-only JSON-lines file from which a restarted host rebuilds its table
(what its lines say, and reading it back: :mod:`.journal_format`, re-exported here).

At a round's end the table compacts its journal (:meth:`Journal.rewrite`): the header, then
``{"t": now, "snapshot": Game.snapshot()}`` (the whole game, its random generator included), then the
token, bot and settings lines of the table as it stands; so a restart replays one round at most.

Seat tokens are the phones' secrets: the file is created readable by this user only (0600). Every file is
opened in binary mode (``O_BINARY`` where it exists: Windows' C runtime would otherwise write each ``\n`` as
``\r\n`` behind the byte counts). One host writes a journal: :func:`lock` (``filelock``) keeps a second away.

The journal is never thrown away. Reopening for append sets what follows its good part aside in
``<path>.rest`` before cutting it off. A write that fails (a full disk) leaves the file as it was before that
write: the lines are kept in memory, written again with the next one, and :attr:`Journal.failure` says
why in the meantime, for the big screen to tell the host.
"""

from __future__ import annotations

import errno
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from .journal_format import (
    COMMANDS,
    ENTRY_KINDS,
    FORMAT,
    MAX_BACK,
    MAX_STEP,
    READABLE_FORMATS,
    JournalError,
    Reading,
    command_entry,
    command_from,
    encode_line,
    entry_kind,
    read,
    read_journal,
    read_lines,
)

log = logging.getLogger("quatro.server")

#: Where the part of a journal after its first unusable line is kept (see :meth:`Journal.reopen`).
REST_SUFFIX = ".rest"
#: A compacted journal, whole and on disk, waiting to be copied over the journal in place (see
#: :meth:`Journal.rewrite`); whoever takes the journal's :func:`lock` next finishes that copy first.
COMPACTED_SUFFIX = ".compacted"


def _open(path: str | Path, flags: int) -> int:
    """``os.open`` in binary mode on every system (Windows' C runtime opens in text mode without ``O_BINARY``)."""
    return os.open(path, flags | getattr(os, "O_BINARY", 0), 0o600)


def _private(fd: int) -> None:
    """Make the open file readable by its user only, where modes exist (seat tokens go in here)."""
    if hasattr(os, "fchmod"):  # not on Windows, where the user's folder is private already
        os.fchmod(fd, 0o600)


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
        self._unfinished: Path | None = None  # a compacted journal still to copy over this one (see rewrite)
        self._closed = False
        self.failure: str | None = None
        self.on_failure: Callable[[str | None], None] | None = None

    @classmethod
    def create(cls, path: str | Path, header: dict[str, Any]) -> Journal:
        """A new journal at ``path`` (replacing any file there), mode 0600, starting with ``header``.

        Raises ``OSError`` when the file cannot be created or its header cannot be written.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = _open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC)
        try:
            _private(fd)  # an older file keeps its mode through O_CREAT
        except OSError:
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
        fd = _open(path, os.O_RDWR)
        try:
            _private(fd)
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
        self._pending.append(encode_line(entry))
        self.retry()

    def retry(self) -> bool:
        """Write the lines still waiting; True when none waits any more."""
        if not self._pending:
            return True
        if self._fd < 0 and not self._closed:
            self._reopen()
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
        """Replace the whole journal by ``entries`` (header first), so that a crash at any moment leaves the old
        journal or the new one: the new one is written beside it, flushed to the disk, and renamed over it once
        our own handle is closed (Windows renames nothing over an open file). Where another program holds the
        journal open and the rename is refused (Windows again), the new one is kept as ``<path>.compacted``
        and copied over the journal in place; a crash during that copy is finished by the next :func:`lock`.
        False (and the journal as it was) when the disk refuses, or lines still wait to be written."""
        if self._fd < 0 or self._pending:
            return False
        data = b"".join(encode_line(e) for e in entries)
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            fd = _open(tmp, os.O_RDWR | os.O_CREAT | os.O_TRUNC)
            try:
                _write_all(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            log.warning("cannot compact the table's journal %s (%s): it goes on as it is", self.path, exc)
            _unlink(tmp)
            return False
        os.close(self._fd)
        self._fd = -1
        compacted = self.path.with_name(self.path.name + COMPACTED_SUFFIX)
        try:
            try:
                os.replace(tmp, self.path)
            except PermissionError:  # the journal is open elsewhere: the new one waits beside it, whole
                os.replace(tmp, compacted)
                self._unfinished = compacted
        except OSError as exc:
            log.warning("cannot compact the table's journal %s (%s): it goes on as it is", self.path, exc)
            _unlink(tmp)
            self._reopen()  # the old journal, as it was
            return False
        self._length = len(data)
        self._reopen()
        return True

    def _reopen(self) -> None:
        """Open the journal again after a compaction, finishing its copy in place first when it waits; a disk
        that refuses leaves ``_fd`` at -1 and :attr:`failure` set, and :meth:`retry` tries again."""
        try:
            if self._unfinished is not None:
                finish_compaction(self.path)
                self._unfinished = None
            self._fd = _open(self.path, os.O_RDWR)
        except OSError as exc:
            self._set_failure(describe(exc))

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
        if self._closed:
            return
        self.retry()
        self._closed = True
        if self._fd >= 0:
            try:
                os.close(self._fd)
            except OSError:
                pass
        self._fd = -1


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def finish_compaction(path: str | Path) -> None:
    """Copy a compacted journal left waiting beside ``path`` (see :meth:`Journal.rewrite`) over the journal in
    place, unless the journal already begins with it (the copy was done, lines may follow), then remove it.
    Raises ``OSError`` when the disk refuses; the compacted journal then stays, to be copied again."""
    path = Path(path)
    compacted = path.with_name(path.name + COMPACTED_SUFFIX)
    try:
        data = compacted.read_bytes()
    except FileNotFoundError:
        return
    fd = _open(path, os.O_RDWR | os.O_CREAT)
    try:
        if _read_all(fd, len(data)) != data:
            os.lseek(fd, 0, os.SEEK_SET)
            _write_all(fd, data)
            os.ftruncate(fd, len(data))
            os.fsync(fd)
    finally:
        os.close(fd)
    os.unlink(compacted)


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
        fd = _open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            _write_all(fd, rest if rest.endswith(b"\n") else rest + b"\n")
        finally:
            os.close(fd)
        log.warning("%d bytes after the good part of the journal are kept in %s", len(rest), target)
    except OSError as exc:
        log.warning("cannot keep the end of the journal aside in %s (%s)", target, exc)


#: Locks this process took with :func:`hold`, for its whole life: path of the lock file → lock.
_HELD: dict[str, FileLock] = {}


def _lock_file(path: str | Path) -> Path:
    path = Path(path)
    return path.with_name(path.name + ".lock")


def lock(path: str | Path) -> FileLock | None:
    """Hold ``<path>.lock`` for this process (``filelock``: ``flock`` on Unix, ``LockFileEx`` on Windows): the
    held lock, to ``release()`` when done, or ``None`` if another process holds it (a second host started on the
    same journal must not write into the first one's). A compaction a crash interrupted is finished first.

    A lock this process already took with :func:`hold` is shared: it is taken once more, and releasing that
    once keeps it. Raises ``OSError`` if the lock file cannot be opened or the compaction cannot be finished.
    """
    target = _lock_file(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    held = _HELD.get(str(target.resolve()))
    if held is not None:
        held.acquire()
        return held
    taken = FileLock(target, timeout=0, mode=0o600, thread_local=False)
    try:
        taken.acquire()
    except Timeout:
        return None
    try:
        finish_compaction(path)
    except OSError:
        taken.release()
        raise
    return taken


def hold(path: str | Path) -> bool:
    """Take the journal's lock for the rest of this process (the launcher, before it touches any file).

    True when this process holds it (now or already); False when another process does. The table of this
    process then shares it (:func:`lock`). Raises ``OSError`` if the lock file cannot be opened.
    """
    key = str(_lock_file(path).resolve())
    if key in _HELD:
        return True
    taken = lock(path)
    if taken is None:
        return False
    _HELD[key] = taken
    return True


def release(path: str | Path) -> None:
    """Give back a lock taken with :func:`hold` (tests; the launcher keeps it until it exits)."""
    held = _HELD.pop(str(_lock_file(path).resolve()), None)
    if held is not None:
        held.release()


def set_aside(path: str | Path, suffix: str) -> Path | None:
    """Rename the journal to ``<path><suffix>`` (replacing an older one); the new name, or ``None`` if it failed."""
    path = Path(path)
    target = path.with_name(path.name + suffix)
    try:
        os.replace(path, target)
    except OSError:
        return None
    return target


__all__ = [
    "COMMANDS",
    "ENTRY_KINDS",
    "FORMAT",
    "MAX_BACK",
    "MAX_STEP",
    "READABLE_FORMATS",
    "COMPACTED_SUFFIX",
    "REST_SUFFIX",
    "Journal",
    "JournalError",
    "Reading",
    "command_entry",
    "command_from",
    "describe",
    "entry_kind",
    "finish_compaction",
    "hold",
    "lock",
    "read",
    "read_journal",
    "read_lines",
    "release",
    "set_aside",
]
