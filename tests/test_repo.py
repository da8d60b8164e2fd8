"""The repository stands alone: no comment cites an issue number, and no file points outside the repository.

A reader of a fresh clone has the code and its documents, not the tracker nor the folders it was written
beside. So under quatro_party/, web/, tests/ and bench/ no text says "issue 12", names a document that is not
in the repository (the field notes, a design or rules file kept elsewhere), gives an absolute path of this
machine, or uses a relative path (``../…``) that climbs out of the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("quatro_party", "web", "tests", "bench")
TEXT = {".py", ".js", ".mjs", ".html", ".css", ".md", ".txt", ".json", ".toml", ".cfg", ".sh"}

# Written in two parts so that this file does not match itself.
ISSUE = re.compile(r"\bissue" + r"s?\s*(?:no\.?\s*)?#?\d+", re.IGNORECASE)
OUTSIDE_NAMES = re.compile(r"\bFIELD" + r"[-_ ]NOTES\b|/work" + r"/|/home/\w|[A-Z]:\\\\Users", re.IGNORECASE)
DOC_NAME = re.compile(r"(?<![\w.-])([A-Za-z][\w.-]*\.md)\b")
RELATIVE = re.compile(r"""(?<![\w.])((?:\.\./)+[\w./-]*)""")


def _files() -> list[Path]:
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in TEXT and path != Path(__file__).resolve():
                found.append(path)
    return found


def _repo_docs() -> set[str]:
    """Names of the Markdown files the repository has (a document cited by name must be one of them)."""
    return {p.name.lower() for p in ROOT.rglob("*.md") if ".venv" not in p.parts and ".git" not in p.parts}


def _problems(path: Path, docs: set[str]) -> list[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    where = path.relative_to(ROOT)
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for m in ISSUE.finditer(line):
            found.append(f"{where}:{number}: cites an issue: {m.group(0)!r}")
        for m in OUTSIDE_NAMES.finditer(line):
            found.append(f"{where}:{number}: points outside the repository: {m.group(0)!r}")
        for m in DOC_NAME.finditer(line):
            if m.group(1).lower() not in docs:
                found.append(f"{where}:{number}: names a document the repository lacks: {m.group(1)!r}")
        for m in RELATIVE.finditer(line):
            target = (path.parent / m.group(1)).resolve()
            if not target.is_relative_to(ROOT):
                found.append(f"{where}:{number}: a path out of the repository: {m.group(1)!r}")
    return found


def test_no_issue_citations_and_no_references_outside_the_repository():
    docs = _repo_docs()
    problems = [p for path in _files() for p in _problems(path, docs)]
    assert not problems, "\n".join(problems)


def test_the_scan_would_catch_each_kind(tmp_path):
    """The patterns are not vacuous: each kind of reference is caught in a sample text."""
    sample = ROOT / "tests" / "_repo_scan_sample.py"
    lines = [
        "# see iss" + "ue 7",
        "# (Iss" + "ue #12)",
        "# FIELD" + "-NOTES says so",
        "# DESIGN" + "-ELSEWHERE.md",
        "x = '../../.." + "/shared/RULES.md'",
    ]
    try:
        sample.write_text("\n".join(lines) + "\n", encoding="utf-8")
        problems = _problems(sample, _repo_docs())
    finally:
        sample.unlink()
    assert len([p for p in problems if "cites an issue" in p]) == 2
    assert any("points outside" in p for p in problems)
    assert any("lacks: 'DESIGN-ELSEWHERE.md'" in p for p in problems)
    assert any("out of the repository" in p for p in problems)
