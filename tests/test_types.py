"""The type hints are checked, not decoration: mypy over the game's code, with the settings in pyproject.toml."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_type_errors(monkeypatch):
    monkeypatch.chdir(ROOT)  # mypy reads [tool.mypy] (files, overrides) from the project's pyproject.toml
    out, err, status = api.run(["--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache")])
    assert status == 0, out + err
