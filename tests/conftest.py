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

``live_server_factory`` — ``start(**config) -> LiveServer`` for tests that need
several servers or want to build the config at run time; all are stopped after
the test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from quatro_party.server.testing import TEST_HOST_SECRET, LiveServer, WsClient

__all__ = ["TEST_HOST_SECRET", "LiveServer", "WsClient"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "live_server(**config): configure the live_server fixture")


@pytest.fixture
def live_server_factory() -> Iterator[Callable[..., LiveServer]]:
    """``start(**config) -> LiveServer``: real hosts on loopback, stopped after the test."""
    started: list[LiveServer] = []

    def start(**config: Any) -> LiveServer:
        server = LiveServer(**config)
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
