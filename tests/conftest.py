"""Shared fixtures: a real Quatro host on loopback, and real WebSocket clients.

``live_server`` — a running host (Flask + flask-sock on Werkzeug's threaded server)
on ``127.0.0.1`` with a free port, stopped after the test. Configure it with the
``live_server`` marker; any key of ``quatro_party.server.app.DEFAULTS`` works::

    @pytest.mark.live_server(seats=6, time_scale=0.05, public_host="party.test")
    def test_something(live_server):
        screen = live_server.screen()          # big screen that proved the host secret
        ana = live_server.phone()              # phone that said hello (no token)
        ana.join(0, "Ana")                      # → ana.token, ana.seat
        screen.host("start_game")               # → {"type": "ok", ...}; empty seats get bots
        view = ana.wait_state(lambda v: v["phase"] == "play", timeout=5)

Test defaults: ``host_secret="test-host-secret"`` (``TEST_HOST_SECRET``), ``seed=1``,
``time_scale=1.0``, ``public_host`` = this machine's LAN address (what the QR code
says in real use). Browser tests pass ``public_host="party.test"`` so the join
URL / QR code opens on loopback through their Chromium's host-resolver rule.

Useful attributes of :class:`quatro_party.server.testing.LiveServer`: ``port``,
``url`` (``http://127.0.0.1:PORT``), ``join_url``, ``host_secret``,
``screen_url(host=True, host_name="127.0.0.1")``, ``ws_url(path)``, ``table``
(call ``live_server.table.call(fn)`` to run ``fn`` on the table thread),
``summary()``. ``live_server.table`` is a :class:`~quatro_party.server.testing.TestingTable` (config
``table_class``: the production table has no test hooks). Test hooks on ``live_server.table``:
``set_position("AAAA KKKK QQQQ JJJJ | TTTT")``
(lay out the running round; everyone gets a fresh view), ``changed()`` (send fresh views after
poking ``table.game`` inside ``table.call``), ``close_all(code, reason)`` (a network blip), ``poke()``
(wake the table after moving an injected ``clock``). Clients (:class:`~quatro_party.server.testing.WsClient`):
``send``, ``act(kind, **fields)`` (waits for ok/refused/error), ``host(kind,
**fields)``, ``expect(type_or_pred, timeout)``, ``wait_state(pred, timeout)``,
``frames`` (every raw text frame received), ``state``, ``token``, ``seat``, ``close()``.

``once`` — ``once.get(key, compute)``: a result worked out once in the whole run and read by every
worker that asks (tests/sharing.py): the ladder's cells, the wheel, the bundle.

``live_server_factory`` — ``start(**config) -> LiveServer`` for tests that need
several servers or want to build the config at run time; all are stopped after
the test.

Time limits: every wait of these clients (``expect``, ``wait_state``, ``act``…) has
its limit multiplied by ``QUATRO_TEST_TIMEOUT_FACTOR`` (tests/timeouts.py), and so
has pytest-timeout's limit on each test: one setting for a slow machine to raise.

The suite runs in parallel (pytest-xdist, ``-n`` in pyproject.toml's addopts): every
server listens on port 0, every state folder is a ``tmp_path``, and the browser
tests come first in the run, so that the long ones start early and the short ones
fill in at the end. ``-n 0`` runs it in one process.
"""

from __future__ import annotations

import itertools
import keyword
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from quatro_party.server.testing import TEST_HOST_SECRET, LiveServer, WsClient

from .sharing import OncePerRun, side_lock
from .timeouts import FACTOR, limit

__all__ = ["TEST_HOST_SECRET", "LiveServer", "WsClient"]

BROWSER_TESTS = Path(__file__).resolve().parent / "browser"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "live_server(**config): configure the live_server fixture")
    keep_compiled_modules()


def keep_compiled_modules() -> None:
    """Let every process of the run keep what it compiles, as Python does by default, where the environment says
    otherwise (``PYTHONDONTWRITEBYTECODE``, set by some container images and CI machines): a run is many Python
    processes (xdist's workers, the hosts and launchers the tests start), and pytest keeps its rewritten test
    modules only where bytecode may be written, so each worker rewrote every test module's asserts again.
    Measured on the 2-core machine: one process collecting the fast tier took 3.2 CPU-s each time, 1.1 s once
    its modules were kept. The fast tier (6 workers, runs one after the other): from a fresh clone no gain, as
    every worker compiles at once (168-177 busy core-s with this, 167-168 without); the next run of the same
    checkout 149. Called before xdist starts its workers, which inherit the environment; the caches go where git
    ignores them (``__pycache__``)."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject.toml's addopts): two workers per core, three when the run holds no browser test, at
    most 8. Most tests wait (on sockets, subprocesses) more than they compute; a browser computes (a page, its
    fonts, its frames). Measured on the 2-core machine when the fast tier was 701 tests: 165 s in one process, 113 s
    on 2 workers, 86 s on 3, 75 s on 4 and 129 s on 6. With 894 tests, and the load tests no longer alone at the end
    of the run, its machine stayed a third idle on 4 workers (61 of 200 core-s): 99.8 s on 4, 94.7 s on 5, 87.2 s
    on 6."""
    per_core = 2 if _runs_browsers(config) else 3
    return min(8, per_core * (os.cpu_count() or 1))


def _runs_browsers(config: pytest.Config) -> bool:
    """Whether the run may hold browser tests: not when ``-m`` leaves them out (the fast tier), nor when every path
    it was given lies outside tests/browser."""
    if _leaves_out_browsers(config.option.markexpr or ""):
        return False
    paths = [Path(str(a).split("::")[0]).resolve() for a in config.args]
    # A path holds browser tests if it is tests/browser, holds it, or lies in it.
    return not paths or any(
        p == BROWSER_TESTS or p in BROWSER_TESTS.parents or BROWSER_TESTS in p.parents for p in paths
    )


def _leaves_out_browsers(markexpr: str) -> bool:
    """Whether ``-m markexpr`` is false for every browser test, whatever its other markers: true of ``not browser``
    (the fast tier) and ``not browser and not slow``, not of ``not slow`` or ``browser or slow``. Worked out for
    every combination of the other markers it names, with Python's own ``and``, ``or`` and ``not``; an expression
    in any other form (arguments to a marker) counts as one that may select browser tests."""
    words = re.findall(r"\w+", markexpr)
    if "browser" not in words or re.search(r"[^\w\s()]", markexpr):
        return False
    names = sorted(set(words) - {"and", "or", "not", "browser"})
    if len(names) > 8 or not all(n.isidentifier() and not keyword.iskeyword(n) for n in names):
        return False
    try:
        code = compile(markexpr, "-m", "eval")
    except SyntaxError:
        return False
    return not any(
        eval(code, {"__builtins__": {}}, {"browser": True, **dict(zip(names, bits))})
        for bits in itertools.product((False, True), repeat=len(names))
    )


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A run whose ``-m`` leaves out every browser test does not import them (Playwright, Selenium and their
    helpers): measured in one process collecting the fast tier, 4.5-4.7 CPU-s instead of 5.8, in each worker."""
    if collection_path.resolve() == BROWSER_TESTS and _leaves_out_browsers(config.option.markexpr or ""):
        return True
    return None


def _weight(item: pytest.Item) -> tuple[float, float]:
    """The order a parallel run starts tests in: first those that declare a time limit of their own (the longest
    limit first: a layout sweep, the bundle's build — minutes each, where most tests take seconds), then the
    browser tests, those marked ``slow``, the load tests and the rest."""
    if _is_load(item):
        # The load tests (a thousand sockets, sixty hello floods against a host child) may not run beside a browser
        # test (:func:`pytest_runtest_protocol`): handed out after the slow tests, the browser tests are over by
        # then, and none waits queued behind a load test (handed out right after the browser tests, one worker's
        # next browser test waited 35 s for them); the many short tests left fill in around them. Their own
        # limits (minutes) would put them first.
        return 0, 1.5
    marker = item.get_closest_marker("timeout")
    declared = float(marker.args[0]) if marker and marker.args else 0.0
    if _is_browser(item):
        return -declared, 0
    return -declared, 1 if item.get_closest_marker("slow") else 2


def _is_load(item: pytest.Item) -> bool:
    return Path(str(item.fspath)).name.endswith("_load.py")


def _is_browser(item: pytest.Item) -> bool:
    return BROWSER_TESTS in Path(str(item.fspath)).resolve().parents


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """A load test never runs beside a browser test: the browser tests and the load tests are two sides of the
    run's room (:func:`tests.sharing.side_lock`, files in the system's temporary folder named after the run), and
    one side at a time is in (the two load tests may run beside each other). A load test measures what one host
    does under a thousand sockets; beside three workers' browsers the machine, not the host, was measured: its host
    child stalled 10-35 s at a time and the test failed in 3 of 6 full runs (never alone). Beside the other tests,
    which draw no page, it holds: the load tests used to run alone at the end of the run, a 49-second tail of the
    fast tier's 141 s with the machine half idle (134 of 275 core-s); beside them, 99.8 s on the same 4 workers.
    The lock is taken before pytest-timeout's clock starts (this wrapper runs outermost), so that waiting for the
    other side is not counted against anyone's limit."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")  # the same in every worker of one run
    if run is None or not (_is_load(item) or _is_browser(item)):  # one process, or a test that may run anywhere
        yield
        return
    # Without fcntl (Windows) no lock is taken: the load tests simply share the machine.
    side, other = ("load", "browser") if _is_load(item) else ("browser", "load")
    with side_lock(Path(tempfile.gettempdir()), f"quatro-tests-{run}", side, other):
        yield


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The long tests first (:func:`_weight`), each group in the order it was collected. Started early, the long
    ones do not finish last on one worker while the others idle. The order is the same in every worker, as
    pytest-xdist requires. pyproject.toml's ``--maxschedchunk 1`` hands each worker one test at a time: xdist's own
    chunks (a quarter of a worker's share at the start, 67 tests here) gave one worker every long test, and it ran
    alone for the last seven minutes of a run (three workers done at 593 s, the fourth at 1,029 s). And every
    test's pytest-timeout limit is stretched by ``QUATRO_TEST_TIMEOUT_FACTOR``."""
    items.sort(key=_weight)
    if FACTOR != 1:
        given = config.getoption("timeout", None)  # pytest-timeout's --timeout, else its ini value
        default = float((config.getini("timeout") if given is None else given) or 0)
        for item in items:
            marker = item.get_closest_marker("timeout")
            seconds = float(marker.args[0]) if marker and marker.args else default
            if seconds:
                item.add_marker(pytest.mark.timeout(limit(seconds)), append=False)


class PatientWsClient(WsClient):
    """A socket client whose every wait has its limit stretched by ``QUATRO_TEST_TIMEOUT_FACTOR``."""

    def expect(self, pred: Callable[[dict[str, Any]], bool] | str, timeout: float | None = None) -> dict[str, Any]:
        return super().expect(pred, limit(self.timeout if timeout is None else timeout))


class PatientLiveServer(LiveServer):
    """:class:`LiveServer` whose clients are :class:`PatientWsClient`."""

    def client(self, path: str) -> WsClient:
        c = PatientWsClient(self.ws_url(path))
        self.clients.append(c)
        return c


@pytest.fixture
def live_server_factory() -> Iterator[Callable[..., LiveServer]]:
    """``start(**config) -> LiveServer``: real hosts on loopback, stopped after the test."""
    started: list[LiveServer] = []

    def start(**config: Any) -> LiveServer:
        server = PatientLiveServer(**config)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def live_server(request: pytest.FixtureRequest, live_server_factory: Callable[..., LiveServer]) -> LiveServer:
    """A real host on 127.0.0.1 (free port); configure with ``@pytest.mark.live_server(**config)``."""
    marker = request.node.get_closest_marker("live_server")
    config = dict(marker.kwargs) if marker else {}
    return live_server_factory(**config)


@pytest.fixture(scope="session")
def once(tmp_path_factory: pytest.TempPathFactory) -> OncePerRun:
    """Results worked out once per run and shared by every worker (tests/sharing.py): ``once.get(key, compute)``.
    A worker's base temporary folder is ``popen-gwN`` inside the run's; one process uses its own."""
    base = tmp_path_factory.getbasetemp()
    return OncePerRun((base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "once")
