"""The engine is pure: no web, no threads, no sockets, no clock, no global randomness.

Checked twice: statically (every engine module's imports and every use of the
``random`` module, read with ``ast``) and at run time (whole games with the clock
functions patched to explode and the global RNG's state compared before and after).
"""

from __future__ import annotations

import ast
import random
import time
from pathlib import Path

import pytest

import quatro_party.engine as engine
from quatro_party.engine import seat_view, table_view
from quatro_party.engine.randomplay import play_random_game

ENGINE_DIR = Path(engine.__file__).parent
SOURCES = sorted(ENGINE_DIR.glob("*.py"))
FORBIDDEN = {
    "flask",
    "flask_sock",
    "simple_websocket",
    "werkzeug",
    "threading",
    "_thread",
    "socket",
    "time",
    "asyncio",
    "datetime",
    "multiprocessing",
    "concurrent",
    "subprocess",
    "os",
    "zeroconf",
    "secrets",
}
#: The only names of the ``random`` module the engine may touch: the class of an injected RNG.
RANDOM_ALLOWED = {"Random"}


def _imports(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_the_scan_sees_every_engine_module():
    assert {p.name for p in SOURCES} >= {"game.py", "views.py", "cards.py", "rules.py", "randomplay.py"}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_engine_imports_nothing_of_the_web_threads_sockets_or_clocks(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert _imports(tree) & FORBIDDEN == set()


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_engine_never_uses_the_global_random_functions(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            assert {a.name for a in node.names} <= RANDOM_ALLOWED, ast.dump(node)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "random":
            assert node.attr in RANDOM_ALLOWED, f"{path.name}:{node.lineno} uses random.{node.attr}"


def test_the_scan_would_catch_a_leak():
    """The checks above can fail: the same walkers flag a source that cheats."""
    cheat = ast.parse("import time\nfrom threading import Lock\nimport random\nx = random.choice([1])\n")
    assert _imports(cheat) & FORBIDDEN == {"time", "threading"}
    assert [n.attr for n in ast.walk(cheat) if isinstance(n, ast.Attribute)] == ["choice"]


def _explode(*args, **kwargs):
    raise AssertionError("the engine read the clock")


@pytest.mark.parametrize("seat_count", [4, 8])
def test_whole_games_read_no_clock_and_leave_the_global_rng_alone(monkeypatch, seat_count):
    for name in ("time", "monotonic", "perf_counter", "time_ns", "monotonic_ns", "perf_counter_ns", "sleep"):
        monkeypatch.setattr(time, name, _explode)
    random.seed(1234)
    state = random.getstate()
    for seed in range(5):
        play = play_random_game(seed, seat_count)
        table_view(play.game, play.now)
        for seat in range(seat_count):
            seat_view(play.game, seat, play.now)
    assert random.getstate() == state
