"""The repository stands alone: no comment cites an issue number, and no file points outside the repository.

A reader of a fresh clone has the code and its documents, not the tracker nor the folders it was written
beside. So under quatro_party/, web/, tests/, bench/ and docs/, and in the top-level documents, no text cites
the tracker by an issue's number, names a document that is not in the repository (the field notes, a design or
rules file kept elsewhere), gives an absolute path of this machine, or uses a relative path (``../…``) that
climbs out of the repository or, pointing at a ``shared`` folder, names one the repository does not have (the
pages' own modules live in ``web/common/``, so no import even reads like one).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("quatro_party", "web", "tests", "bench", "docs")
TOP_DOCUMENTS = ("README.md", "CONTRIBUTING.md", "CHANGELOG.md")
TEXT = {".py", ".js", ".mjs", ".html", ".css", ".md", ".txt", ".json", ".toml", ".cfg", ".sh"}

# Written in two parts so that this file does not match itself.
ISSUE = re.compile(r"\bissue" + r"s?\s*(?:no\.?\s*)?#?\d+", re.IGNORECASE)
OUTSIDE_NAMES = re.compile(r"\bFIELD" + r"[-_ ]NOTES\b|/work" + r"/|/home/\w|[A-Z]:\\\\Users", re.IGNORECASE)
# A document's name with the folders written before it (``docs/rules.fr.md`` is one name, not ``fr.md``); a
# name inside a URL or an absolute path is not one (absolute paths are caught by OUTSIDE_NAMES).
DOC_NAME = re.compile(r"(?<![\w.:/-])((?:[\w.-]+/)*[A-Za-z][\w.-]*\.md)(?![\w-])")
RELATIVE = re.compile(r"""(?<![\w.])((?:\.\./)+[\w./-]*)""")
SHARED = re.compile(r"""(?<![\w.])((?:\.\./)+shared\b[\w./-]*)""")
# A quoted parent "shared" folder tested for absence (``"…" not in text``) is a check, not a pointer.
ABSENCE_CHECK = re.compile(r"""["'](?:\.\./)+shared["']\s+not\s+in\b""")


#: The name the sample files of the scan's own tests begin with (each test writes its own: the tests may run at
#: the same time, in parallel workers).
SAMPLE = "_repo_scan_sample"


def _files() -> list[Path]:
    found = [ROOT / name for name in TOP_DOCUMENTS if (ROOT / name).is_file()]
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in TEXT and path != Path(__file__).resolve():
                if not path.name.startswith(SAMPLE):  # the samples the tests below write, maybe right now
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
            if not _is_repo_document(m.group(1), path, docs):
                found.append(f"{where}:{number}: names a document the repository lacks: {m.group(1)!r}")
        for m in RELATIVE.finditer(line):
            target = (path.parent / m.group(1)).resolve()
            if not target.is_relative_to(ROOT):
                found.append(f"{where}:{number}: a path out of the repository: {m.group(1)!r}")
            elif SHARED.fullmatch(m.group(1)) and not target.exists() and not ABSENCE_CHECK.search(line):
                found.append(f"{where}:{number}: points at a shared folder the repository lacks: {m.group(1)!r}")
    return found


def _is_repo_document(name: str, path: Path, docs: set[str]) -> bool:
    """Whether ``name`` (``protocol.md``, ``docs/rules.fr.md``, ``../docs/rules.md``) is a document of the
    repository: a bare name is one if any document has it; a name with folders, if it is there from the citing
    file's folder or from the repository's root."""
    if "/" not in name:
        return name.lower() in docs
    return any(
        (base / name).resolve().is_file() and (base / name).resolve().is_relative_to(ROOT)
        for base in (path.parent, ROOT)
    )


def test_no_issue_citations_and_no_references_outside_the_repository():
    docs = _repo_docs()
    problems = [p for path in _files() for p in _problems(path, docs)]
    assert not problems, "\n".join(problems)


def test_the_scan_would_catch_each_kind(tmp_path):
    """The patterns are not vacuous: each kind of reference is caught in a sample text."""
    sample = ROOT / "tests" / f"{SAMPLE}_catch.py"
    lines = [
        "# see iss" + "ue 7",
        "# (Iss" + "ue #12)",
        "# FIELD" + "-NOTES says so",
        "# DESIGN" + "-ELSEWHERE.md",
        "x = '../../.." + "/shared/RULES.md'",
        "# see docs/DESIGN" + "-ELSEWHERE.md",
        "# ../share" + "d/RULES.md",
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
    assert any("lacks: 'docs/DESIGN-ELSEWHERE.md'" in p for p in problems)
    assert any("shared folder the repository lacks: '../shar" + "ed/RULES.md'" in p for p in problems)


def test_the_scan_does_not_flag_what_the_repository_has():
    """No false positives: a document named with its folders, a link, a URL, an in-repo ``../common``."""
    lines = [
        "# docs/rules.fr.md and docs/rules.md, [the French](../docs/rules.fr.md), `README.md#layout`",
        "# (rules.fr.md) and CHANGELOG.md, https://example.org/guide/NOTES.md",
        "# see protocol.md: the contract",
        'assert "../shar' + 'ed" not in readme',
    ]
    sample = ROOT / "tests" / f"{SAMPLE}_clean.py"
    try:
        sample.write_text("\n".join(lines) + "\n", encoding="utf-8")
        problems = _problems(sample, _repo_docs())
        in_web = ROOT / "web" / "phone" / f"{SAMPLE}_clean.js"
        in_web.write_text("import { teamOf } from '../common/teams.js';\n", encoding="utf-8")
        problems += _problems(in_web, _repo_docs())
    finally:
        sample.unlink(missing_ok=True)
        (ROOT / "web" / "phone" / f"{SAMPLE}_clean.js").unlink(missing_ok=True)
    assert not problems, problems
