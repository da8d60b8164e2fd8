"""What Windows does differently with files, emulated on POSIX for the tests (nothing here runs Windows).

Two behaviours the host's journal must survive, both documented for the Microsoft C runtime and Win32:

* **Text mode.** ``os.open`` without ``os.O_BINARY`` opens a file in text mode: ``os.write`` turns each ``\\n``
  into ``\\r\\n`` on disk but returns the count of the caller's bytes, and ``os.read`` turns ``\\r\\n`` back into
  ``\\n``; ``lseek``, ``ftruncate`` and ``fstat`` still count the bytes on disk.
* **An open file stays where it is.** A file some handle holds open (opened without ``FILE_SHARE_DELETE``, as
  the C runtime and Python do) cannot be renamed, renamed over, or deleted: ``PermissionError`` (WinError 32,
  "being used by another process"). That includes handles of the process that asks.

``WindowsFiles(monkeypatch, root)`` patches ``os`` so that files under ``root`` behave that way (``os.O_BINARY``
gets Windows' value, 0x8000); :meth:`WindowsFiles.hold_open` is another program (an editor, a backup tool, an
antivirus scan) holding a file open.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

#: Windows' value of ``O_BINARY`` (fcntl.h of the C runtime).
O_BINARY = 0x8000


class WindowsFiles:
    def __init__(self, monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
        self.root = Path(root).resolve()
        self.text_fds: set[int] = set()
        self.fds: dict[int, Path] = {}  # every descriptor opened under root, and its file
        self.others: Counter[Path] = Counter()  # handles held by other programs
        self.refused: list[tuple[str, Path]] = []  # what Windows would have refused, for the tests to check
        self.real = {n: getattr(os, n) for n in ("open", "close", "write", "read", "replace", "rename", "unlink")}
        monkeypatch.setattr(os, "O_BINARY", O_BINARY, raising=False)
        monkeypatch.setattr(os, "open", self._open)
        monkeypatch.setattr(os, "close", self._close)
        monkeypatch.setattr(os, "write", self._write)
        monkeypatch.setattr(os, "read", self._read)
        monkeypatch.setattr(os, "replace", self._replace)
        monkeypatch.setattr(os, "rename", self._rename)
        monkeypatch.setattr(os, "unlink", self._unlink)
        monkeypatch.setattr(os, "remove", self._unlink)

    def hold_open(self, path: Path) -> None:
        """Another program opens ``path`` and keeps it open (until :meth:`let_go`)."""
        self.others[self._key(path)] += 1

    def let_go(self, path: Path) -> None:
        self.others[self._key(path)] -= 1

    def _key(self, path: Any) -> Path:
        return Path(os.fspath(path)).resolve()

    def _mine(self, path: Any) -> bool:
        key = self._key(path)
        return key == self.root or self.root in key.parents

    def is_open(self, path: Any) -> bool:
        key = self._key(path)
        return self.others[key] > 0 or key in self.fds.values()

    def _open(self, path: Any, flags: int, mode: int = 0o777, *args: Any, **kwargs: Any) -> int:
        fd = self.real["open"](path, flags & ~O_BINARY, mode, *args, **kwargs)
        if isinstance(path, (str, bytes, os.PathLike)) and self._mine(path):
            self.fds[fd] = self._key(path)
            if not flags & O_BINARY:
                self.text_fds.add(fd)
        return fd

    def _close(self, fd: int) -> None:
        self.fds.pop(fd, None)
        self.text_fds.discard(fd)
        self.real["close"](fd)

    def _write(self, fd: int, data: Any) -> int:
        if fd not in self.text_fds:
            return int(self.real["write"](fd, data))
        on_disk = bytes(data).replace(b"\n", b"\r\n")
        view = memoryview(on_disk)
        while view:
            view = view[self.real["write"](fd, view) :]
        return len(data)  # the caller's bytes, not the ones on disk

    def _read(self, fd: int, n: int) -> bytes:
        data = self.real["read"](fd, n)
        return bytes(data.replace(b"\r\n", b"\n")) if fd in self.text_fds else bytes(data)

    def _refuse(self, what: str, *paths: Any) -> None:
        for path in paths:
            if self._mine(path) and self.is_open(path):
                self.refused.append((what, self._key(path)))
                err = PermissionError(
                    13, "The process cannot access the file because it is being used by another process"
                )
                err.filename = os.fspath(path)
                raise err

    def _replace(self, src: Any, dst: Any, **kwargs: Any) -> None:
        self._refuse("replace", src, dst)
        self.real["replace"](src, dst, **kwargs)

    def _rename(self, src: Any, dst: Any, **kwargs: Any) -> None:
        self._refuse("rename", src, dst)
        self.real["rename"](src, dst, **kwargs)

    def _unlink(self, path: Any, **kwargs: Any) -> None:
        self._refuse("unlink", path)
        self.real["unlink"](path, **kwargs)
