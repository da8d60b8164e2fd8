"""A real server on loopback and a small real-socket client, for tests and benchmarks.

    with LiveServer(seed=1, time_scale=0.05) as server:
        screen = server.screen()                 # hello with the host secret
        ana = server.phone(); ana.join(0, "Ana")  # hello + join → joined (token in ana.token)
        screen.host("start_game")                 # empty seats get bots, the game starts
        state = ana.wait_state(lambda v: v["phase"] == "play")

Nothing here touches the engine: clients see only what a phone or a screen sees.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from simple_websocket import Client, ConnectionClosed

from ..engine import table_view
from .app import create_app, table_of
from .network import lan_ip
from .serving import ServerThread
from .table import Table

#: The host secret every test server uses (so tests can open ``/screen#host=…``).
TEST_HOST_SECRET = "test-host-secret"


class FakeClock:
    """A monotonic clock a test moves by hand (``Table`` config ``clock``): no sleeping on the rules' long timers."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.lock = threading.Lock()  # read by the table's thread, moved by the test's

    def __call__(self) -> float:
        with self.lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self.lock:
            self.now += seconds


class TestingTable:
    """A :class:`Table` with the hooks tests need around it; :class:`LiveServer` builds one (config
    ``table_class``). Everything else is the table's own (attributes and methods are looked up on it).

    ``set_position`` journals the position it lays out as a game snapshot, like a compacted journal does: the
    journal's format knows nothing of tests.
    """

    __test__ = False  # not a pytest test class, whatever its name

    def __init__(self, config: dict[str, Any]) -> None:
        self.table = Table(config)

    def __getattr__(self, name: str) -> Any:
        if name == "table":  # not set yet: no table to look in
            raise AttributeError(name)
        return getattr(self.table, name)

    def start(self) -> TestingTable:
        """Start the table thread; returns this testing table (the app keeps it as its table)."""
        self.table.start()
        return self

    def set_position(self, text: str) -> None:
        """Lay out the running round's hands and centre (``Game.set_position`` notation,
        e.g. ``"AAAK QQJJ KKTT JJAT | KQT9"``) on the table thread; every socket and bot then gets
        its fresh view. Raises ``ValueError`` outside play, like the engine. Journaled (a resumed
        testing table lays out the same position at the same point)."""
        table = self.table

        def apply() -> None:
            table.game.set_position(text)
            table.recorder.record({"snapshot": table.game.snapshot()})
            table.outbox.changed()

        table.call(apply)

    def changed(self) -> None:
        """After poking at ``table.game`` inside :meth:`call`, send everyone a fresh view.

        Such pokes are not journaled: a table resumed from its journal would not have them."""
        self.table.post(self.table.outbox.changed)

    def close_all(self, code: int = 1001, reason: str = "") -> None:
        """Close every socket (a "network blip"); phones reconnect and resume."""
        self.table.call(lambda: self.table.outbox.close_all(code, reason))

    def summary(self) -> dict[str, Any]:
        """A public snapshot: the table view plus server-level facts (call via :meth:`call`)."""
        table = self.table
        return {
            "view": table_view(table.game, table.clock()),
            "bots": {s: lv for s, (lv, _, _) in table.bots.items()},
            "connections": len(table.outbox.sockets),
            "held": sorted(table.seats.tokens.by_seat),
        }


class WsClient:
    """One real WebSocket client, speaking the protocol as a phone or a screen would.

    Every received text frame is kept raw in :attr:`frames` (R39 tests read them);
    :attr:`messages` holds the decoded ones and :attr:`state` the last ``state``.
    """

    def __init__(self, url: str, timeout: float = 5.0) -> None:
        self.url = url
        self.timeout = timeout
        self.ws = Client.connect(url)
        self.frames: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self._unread: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.token: str | None = None
        self.seat: int | None = None
        self._next_id = 1

    # sending
    def send(self, msg: dict[str, Any] | str | bytes, with_id: bool = True) -> Any:
        """Send a message (a dict gets an ``id`` unless it has one); raw text/bytes are sent as they are.

        Returns the id attached (or ``None``).
        """
        if isinstance(msg, (str, bytes)):
            self.ws.send(msg)
            return None
        msg = dict(msg)
        if with_id and "id" not in msg:
            msg["id"] = self._next_id
            self._next_id += 1
        self.ws.send(json.dumps(msg, ensure_ascii=False))
        return msg.get("id")

    def act(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a phone action and wait for its ``ok`` / ``refused`` / ``error`` reply."""
        ref = self.send({"type": kind, **fields})
        return self.reply(ref)

    def host(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a host control (from a screen) and wait for its reply."""
        return self.act(kind, **fields)

    # receiving
    def _read(self, timeout: float) -> dict[str, Any] | None:
        raw = self.ws.receive(timeout=timeout)
        if raw is None:
            return None
        text = raw.decode() if isinstance(raw, bytes) else raw
        self.frames.append(text)
        msg = json.loads(text)
        self.messages.append(msg)
        if msg.get("type") == "state":
            self.state = msg
        elif msg.get("type") == "joined":
            self.token, self.seat = msg["token"], msg["seat"]
        return msg

    def recv(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next message not yet consumed (or ``None`` after ``timeout`` seconds)."""
        if self._unread:
            return self._unread.pop(0)
        return self._read(self.timeout if timeout is None else timeout)

    def expect(self, pred: Callable[[dict[str, Any]], bool] | str, timeout: float | None = None) -> dict[str, Any]:
        """The first message (type name, or predicate) that matches, skipping others. Fails after ``timeout``."""
        check = (lambda m: m.get("type") == pred) if isinstance(pred, str) else pred
        end = time.monotonic() + (self.timeout if timeout is None else timeout)
        for i, msg in enumerate(self._unread):
            if check(msg):
                del self._unread[: i + 1]
                return msg
        self._unread.clear()
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message within the timeout; last: {self.messages[-3:]}")
            got = self._read(left)
            if got is not None and check(got):
                return got

    def reply(self, ref: Any, timeout: float | None = None) -> dict[str, Any]:
        """The ``ok`` / ``refused`` / ``error`` carrying ``id == ref``."""
        return self.expect(lambda m: m.get("type") in ("ok", "refused", "error") and m.get("id") == ref, timeout)

    def wait_state(
        self, pred: Callable[[dict[str, Any]], bool] = lambda v: True, timeout: float | None = None
    ) -> dict[str, Any]:
        """The view of the newest ``state`` matching ``pred``: the latest one received (after reading
        whatever has already arrived) if it matches, else the first matching one to come."""
        while self._read(0) is not None:  # catch up with frames already here, without waiting
            pass
        self._unread.clear()
        if self.state is not None and pred(self.state["view"]):
            return self.state["view"]
        return self.expect(lambda m: m.get("type") == "state" and pred(m["view"]), timeout)["view"]

    def drain(self, quiet: float = 0.05) -> None:
        """Read everything that arrives until the socket is quiet for ``quiet`` seconds."""
        self._unread.clear()
        while self._read(quiet) is not None:
            pass

    # phone conveniences
    def hello(self, token: str | None = None) -> dict[str, Any]:
        """Send ``hello`` (phone) and return the first reply: ``joined`` for a good token, else the state/error."""
        self.send({"type": "hello", "token": token})
        return self.expect(lambda m: m.get("type") in ("joined", "state", "error"))

    def join(self, seat: int, name: str) -> dict[str, Any]:
        """Take a seat; returns the ``joined`` message (or raises with the error)."""
        ref = self.send({"type": "join", "seat": seat, "name": name})
        msg = self.expect(lambda m: m.get("type") in ("joined", "error", "refused") and m.get("id") == ref)
        if msg["type"] != "joined":
            raise AssertionError(f"join refused: {msg}")
        return msg

    def close(self) -> None:
        try:
            self.ws.close()
        except (ConnectionClosed, OSError):
            pass

    @property
    def closed(self) -> bool:
        return not self.ws.connected

    def __enter__(self) -> WsClient:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class LiveServer:
    """A real host on ``127.0.0.1`` (port 0 → a free port) in a background thread.

    Config (keyword arguments, all optional): any key of
    :data:`quatro_party.server.app.DEFAULTS`, plus ``public_host`` — the host name
    the join URL / QR code carry (default: this machine's LAN address, as in real
    use; browser tests pass ``"party.test"``, which their Chromium maps to
    127.0.0.1). Defaults for tests: ``host_secret=TEST_HOST_SECRET``, ``seed=1``,
    ``time_scale=1.0``.
    """

    def __init__(self, public_host: str | None = None, **config: Any) -> None:
        cfg = {"host_secret": TEST_HOST_SECRET, "seed": 1, "table_class": TestingTable, **config}
        self.config = cfg
        self.app = create_app(cfg)
        self.thread = ServerThread(self.app, "127.0.0.1", 0).start()
        self.port = self.thread.port
        self.public_host = public_host or lan_ip()
        self.join_url = f"http://{self.public_host}:{self.port}/"
        self.table.call(lambda: self.table.host.set_join_url(self.join_url))
        self.clients: list[WsClient] = []

    @property
    def table(self) -> TestingTable:
        table = table_of(self.app)
        assert isinstance(table, TestingTable)
        return table

    @property
    def host_secret(self) -> str:
        return self.table.host_secret

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT`` (no trailing slash)."""
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    def screen_url(self, host: bool = True, host_name: str = "127.0.0.1") -> str:
        """The big screen page, with the host secret in the fragment as the launcher opens it."""
        return f"http://{host_name}:{self.port}/screen" + (f"#host={self.host_secret}" if host else "")

    def client(self, path: str) -> WsClient:
        c = WsClient(self.ws_url(path))
        self.clients.append(c)
        return c

    def phone(self, token: str | None = None, hello: bool = True) -> WsClient:
        """A phone socket; with ``hello`` it already said hello (and resumed its seat if ``token`` is good)."""
        c = self.client("/ws/phone")
        if hello:
            c.hello(token)
        return c

    def screen(self, host: bool = True, hello: bool = True) -> WsClient:
        """A big-screen socket; ``host=True`` proves the host secret. Its first state is already read."""
        c = self.client("/ws/screen")
        if hello:
            c.send({"type": "hello", "host": self.host_secret if host else None})
            c.expect("state")
        return c

    def summary(self) -> dict[str, Any]:
        """The table's public snapshot, read on the table thread."""
        return self.table.call(self.table.summary)

    def stop(self) -> None:
        for c in self.clients:
            c.close()
        self.thread.stop()

    def __enter__(self) -> LiveServer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()
