"""The type hints are checked, not decoration: mypy over the game's code, with the settings in pyproject.toml."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_type_errors(monkeypatch):
    monkeypatch.chdir(ROOT)  # mypy reads [tool.mypy] (files, overrides) from the project's pyproject.toml
    out, err, status = api.run(["--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache")])
    assert status == 0, out + err


def test_the_engine_and_the_protocol_pass_mypy_strict(monkeypatch):
    """The rules and the wire are the contract everything else is written from: no Any leaks in unchecked."""
    monkeypatch.chdir(ROOT)
    out, err, status = api.run(
        [
            "--strict",
            "--no-error-summary",
            "--cache-dir",
            str(ROOT / ".mypy_cache"),
            "quatro_party/engine",
            "quatro_party/protocol.py",
        ]
    )
    assert status == 0, out + err
