"""Seats and tokens: which socket speaks for which seat, seat links, and the bots that sit in seats.

A seat token is the seat's secret: whoever sends it in ``hello`` is the player (same phone,
new page, or the same page after a host restart). Tokens leave the server only in the
``joined`` reply to their own phone. A seat link (the host's ``allow_move``) lets another
device take a held seat once, within :data:`MOVE_LINK_LIFETIME`; links are not journaled.

A ``joined`` reply can go down with its socket: a phone that changes networks, or a page that gives up a socket
its host was too slow to answer, never learns the token its join was given, and the seat would wait for a phone
that no longer knows it. So a join may carry a ``key``, a secret the page made, and the page sends the same join
again on its next socket: the key, while the token it was given lives, opens the seat as that token would. The
journal keeps the key's hash with the token.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections.abc import Callable

from .. import protocol as p
from ..engine import Game, Phase, SeatKind, SetConnected, Sit
from ..engine.game import MAX_NAME_LENGTH
from ..engine.host import printable_name
from ..engine.refusals import Reason, Refusal
from . import names
from .botseats import Bots
from .connection import Connection
from .outbox import Outbox
from .recorder import Recorder
from .referee import Referee

log = logging.getLogger("quatro.server")

#: A bot's name, by seat: "Bot Ada", "Bot Bix"…
BOT_NAMES = ("Ada", "Bix", "Cleo", "Dex", "Eno", "Fay", "Gus", "Hal")

#: How long a host-issued seat link stays usable (seconds of the table clock).
MOVE_LINK_LIFETIME = 600.0

#: A socket's ``hello`` is answered (a whole fresh view) at most once in this many seconds; one coming sooner
#: waits for the end of that second, and a later one in the meantime replaces it. An honest page says hello
#: once per socket (and its liveness probe every ~10 s); a script repeating it cannot make the host build and
#: send a full view per message (60 addresses × 19 hellos/s drew 54× the table's own traffic without this).
HELLO_GAP = 1.0


def distinct_name(name: str, others: list[str]) -> str:
    """``name`` (trimmed), or with a number ("Ana 2", "Ana 3"…) when one of ``others`` already reads the same
    (:func:`.names.key`: case, accents, spacing, width and look-alike letters do not count); kept within the
    engine's length by shortening the name. A name the engine would refuse anyway (empty, too long, not
    printable) is given back unchanged, for the engine to refuse.

    >>> distinct_name("ana", ["Ana", "Bot Ada"]), distinct_name("Ana", ["ÁNA", "ana 2"])
    ('ana 2', 'Ana 3')
    """
    name = name.strip()
    if not 1 <= len(name) <= MAX_NAME_LENGTH or not printable_name(name):
        return name
    return names.distinct(name, others, MAX_NAME_LENGTH)


def digest(key: str) -> str:
    """What the journal keeps of a key: its SHA-256, in hex (the key itself never leaves its holder's storage)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


class Tokens:
    """The seats' secrets, both ways: :attr:`by_token` (token → seat) and :attr:`by_seat` (seat → token), and
    :attr:`join_keys` (seat → the hash of the key of the join its token was given to, if it had one)."""

    def __init__(self) -> None:
        self.by_token: dict[str, int] = {}
        self.by_seat: dict[int, str] = {}
        self.join_keys: dict[int, str] = {}

    def issue(self, seat: int, token: str, join_key: str | None = None) -> None:
        """``token`` opens ``seat`` from now on, and so does the join key hashed as ``join_key`` (if any); the
        seat's old token and key die."""
        self.revoke(seat)
        self.by_token[token] = seat
        self.by_seat[seat] = token
        if join_key is not None:
            self.join_keys[seat] = join_key

    def revoke(self, seat: int) -> bool:
        """``seat``'s token (and its join key) stops working; whether it had one."""
        self.join_keys.pop(seat, None)
        old = self.by_seat.pop(seat, None)
        if old is None:
            return False
        self.by_token.pop(old, None)
        return True

    def joined_with(self, seat: int, key: str) -> bool:
        """Whether ``key`` is the key of the join that ``seat``'s living token was given to."""
        kept = self.join_keys.get(seat)
        return kept is not None and secrets.compare_digest(kept, digest(key))


class Greetings:
    """What ``hello`` may cost: when each socket was last answered one, and the one hello that waits per socket
    (see :data:`HELLO_GAP`). Timed on ``clock``, the host's real monotonic clock (not the table's, which a test
    or a restart may set anywhere): it bounds real work."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.answered: dict[Connection, float] = {}  # socket → when it was last answered a hello
        self.waiting: dict[Connection, p.Hello | p.ScreenHello] = {}  # socket → its latest hello, not answered yet
        self._clock = clock

    def admit(self, conn: Connection, msg: p.Hello | p.ScreenHello) -> bool:
        """Whether ``msg`` (a hello) is answered now; if not, it waits (replacing an older waiting one)."""
        now = self._clock()
        last = self.answered.get(conn)
        if last is not None and now - last < HELLO_GAP:
            self.waiting[conn] = msg
            return False
        self.answered[conn] = now
        self.waiting.pop(conn, None)
        return True

    def due(self) -> list[tuple[Connection, p.Hello | p.ScreenHello]]:
        """The waiting hellos whose gap is over, to be handled again (:meth:`admit` then lets them through)."""
        now = self._clock()
        ready = [(c, m) for c, m in self.waiting.items() if now - self.answered.get(c, now) >= HELLO_GAP]
        for conn, _ in ready:
            del self.waiting[conn]
        return ready

    def wait(self) -> float | None:
        """Seconds until the first waiting hello is due (``None``: none waits)."""
        if not self.waiting:
            return None
        return max(0.0, min(self.answered[c] for c in self.waiting) + HELLO_GAP - self._clock())

    def forget(self, conn: Connection) -> None:
        """A socket closed."""
        self.answered.pop(conn, None)
        self.waiting.pop(conn, None)


class Seats:
    """Tokens, seat links, ``hello`` / ``leave``, and seating players and bots."""

    def __init__(
        self, game: Game, tokens: Tokens, bots: Bots, referee: Referee, recorder: Recorder, outbox: Outbox
    ) -> None:
        self.tokens = tokens
        self.moves: dict[str, tuple[int, float]] = {}  # seat-link token → (seat, expiry); not journaled
        self._game = game
        self._bots = bots
        self._referee = referee
        self._recorder = recorder
        self._outbox = outbox

    # --- tokens ----------------------------------------------------------------------

    def has_token(self, seat: int) -> bool:
        """Whether a phone's token holds ``seat`` (it may be away)."""
        return seat in self.tokens.by_seat

    def new_token(self, seat: int, join_key: str | None = None) -> str:
        """A new secret for ``seat``, given to the join of key ``join_key`` (if it had one); the old one dies."""
        token = secrets.token_urlsafe(18)
        kept = None if join_key is None else digest(join_key)
        self.tokens.issue(seat, token, kept)
        self._recorder.record({"token": token, "seat": seat} | ({} if kept is None else {"key": kept}))
        return token

    def revoke(self, seat: int) -> None:
        """``seat``'s token (and any seat link to it) stops working."""
        if self.tokens.revoke(seat):
            self._recorder.record({"revoke": seat})
        for t, (s, _) in list(self.moves.items()):
            if s == seat:
                del self.moves[t]

    def held(self, seat: int) -> bool:
        """Whether a phone's token or a bot holds ``seat``: then nobody else may ``join`` it."""
        return self.has_token(seat) or self._game.seats[seat].kind is SeatKind.BOT

    def freed(self) -> list[int]:
        """The human seats nobody holds the token of (the host freed them): the next phone to ``join`` one
        takes it over, hand and all (R33). Public: an offline seat is not in it (its token still holds it)."""
        return [s for s, seat in enumerate(self._game.seats) if seat.kind is SeatKind.HUMAN and not self.held(s)]

    def no_such_seat(self, seat: int) -> tuple[Reason, str] | None:
        """The error for a seat beyond the table, or ``None``."""
        if seat >= self._game.seat_count:
            return (Reason.NO_SUCH_SEAT, f"this table has seats 0 to {self._game.seat_count - 1}")
        return None

    # --- seat links --------------------------------------------------------------------

    def new_link(self, seat: int) -> str:
        """A seat link for ``seat``: the next device to say ``hello`` with it takes the seat (once)."""
        link = secrets.token_urlsafe(18)
        self.moves[link] = (seat, self._referee.now() + MOVE_LINK_LIFETIME)
        return link

    def is_live_link(self, link: str) -> bool:
        """Whether ``link`` is a seat link that still works."""
        move = self.moves.get(link)
        return move is not None and move[1] >= self._referee.now()

    # --- sockets on seats ----------------------------------------------------------------

    def attached(self, seat: int) -> list[Connection]:
        """The open phone sockets that speak for ``seat``."""
        return [c for c in self._outbox.sockets if c.seat == seat and c.kind == "phone" and c.open]

    def detach(self, seat: int, code: p.ErrorCode, message: str, keep: Connection | None = None) -> None:
        """Unseat every other socket on ``seat``: they are told why and fall back to the public view."""
        for other in self.attached(seat):
            if other is not keep:
                other.seat = None
                other.token = None
                self._outbox.error(other, code, message)
                self._outbox.send_state(other)

    def resume(self, conn: Connection, seat: int, ref: object) -> None:
        """``conn`` proved ``seat``'s secret (its token, or the key of the join it was given to): it speaks for
        the seat, with the seat's token; any other socket on the seat is told it moved."""
        self.detach(seat, p.ErrorCode.SEAT_MOVED, "this seat was opened on another page", keep=conn)
        log.info("%r: resumed seat %s", conn, seat)
        self.seat(conn, seat, self.tokens.by_seat[seat], ref)

    def unseat(self, conn: Connection) -> None:
        """This socket stops speaking for its seat; the seat shows disconnected if no other socket holds it."""
        seat, conn.seat, conn.token = conn.seat, None, None
        if seat is not None and not self.attached(seat) and seat < self._game.seat_count:
            self._referee.apply(SetConnected(seat, False))

    def seat(self, conn: Connection, seat: int, token: str, ref: object) -> None:
        """``conn`` speaks for ``seat`` from now on (``joined`` tells it the token)."""
        if conn.seat is not None and conn.seat != seat:
            self.unseat(conn)  # a socket holds one seat at a time
        conn.seat, conn.token, conn.greeted = seat, token, True
        # The name as granted: the phone typed "Ana", the seat may be "Ana 2" (distinct_name).
        self._outbox.send(conn, p.Joined(ref, seat, token, self._game.seats[seat].name))
        if self._game.seats[seat].kind is SeatKind.HUMAN:
            self._referee.apply(SetConnected(seat, True))
        self._outbox.changed()

    # --- phone messages about seats ------------------------------------------------------

    def hello(self, conn: Connection, msg: p.Hello) -> None:
        """A phone's ``hello``: its seat again (token), a seat moved to it (seat link), or the public view."""
        token = msg.token
        if conn.seat is not None and token == conn.token:
            conn.greeted = True
            self._outbox.send_state(conn)
            return
        if token is not None:  # an empty token too: a phone whose stored token went empty is told so
            now = self._referee.now()
            move = self.moves.pop(token, None)
            if move is not None and move[1] >= now and move[0] < self._game.seat_count:
                # A seat link the host allowed (allow_move): this device takes the seat, the old one loses it.
                moved = move[0]
                new_token = self.new_token(moved)
                self.detach(moved, p.ErrorCode.SEAT_MOVED, "this seat moved to another device", keep=conn)
                log.info("%r: seat %s moved here by seat link", conn, moved)
                self.seat(conn, moved, new_token, msg.id)
                return
            held = self.tokens.by_token.get(token)
            if held is not None and held < self._game.seat_count:
                # The token is the seat's secret: whoever holds it is the player (same phone, new page).
                self.resume(conn, held, msg.id)
                return
            conn.greeted = True
            self._outbox.error(
                conn, p.ErrorCode.BAD_TOKEN, "that seat token is not valid here (any more): pick a seat", msg.id
            )
            self._outbox.send_state(conn)
            return
        if conn.seat is not None:  # hello without token from a seated socket: it gives up its seat view
            self.unseat(conn)
        conn.greeted = True
        self._outbox.send_state(conn)

    def leave(self, conn: Connection, msg: p.Leave) -> None:
        """A phone gives its seat back (lobby only): the seat empties and its token dies."""
        if conn.seat is None:
            self._outbox.error(conn, p.ErrorCode.NOT_SEATED, "you hold no seat", msg.id)
            return
        if self._game.phase is not Phase.LOBBY:
            self._outbox.error(conn, Reason.WRONG_PHASE, "a seat can only be given back in the lobby", msg.id)
            return
        seat = conn.seat
        refusal = self._referee.apply(Sit(seat, SeatKind.EMPTY))
        if refusal is not None:
            self._outbox.send(conn, p.Refused(refusal, msg.id))
            return
        self.revoke(seat)
        self.detach(seat, p.ErrorCode.SEAT_FREED, "you left the seat", keep=conn)
        conn.seat, conn.token = None, None
        self._outbox.send(conn, p.Ok(msg.id))

    # --- names and bots --------------------------------------------------------------------

    def distinct_name(self, seat: int, name: str) -> str:
        """``name`` for ``seat``, numbered if another seat (a bot's too) already has it; the seat's own name
        does not count (a player taking their freed seat back, a bot changing level keep theirs)."""
        return distinct_name(name, [s.name for i, s in enumerate(self._game.seats) if i != seat])

    def put_bot(self, seat: int, level: str) -> Refusal | None:
        """A bot of ``level`` sits in ``seat`` (the engine may refuse)."""
        name = self.distinct_name(seat, f"Bot {BOT_NAMES[seat % len(BOT_NAMES)]}")
        entry = self._bots.make(seat, level)
        refusal = self._referee.apply(Sit(seat, SeatKind.BOT, name))
        if refusal is not None:
            return refusal
        self._bots.sit(seat, entry)
        self._recorder.record({"bot": seat, "level": level})
        return None

    def drop_bot(self, seat: int) -> None:
        """``seat``'s bot leaves it (the engine's seat is the caller's to change)."""
        self._bots.stand(seat)
        self._recorder.record({"unbot": seat})
