"""The journal's format: what each line of a table's journal says, and how a journal is read back.

The engine is pure and deterministic, so the table is saved as the calls that made it, not as a
snapshot: the first line is a header with what a new :class:`~quatro_party.engine.Game` needs (seat
count, the seed actually used, the timing), then one line per engine call, in order —

* ``{"t": now, "cmd": "Swap", "f": {...}, "r": refusal code or null, "n": events}`` for ``Game.apply``,
* ``{"t": now, "tick": true, "n": events}`` for ``Game.tick``,
* ``{"t": now, "snapshot": Game.snapshot()}``: the whole game at that point (the journal compacted at a round's
  end starts with one),

and one line per table-level change that is not an engine command: ``{"token": ..., "seat": s}`` (a
seat token issued; with ``"key": sha256`` when the join it was given to had a key), ``{"revoke": s}``,
``{"bot": s, "level": ...}``, ``{"unbot": s}``,
``{"settings": {...}}``, ``{"host_key": sha256}`` (a big screen was given a key that keeps it the host's
screen across a restart: only its hash is kept),
``{"remote": sha256 or null, "seat": s or null, "invite": sha256 or null}`` (the phone that holds the host's
remote, by the hash of its key, and the invitation it took, by its hash; ``null``: the host took it back).
``r`` and ``n`` let a replay check that every call had the same outcome.

Lines are ASCII JSON ending in ``\n``; one that ends in ``\r\n`` (an editor, or a journal written in text mode
by an older Windows build) reads the same. Each line carries its own checksum as its last member,
``"crc": "<8 hex digits>"``: the CRC-32 of the line as it would read without that member
(``{"t":1.5,"tick":true,"n":0}`` becomes ``{"t":1.5,"tick":true,"n":0,"crc":"…"}``), so a line torn by a crash,
or changed by a single byte that still leaves valid JSON (a flipped digit), is caught before it is replayed.
Reading keeps every line up to the first one that cannot be used (cut short by a crash, damaged, its checksum
wrong, or a time jump no table makes: :data:`MAX_STEP`), and says where it stopped (:class:`Reading`); blank
lines are skipped. A journal of format 1 (before checksums) is read without them. The file itself (appending,
compaction, the lock) is :mod:`.journal`.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import zlib
from enum import Enum
from pathlib import Path
from typing import Any, get_args

from ..engine import Command

log = logging.getLogger("quatro.server")

#: The format this host writes (2: every line carries its checksum). A journal of format 1 is still read.
FORMAT = 2
#: The formats this host reads.
READABLE_FORMATS = (1, 2)
#: Every line of a format-2 journal ends with this member, then 8 hex digits and ``"}``.
_CRC_MEMBER = b',"crc":"'
_CRC_TAIL = len(_CRC_MEMBER) + 8 + 2

#: Every engine command class, by the name the journal stores.
COMMANDS: dict[str, type] = {cls.__name__: cls for cls in get_args(Command)}

#: The key that tells each kind of line apart (exactly one per line).
ENTRY_KINDS = ("cmd", "tick", "token", "revoke", "bot", "unbot", "settings", "snapshot", "host_key", "remote")

#: Largest step of the table's clock from one line to the next (seconds). The table's clock only moves while the
#: host runs (a restart goes on from the last line), so a real journal steps by seconds, at most by the hours a
#: table sits idle; a bigger jump is damage, and replaying it would make the engine catch up on it for minutes.
MAX_STEP = 24 * 3600.0
#: How far back a line's time may go from the latest one before it (float rounding only; the clock is monotonic).
MAX_BACK = 1.0


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


@dataclasses.dataclass
class Reading:
    """A journal as read back: its header and entries, where each line ends, and where (and why) reading stopped.

    ``ends[0]`` is the byte after the header, ``ends[i]`` the byte after entry ``i - 1`` (a replay that must
    stop before entry ``i`` keeps the first ``ends[i]`` bytes). ``stopped`` is ``None`` when every line was
    read, else ``(line number, why)`` of the first line that could not be used; ``torn`` says that line was
    only the journal's unfinished last one (what a crash mid-write leaves: not damage, nothing lost but it).
    """

    header: dict[str, Any]
    entries: list[dict[str, Any]]
    ends: list[int]
    stopped: tuple[int, str] | None = None
    torn: bool = False
    numbers: list[int] = dataclasses.field(default_factory=list)  # the file's line number of each entry


def read(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """The header, the entries and the length in bytes of the good part of the journal at ``path``
    (see :func:`read_lines`)."""
    header, entries, ends = read_lines(path)
    return header, entries, ends[-1]


def read_lines(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]], list[int]]:
    """The header, the entries, and where each line ends in the file (see :func:`read_journal`)."""
    reading = read_journal(path)
    return reading.header, reading.entries, reading.ends


def read_journal(path: str | Path) -> Reading:
    """The journal at ``path``, read up to its first line that cannot be used (:class:`Reading`).

    That line is one that does not decode to a known entry (cut short by a crash mid-write, or damaged), whose
    checksum does not match, or whose time goes back or jumps by more than :data:`MAX_STEP`. Blank lines are
    skipped. What follows is not replayed; :meth:`Journal.reopen` keeps it aside. Only a header that cannot be
    used raises :class:`JournalError` (there is nothing to resume); a file that cannot be read raises
    :class:`OSError`.
    """
    data = Path(path).read_bytes()
    header: dict[str, Any] | None = None
    reading = Reading({}, [], [])
    ends = reading.ends
    checked = True  # format 1 has no checksums
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
            value = json.loads(_unsealed(line) if checked else line)
        except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            if header is None:
                if checked:  # the header says which format: a format-1 header has no checksum
                    try:
                        value = json.loads(line)
                    except ValueError:
                        raise JournalError(f"line {number} of the journal: {exc}") from exc
                    if not isinstance(value, dict) or value.get("quatro_journal") != 1:
                        raise JournalError(f"line {number} of the journal: {exc}") from exc
                    checked = False
                else:  # pragma: no cover - checked is True until a header is read
                    raise JournalError(f"line {number} of the journal: {exc}") from exc
            else:
                reading.stopped, reading.torn = (number, str(exc)), nl < 0
                _stopped(path, number, str(exc))
                break
        if header is None:
            header = _header(value)
            reading.header = header
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
            reading.stopped, reading.torn = (number, str(exc)), nl < 0
            _stopped(path, number, str(exc))
            break
        last_t = max(last_t, t)
        reading.entries.append(value)
        reading.numbers.append(number)
        good = end
        ends.append(end)
    if header is None:
        raise JournalError("the journal is empty")
    assert ends[-1] == good
    return reading


def _unsealed(line: bytes) -> bytes:
    """The JSON of a format-2 line once its checksum is checked and taken off; ``ValueError`` if it does not match.

    >>> _unsealed(encode_line({"t": 1, "tick": True, "n": 0}))
    b'{"t":1,"tick":true,"n":0}'
    """
    line = line.rstrip(b"\r\n")
    tail = line[-_CRC_TAIL:]
    if len(line) <= _CRC_TAIL or not tail.startswith(_CRC_MEMBER) or not tail.endswith(b'"}'):
        raise ValueError("no checksum")
    body = line[:-_CRC_TAIL] + b"}"
    try:
        crc = int(tail[len(_CRC_MEMBER) : -2], 16)
    except ValueError:
        raise ValueError("no checksum") from None
    if zlib.crc32(body) != crc:
        raise ValueError("its checksum does not match: the line was changed or damaged")
    return body


def _header(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise JournalError("the journal's first line is not a header")
    if value.get("quatro_journal") not in READABLE_FORMATS:
        raise JournalError(f"not a journal of format {FORMAT}: {str(value)[:200]}")
    for key in ("seats", "seed", "timing", "settings", "t"):
        if key not in value:
            raise JournalError(f"the journal's header lacks {key!r}")
    t = value["t"]
    if not isinstance(t, (int, float)) or isinstance(t, bool) or not math.isfinite(t):
        raise JournalError(f"the journal's header has no usable time: {t!r}")
    return value


def _stopped(path: str | Path, number: int, why: str) -> None:
    log.warning("the table's journal %s is replayed up to its line %d, which cannot be used: %s", path, number, why)


def encode_line(entry: dict[str, Any]) -> bytes:
    """One journal line: compact JSON, ASCII, sealed with its checksum (``"crc"``, last), ending in a newline.

    >>> encode_line({"t": 1, "tick": True, "n": 0})
    b'{"t":1,"tick":true,"n":0,"crc":"5eac477f"}\\n'
    """
    # ASCII only: a phone's name may hold a lone surrogate (refused, but journaled), which UTF-8 cannot encode.
    body = json.dumps(entry, separators=(",", ":"), allow_nan=False).encode("ascii")
    return b'%s%s%08x"}\n' % (body[:-1], _CRC_MEMBER, zlib.crc32(body))
