"""The type hints are checked, not decoration: mypy over the game's code, with the settings in pyproject.toml."""

from __future__ import annotations

import pkgutil
from pathlib import Path

import pytest
from mypy import api

import quatro_party.engine
import quatro_party.protocol

ROOT = Path(__file__).resolve().parents[1]
#: What must pass ``mypy --strict``: the rules and the wire, each a package (every module in it is checked).
STRICT = {"quatro_party/engine": quatro_party.engine, "quatro_party/protocol": quatro_party.protocol}


@pytest.mark.slow
def test_mypy_finds_no_type_errors(monkeypatch):
    monkeypatch.chdir(ROOT)  # mypy reads [tool.mypy] (files, overrides) from the project's pyproject.toml
    out, err, status = api.run(["--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache")])
    assert status == 0, out + err


def test_the_strict_paths_are_the_packages_that_hold_the_engine_and_the_protocol():
    """A module moved out of these folders would silently leave the strict check: each path is its package."""
    for path, package in STRICT.items():
        assert Path(package.__file__).resolve().parent == (ROOT / path).resolve(), path
        modules = [m.name for m in pkgutil.iter_modules(package.__path__)]
        assert modules, path
    protocol_modules = {m.name for m in pkgutil.iter_modules(quatro_party.protocol.__path__)}
    assert {"incoming", "outgoing", "codes"} <= protocol_modules
    assert not (ROOT / "quatro_party" / "protocol.py").exists()  # it would shadow the package


@pytest.mark.slow
def test_the_engine_and_the_protocol_pass_mypy_strict(monkeypatch):
    """The rules and the wire are the contract everything else is written from: no Any leaks in unchecked."""
    monkeypatch.chdir(ROOT)
    out, err, status = api.run(["--strict", "--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache"), *STRICT])
    assert status == 0, out + err
