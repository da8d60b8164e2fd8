"""The project's metadata: every package the host imports is declared, and every declared package is pinned in
``constraints.txt`` (the versions the tests passed with, which the launcher and CI install through)."""

from __future__ import annotations

import ast
import sys
from importlib import metadata

import tomllib
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.host.hosting import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _imported_top_level_modules() -> set[str]:
    names = set()
    for path in list((ROOT / "quatro_party").rglob("*.py")) + [ROOT / "launcher.py"]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
    return names - set(sys.stdlib_module_names) - {"quatro_party", "__future__", "pytest", "PyInstaller"}


def test_every_package_the_host_imports_is_declared():
    declared = {canonicalize_name(Requirement(r).name) for r in PYPROJECT["dependencies"]}
    providers = metadata.packages_distributions()
    imported = {
        module: {canonicalize_name(d) for d in providers.get(module, [])} for module in _imported_top_level_modules()
    }
    assert {m: dists for m, dists in imported.items() if not dists & declared} == {}
    assert {"werkzeug", "wsproto", "ifaddr", "platformdirs", "filelock"} <= declared


def test_every_declared_package_is_pinned_for_this_python():
    env = {**default_environment(), "extra": ""}
    pins: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate(env):
                assert canonicalize_name(req.name) not in pins, f"two pins for {req.name} on this Python"
                pins[canonicalize_name(req.name)] = str(req.specifier)
    wanted = PYPROJECT["dependencies"] + [r for extra in PYPROJECT["optional-dependencies"].values() for r in extra]
    assert sorted({canonicalize_name(Requirement(r).name) for r in wanted} - set(pins)) == []
    for name, spec in pins.items():  # what runs the tests is what is pinned
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue  # pinned for a tool this run does not use (pytest-xdist before it is declared)
        assert spec == f"=={installed}", f"{name}: constraints.txt says {spec}, the tests run with {installed}"


def test_the_build_ships_every_package_of_the_source():
    """pyproject lists the packages (web/ is mapped into one, which no search finds): a new one must be listed."""
    from setuptools import find_namespace_packages

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {p for p in find_namespace_packages(str(ROOT), include=["quatro_party*"]) if "__pycache__" not in p}
    web = {"quatro_party.web" + p.removeprefix("web") for p in find_namespace_packages(str(ROOT), include=["web*"])}
    assert listed == found | web


def test_licence_classifiers_and_the_command():
    assert PYPROJECT["license"] == "MIT" and PYPROJECT["license-files"] == ["LICENSE"]
    assert {"Operating System :: Microsoft :: Windows", "Operating System :: MacOS"} <= set(PYPROJECT["classifiers"])
    assert PYPROJECT["scripts"] == {"quatro-party": "quatro_party.launch:main"}
