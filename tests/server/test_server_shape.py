"""The server is a composition of objects that own their state: read statically (``ast``), so it stays true.

* No class under ``quatro_party/server/`` extends another class of the server: an object holds its
  collaborators (given in its constructor or its calls), it does not inherit their state. Standard-library
  bases (``Exception``, ``collections.abc.Mapping``…) and other packages' classes are fine.
* No class declares a hook for a subclass to fill (``raise NotImplementedError``).
* No class sets more than :data:`MAX_ATTRIBUTES` attributes (``self.x = …`` anywhere in it, dataclass fields):
  an object that needs more holds several concerns. A frozen dataclass is a record of values set once (the
  guard's ``Limits``), not an object's state, and is not counted.
* Every host action the protocol knows has its row in the host's action table, and no other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from quatro_party.protocol import HOST_ACTION_TYPES
from quatro_party.server.host import ACTIONS

SERVER = Path(__file__).resolve().parents[2] / "quatro_party" / "server"
#: The most attributes one server object may set.
MAX_ATTRIBUTES = 15


def _classes(tree: ast.Module) -> list[ast.ClassDef]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]


def _base_name(base: ast.expr) -> str | None:
    if isinstance(base, ast.Subscript):  # Mapping[int, X]
        base = base.value
    if isinstance(base, ast.Name):
        return base.id
    if isinstance(base, ast.Attribute):
        return base.attr
    return None


def _attributes(cls: ast.ClassDef) -> set[str]:
    """The attributes a class sets: ``self.<name>`` targets in its methods, and its annotated fields."""
    names = {
        node.target.id
        for node in cls.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and not node.target.id.startswith("__")
    }
    for node in ast.walk(cls):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name) and part.value.id == "self":
                    names.add(part.attr)
    return names


def _frozen_dataclass(cls: ast.ClassDef) -> bool:
    for deco in cls.decorator_list:
        if isinstance(deco, ast.Call) and _base_name(deco.func) == "dataclass":
            if any(k.arg == "frozen" and isinstance(k.value, ast.Constant) and k.value.value for k in deco.keywords):
                return True
    return False


def _raises_not_implemented(cls: ast.ClassDef) -> bool:
    for node in ast.walk(cls):
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(exc, ast.Name) and exc.id == "NotImplementedError":
                return True
    return False


def shape_problems(sources: dict[str, str]) -> list[str]:
    """Every way the modules ``sources`` (name → source text) break the rules above."""
    trees = {name: ast.parse(text, name) for name, text in sources.items()}
    own = {cls.name for tree in trees.values() for cls in _classes(tree)}
    problems = []
    for name, tree in sorted(trees.items()):
        for cls in _classes(tree):
            for base in cls.bases:
                if _base_name(base) in own:
                    problems.append(f"{name}: {cls.name} extends {_base_name(base)}, a class of the server")
            if _raises_not_implemented(cls):
                problems.append(f"{name}: {cls.name} declares a hook (raise NotImplementedError)")
            count = 0 if _frozen_dataclass(cls) else len(_attributes(cls))
            if count > MAX_ATTRIBUTES:
                problems.append(f"{name}: {cls.name} sets {count} attributes (at most {MAX_ATTRIBUTES})")
    return problems


def test_server_objects_hold_their_collaborators_and_own_their_state():
    sources = {path.name: path.read_text(encoding="utf-8") for path in sorted(SERVER.glob("*.py"))}
    assert len(sources) > 10
    assert shape_problems(sources) == []


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("class A:\n    pass\nclass B(A):\n    pass\n", "B extends A"),
        ("import m\nclass A:\n    pass\nclass B(m.A):\n    pass\n", "B extends A"),
        ("class A:\n    def hook(self):\n        raise NotImplementedError\n", "A declares a hook"),
        ("class A:\n    def hook(self):\n        raise NotImplementedError('x')\n", "A declares a hook"),
        (
            "class A:\n    def __init__(self):\n"
            + "".join(f"        self.a{i} = {i}\n" for i in range(MAX_ATTRIBUTES))
            + "    def more(self):\n        self.b, (self.c, x) = 1, (2, 3)\n",
            f"A sets {MAX_ATTRIBUTES + 2} attributes",
        ),
        (
            "class A:\n" + "".join(f"    f{i}: int\n" for i in range(MAX_ATTRIBUTES)) + "    def m(self):\n"
            "        self.extra += 1\n",
            f"A sets {MAX_ATTRIBUTES + 1} attributes",
        ),
    ],
)
def test_the_shape_check_finds_each_kind_of_problem(source, found):
    problems = shape_problems({"sample.py": source})
    assert any(found in p for p in problems), problems


def test_standard_library_bases_small_objects_and_frozen_records_pass_the_shape_check():
    source = (
        "from collections.abc import Mapping\n"
        "from dataclasses import dataclass\n"
        "@dataclass(frozen=True)\nclass Limits:\n"
        + "".join(f"    f{i}: int = {i}\n" for i in range(20))
        + "class Stop(Exception):\n    pass\n"
        "class Bots(Mapping[int, str]):\n    def __init__(self):\n        self.a, self.b = 1, 2\n"
    )
    assert shape_problems({"sample.py": source}) == []


def test_every_host_action_has_its_row_in_the_host_action_table():
    assert set(ACTIONS) == set(HOST_ACTION_TYPES)
