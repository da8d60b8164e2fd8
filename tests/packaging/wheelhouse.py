"""A wheelhouse made on this machine, without the network: the project's wheel and sdist built from a copy of the
checkout, and its dependencies packed back into wheels from the very files installed in the test environment
(the versions the tests run with; their RECORD lists every file)."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import re
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

#: Files of a dist-info that say how a package was installed here, not what it is.
LOCAL_ONLY = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}


def dependencies(name: str) -> list[metadata.Distribution]:
    """``name``'s installed distribution and every one it requires here (no extras), in no particular order."""
    env = {**default_environment(), "extra": ""}
    seen: dict[str, metadata.Distribution] = {}
    todo = [name]
    while todo:
        key = canonicalize_name(todo.pop())
        if key in seen:
            continue
        dist = metadata.distribution(key)
        seen[key] = dist
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate(env):
                todo.append(req.name)
    return list(seen.values())


def _tags(wheel_file: str) -> str:
    """The compressed tag set of a WHEEL file's ``Tag:`` lines (``cp311-cp311-manylinux_2_17_x86_64.manylinux…``)."""
    tags = [line.split(":", 1)[1].strip().split("-") for line in wheel_file.splitlines() if line.startswith("Tag:")]
    return "-".join(".".join(dict.fromkeys(t[i] for t in tags)) for i in range(3))


def repack(dist: metadata.Distribution, into: Path) -> Path:
    """The installed distribution ``dist`` as a wheel in ``into``, from its RECORD (scripts and byte code left
    out: an installer makes them again)."""
    files = [f for f in dist.files or [] if not str(f).startswith("..") and "__pycache__" not in f.parts]
    info = next(f.parts[0] for f in files if f.parts[0].endswith(".dist-info"))
    wheel_meta = Path(str(dist.locate_file(f"{info}/WHEEL"))).read_text()
    name = re.sub(r"[-_.]+", "_", dist.metadata["Name"])
    target = into / f"{name}-{dist.version}-{_tags(wheel_meta)}.whl"
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as whl:
        for f in files:
            if f.parts[0] == info and f.name in LOCAL_ONLY:
                continue
            data = Path(str(dist.locate_file(f))).read_bytes()
            whl.writestr(str(f), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            writer.writerow([str(f), f"sha256={digest}", len(data)])
        writer.writerow([f"{info}/RECORD", "", ""])
        whl.writestr(f"{info}/RECORD", record.getvalue())
    return target


def build_project(checkout: Path, into: Path) -> tuple[Path, Path]:
    """The project's sdist and wheel, built from ``checkout`` with the setuptools of this environment."""
    into.mkdir(parents=True, exist_ok=True)
    script = (
        "import sys; from setuptools import build_meta as b; out = sys.argv[1]; "  # (a build rewrites sys.argv)
        "s = b.build_sdist(out); w = b.build_wheel(out); print('BUILT', s, w)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(into)], cwd=checkout, capture_output=True, text=True, check=True
    )
    sdist, wheel = done.stdout.strip().splitlines()[-1].split()[1:]
    return into / sdist, into / wheel


def wheelhouse(into: Path) -> Path:
    """Every runtime dependency of the project, as installed here, packed into ``into``."""
    into.mkdir(parents=True, exist_ok=True)
    for dist in dependencies("quatro-party"):
        if canonicalize_name(dist.metadata["Name"]) != "quatro-party":
            repack(dist, into)
    return into
