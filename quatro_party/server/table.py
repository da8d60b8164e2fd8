"""The table: one per host, an actor that owns the engine, the seats' tokens, the bots and every socket.

Socket threads call :meth:`Table.connect`, :meth:`Table.receive` and :meth:`Table.disconnect`, which only
post to the table thread; there each message is parsed (:mod:`quatro_party.protocol`), applied, and every
socket is sent its own fresh view. The concerns are layered, each in its module, and :class:`Table` is
the last layer:

* :mod:`.actor` — the thread, its queue, the deadlines and the bots' wake-ups;
* :mod:`.broadcast` — frames out: replies, then one ``state`` per socket after each change;
* :mod:`.seats` — seat tokens, ``hello`` / ``join`` / ``leave``, the bots' seats;
* :mod:`.host` — the host's controls and seat links;
* :mod:`.resume` — the journal, and resuming a table from it after a restart.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from typing import Any

from .. import protocol as p
from ..bots import make_bot
from ..engine import Game, Timing
from .config import with_defaults
from .connection import Connection
from .resume import RESUME_EPSILON, Resumable

log = logging.getLogger("quatro.server")

__all__ = ["RESUME_EPSILON", "Table"]


class Table(Resumable):
    """One table per host: the engine, the seats' tokens, the bots and every socket.

    ``config``: the keys of :data:`~.config.DEFAULTS` (missing ones take their default). ``journal`` is the
    path of the table's journal (see :mod:`.journal`): when it holds a table whose game had started, that
    table is resumed — its seats, tokens, bots, settings, scores and round — and ``seats``, ``seed``,
    ``time_scale`` and the settings given here are ignored; a journal that cannot be replayed is renamed
    ``*.broken``. After a resume, :attr:`resumed` says so in one line (else it is ``None``).
    """

    def __init__(self, config: dict[str, Any]) -> None:
        config = with_defaults(config)
        self.clock = config["clock"] or time.monotonic
        self.host_secret = config["host_secret"] or secrets.token_urlsafe(18)
        self.join_url = config["join_url"] or ""
        self.mdns_name = config["mdns_name"]
        self._make_bot = config["bot_factory"] or make_bot
        self.conns = set()
        self.watchers = set()
        self.vips = set()
        self.vip_secret = None
        self.moves = {}
        self.journal = None
        self._journal_lock = None
        self.resumed = None
        self._hold_until = None
        self._events = []
        self._outbox = []
        self._views = None
        self._parts = {}
        self._you_texts = {}
        self._dirty = False
        self._last_time = 0.0
        self._new_table(config)
        if config["journal"]:
            self._open_journal(str(config["journal"]), config)
        self._start_actor()

    def _new_table(self, config: dict[str, Any]) -> None:
        """The game and the table-level state of a new table, from ``config`` (nothing journaled)."""
        seed = config["seed"]
        self.seed = seed
        # A table made without a seed still gets one, drawn here, so that its journal can deal the same cards.
        self.deal_seed = seed if isinstance(seed, (int, str)) else secrets.randbits(64)
        self.timing = Timing().scaled(float(config["time_scale"]))
        # Deals depend on the seed alone; bots get their own generators so that
        # adding a bot never changes the cards.
        self.game = Game(int(config["seats"]), rng=random.Random(self.deal_seed), timing=self.timing)
        self.settings = {"bot_level": config["bot_level"], "language": config["language"]}
        self.tokens = {}
        self.seat_tokens = {}
        self.bots = {}
        self.locked = False

    # --- entry points for the socket handlers and the launcher (any thread) ------------

    def connect(self, conn: Connection) -> None:
        """A socket opened (it gets nothing before its ``hello``)."""
        self.post(self._on_connect, conn)

    def receive(self, conn: Connection, raw: str | bytes) -> None:
        """A socket's message, raw: the table thread checks and applies it."""
        self.post(self._on_message, conn, raw)

    def disconnect(self, conn: Connection) -> None:
        """A socket closed; its seat, if any, shows disconnected (R33: the seat and hand stay)."""
        self.post(self._on_disconnect, conn)

    def set_join_url(self, url: str) -> None:
        """The join URL the QR code and ``table.join_url`` show."""
        self.post(self._set_public, "join_url", url)

    def set_mdns_name(self, name: str | None) -> None:
        """The mDNS name once registered (``None``: none)."""
        self.post(self._set_public, "mdns_name", name)

    def _set_public(self, key: str, value: Any) -> None:
        setattr(self, key, value)
        self._dirty = True

    # --- the table thread ------------------------------------------------------------

    def _on_connect(self, conn: Connection) -> None:
        self.conns.add(conn)
        log.info("%r connected", conn)

    def _on_disconnect(self, conn: Connection) -> None:
        self.conns.discard(conn)
        self.vips.discard(conn)
        if self._stop_watching(conn):
            log.info("%r stopped watching", conn)
        log.info("%r disconnected", conn)
        self._unseat(conn)  # R33: the seat and hand stay

    def _on_message(self, conn: Connection, raw: str | bytes) -> None:
        if conn not in self.conns and conn.kind != "bot":
            return  # arrived after the socket closed
        try:
            if conn.kind == "screen":
                self._screen_message(conn, p.parse_screen(raw))
            else:
                self._phone_message(conn, p.parse_phone_socket(raw))
        except p.ProtocolError as exc:
            self._error(conn, exc.code, exc.message, exc.ref)
        except Exception:
            # The raw text is not logged: it may hold a seat token.
            log.exception("%r: a %d-character message crashed its handler", conn, len(raw))
            self._error(conn, p.ErrorCode.INTERNAL, "the server could not handle that message")

    def _phone_message(
        self, conn: Connection, msg: p.Hello | p.Join | p.Leave | p.Action | p.Watch | p.HostAction
    ) -> None:
        if isinstance(msg, p.Hello):
            self._vip_hello(conn, msg.vip)  # first: the state the hello brings says whether it holds the rights
            if msg.token:
                self._stop_watching(conn)
            self._hello(conn, msg)
        elif isinstance(msg, p.Join):
            self._join(conn, msg)
        elif isinstance(msg, p.Leave):
            self._leave(conn, msg)
        elif isinstance(msg, p.Watch):
            self._watch(conn, msg)
        elif isinstance(msg, p.HostAction):
            self._host_message(conn, msg)
        elif conn.seat is None:
            self._error(conn, p.ErrorCode.NOT_SEATED, "take a seat first", msg.id)
        else:
            refusal = self._apply(p.to_command(msg, conn.seat))
            if refusal is not None:
                log.info("%r: %s refused: %s", conn, msg.kind, refusal.reason.value)
                self._send(conn, p.Refused(refusal, msg.id))
            else:
                self._send(conn, p.Ok(msg.id))
