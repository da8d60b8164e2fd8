"""The game of Quatro as a pure state machine (R1–R35).

No clock, no threads, no global randomness: the caller passes ``now`` (seconds,
any monotonic origin) to every call and gives the game its own
:class:`random.Random`. Commands go in through :meth:`Game.apply`; time goes in
through :meth:`Game.tick`; both return an :class:`Outcome` holding the public
events that happened. :meth:`Game.next_deadline` tells when to call
:meth:`Game.tick` next.

>>> import random
>>> from quatro_party.engine import Game, Sit, SeatKind, StartGame
>>> game = Game(4, rng=random.Random(7))
>>> for seat in range(4):
...     _ = game.apply(Sit(seat, SeatKind.BOT, f"Bot {seat}"), now=0.0)
>>> game.apply(StartGame(), now=0.0).ok
True
>>> game.phase            # only bots: everyone is ready, the round opens at once (R11)
<Phase.PLAY: 'play'>
>>> game.next_deadline()  # the round is void after three minutes (R32)
180.0
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from operator import attrgetter
from typing import Any, TypeGuard

from . import events as ev
from .cards import Card, deck_for, format_cards, is_carre, parse_cards
from .commands import (
    AnswerVote,
    CallContre,
    CallQuatro,
    ChooseEmoji,
    NewGame,
    PickSign,
    Ready,
    ReleaseChannel,
    RequestReshuffle,
    SeatKind,
    SetConnected,
    SetSeatCount,
    Sit,
    StartGame,
    StartNextRound,
    Swap,
    TakeChannel,
)
from .refusals import Reason, Refusal
from .rules import (
    CENTRE_SIZE,
    DEFAULT_TIMING,
    HAND_SIZE,
    REDEAL_THRESHOLD,
    SEAT_COUNTS,
    SIGNS,
    WINNING_SCORE,
    Timing,
    partner_of,
    seats_of,
    team_of,
)

#: Longest player name accepted (characters, after trimming).
MAX_NAME_LENGTH = 20


#: Float noise tolerated when a cooldown ends (seconds).
_SLACK = 1e-9


def _is_index(value: object) -> TypeGuard[int]:
    """A seat, place or team number: a plain int, and not a bool (``True`` is not team 1)."""
    return type(value) is int


#: A card's id, as a sort key run in C (a reshuffle sorts the cards back into id order).
_card_id = attrgetter("id")


#: R6 — a rank held ``REDEAL_THRESHOLD`` times in a hand of ``HAND_SIZE`` must show up among
#: the hand's first ``HAND_SIZE - REDEAL_THRESHOLD + 1`` cards, so only those ranks need counting.
_SUSPECTS = HAND_SIZE - REDEAL_THRESHOLD + 1


def _a_hand_to_redeal(ranks: list[str], hands: int) -> bool:
    """R6: do any of the first ``hands`` hands of ``ranks`` (the pile's ranks in deal order, ``HAND_SIZE``
    per hand) hold ``REDEAL_THRESHOLD`` cards of one rank? (hot: every deal; plain loops, no generators)"""
    for start in range(0, hands * HAND_SIZE, HAND_SIZE):
        hand = ranks[start : start + HAND_SIZE]
        for r in hand[:_SUSPECTS]:
            if hand.count(r) >= REDEAL_THRESHOLD:
                return True
    return False


#: R10, R12: the signs a team may be given at random, by its last round's sign (worked out once; the
#: RNG draws from exactly the list it drew from before).
_SIGNS_BUT: dict[str | None, list[str]] = {None: list(SIGNS), **{x: [s for s in SIGNS if s != x] for x in SIGNS}}


class Phase(str, Enum):
    """Where the game is."""

    LOBBY = "lobby"  # seats being filled
    SIGN = "sign"  # R8–R12: teams pick their signs
    PLAY = "play"  # R14–R31: the round is running
    PAUSE = "pause"  # R26, R32: reveal on screen, next round soon
    OVER = "over"  # R34–R35: somebody won


class RoundEnd(str, Enum):
    """How a round ended."""

    QUATRO = "quatro"
    CONTRE = "contre"
    VOID = "void"


@cache
def _wrong_phase_text(phase: Phase, wanted: tuple[Phase, ...]) -> str:
    """The message of a command refused in ``phase``; worked out once per case (a handful), since bots
    often act just after a round ended."""
    return f"not during the {phase.value} phase (only {' or '.join(p.value for p in wanted)})"


#: Each phase's wire name (``Phase.value`` goes through the enum's property machinery).
_PHASE_NAMES: dict[Phase, str] = {p: p.value for p in Phase}


# Enum members as plain module names: in CPython 3.11 ``Phase.PLAY`` is an attribute lookup
# through the enum's metaclass, several times slower than a global, and the engine asks
# "which phase?" on every command (bench/engine.py). Same objects, same meaning.
LOBBY, SIGN, PLAY, PAUSE, OVER = Phase.LOBBY, Phase.SIGN, Phase.PLAY, Phase.PAUSE, Phase.OVER
EMPTY, HUMAN, BOT = SeatKind.EMPTY, SeatKind.HUMAN, SeatKind.BOT


@dataclass(frozen=True)
class RoundResult:
    """Everything revealed at the end of a round (R26, R32).

    ``hands`` is indexed by seat, ``signs`` by team; ``carres`` lists the seats that
    held a carré at the end. For a Quatro, ``target`` is the partner whose hand was
    judged; for a Contre it is the accused team.
    """

    round: int
    end: RoundEnd
    caller: int | None
    target: int | None
    correct: bool
    scorers: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    centre: tuple[Card, ...]
    carres: tuple[int, ...]
    signs: tuple[str | None, ...]
    scores: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """Public JSON of the reveal."""
        return {
            "round": self.round,
            "end": self.end.value,
            "caller": self.caller,
            "target": self.target,
            "correct": self.correct,
            "scorers": list(self.scorers),
            "hands": [[c.to_json() for c in hand] for hand in self.hands],
            "centre": [c.to_json() for c in self.centre],
            "carres": list(self.carres),
            "signs": list(self.signs),
            "scores": list(self.scores),
        }


@dataclass(frozen=True)
class Outcome:
    """What one call to :meth:`Game.apply` or :meth:`Game.tick` did.

    ``events`` are public and in order. ``refusal`` is set when the command was
    refused; the command then changed nothing (only time, as :meth:`Game.tick`
    would have, may have moved the game on: those events are in ``events``).
    """

    events: tuple[ev.Event, ...] = ()
    refusal: Refusal | None = None

    @property
    def ok(self) -> bool:
        """True when the command was accepted."""
        return self.refusal is None


#: The outcome of an accepted command that changed nothing public (shared: an Outcome is frozen).
_NOTHING = Outcome()


@dataclass
class SeatState:
    """One seat: who holds it and what they hold. Private parts are marked."""

    kind: SeatKind = EMPTY
    name: str = ""
    connected: bool = False
    ready: bool = False
    hand: list[Card] = field(default_factory=list)  # private (R37)
    swap_ready_at: float = float("-inf")  # private (R37)
    channel_held: bool = False
    channel_ready_at: float = float("-inf")  # private (R37)
    channel_choice: str | None = None  # private until emitted (R37)
    last_emission_at: float | None = None
    last_emitted: str | None = None  # public once emitted
    next_emission_at: float | None = None


@dataclass
class TeamState:
    score: int = 0
    sign: str | None = None  # private to the team (R38)
    last_sign: str | None = None  # R10; public since its reveal
    random_sign: bool = False  # R12 notice, public


@dataclass
class Vote:
    requester: int
    voters: list[int]
    accepted: list[int]
    ends_at: float


class Game:
    """One table's game, from the lobby to the winners.

    ``rng`` is the only source of randomness; ``timing`` holds the rules' durations.
    The state changes through :meth:`apply` and :meth:`tick` only (tests may lay out cards
    directly): the next deadline is worked out as things change, not on every call.
    """

    def __init__(
        self,
        seat_count: int = 4,
        *,
        rng: random.Random,
        timing: Timing = DEFAULT_TIMING,
        winning_score: int = WINNING_SCORE,
    ) -> None:
        if seat_count not in SEAT_COUNTS:
            raise ValueError(f"a table has 4, 6 or 8 seats, not {seat_count!r}")
        self.rng = rng
        self.timing = timing
        self.winning_score = winning_score
        self.seat_count = seat_count
        self.phase = LOBBY
        self.round = 0
        self.now = float("-inf")
        self.seats: list[SeatState] = [SeatState() for _ in range(seat_count)]
        self.teams: list[TeamState] = [TeamState() for _ in range(seat_count // 2)]
        self.centre: list[Card] = []
        self.phase_ends_at: float | None = None  # sign deadline, round end or pause end
        self.round_opened_at: float | None = None
        self.vote: Vote | None = None
        self.last_vote_end: float | None = None
        self.reshuffled: bool = False  # R29: this round
        self.redeals: int = 0  # R6: deals thrown back for the current hands
        self.result: RoundResult | None = None
        self.winners: tuple[int, ...] = ()
        # The next thing due, always equal to ``_earliest()``: kept up to date by every change of the phase,
        # its end, the vote or an emission time (see _reschedule and _emission_moved), because every command
        # asks "is anything due?" and working it out means a look at every seat.
        self._due: tuple[float, int, int] | None = None

    # --- reading the state --------------------------------------------------------

    @property
    def team_count(self) -> int:
        return self.seat_count // 2

    def partner(self, seat: int) -> int:
        """R2: the partner's seat."""
        return partner_of(seat, self.seat_count)

    def team(self, seat: int) -> int:
        """R2: the seat's team."""
        return team_of(seat, self.seat_count)

    def has_carre(self, seat: int) -> bool:
        """R7: does the seat hold four of a kind right now?"""
        return is_carre(self.seats[seat].hand)

    def scores(self) -> tuple[int, ...]:
        return tuple(t.score for t in self.teams)

    def all_cards(self) -> list[Card]:
        """Every card in play (hands then centre) — R5 says this multiset never changes."""
        return [c for s in self.seats for c in s.hand] + list(self.centre)

    def position(self) -> str:
        """The hands and centre in text notation, e.g. ``"AAKT QQJJ ... | KT9A"``."""
        hands = " ".join(format_cards(s.hand) for s in self.seats)
        return f"{hands} | {format_cards(self.centre)}"

    def set_position(self, text: str) -> None:
        """Test hook: lay out every hand and the centre of the running round from text notation.

        ``text`` reads ``"AAAK QQJJ KKTT JJAT | KQT9"``: one 4-card hand per seat in seat
        order, then ``|`` and the 4 centre places. Between them the cards must be exactly
        the table's deck (R4–R5: nothing added, nothing lost); which copy of a rank goes
        where is fixed (lowest id first), so positions are reproducible. R6 is *not*
        applied (a scenario may need a carré). Only during play; raises ``ValueError``
        for anything else. Nothing else changes (cooldowns, channels, clock, votes).

        >>> import random
        >>> from quatro_party.engine import Game, Sit, SeatKind, StartGame
        >>> game = Game(4, rng=random.Random(0))
        >>> for seat in range(4):
        ...     _ = game.apply(Sit(seat, SeatKind.BOT, f"Bot {seat}"), now=0.0)
        >>> _ = game.apply(StartGame(), now=0.0)
        >>> game.set_position("AAAA KKKK QQQQ JJJJ | TTTT")
        >>> game.position(), game.has_carre(0)
        ('AAAA KKKK QQQQ JJJJ | TTTT', True)
        """
        if self.phase is not PLAY:
            raise ValueError("a position can only be set while a round is in play")
        hands_text, bar, centre_text = text.partition("|")
        hand_texts = hands_text.split()
        if not bar or len(hand_texts) != self.seat_count:
            raise ValueError(f"need {self.seat_count} hands, then '|' and the centre: {text!r}")
        deck = deck_for(self.seat_count)
        taken: set[int] = set()
        hands = [parse_cards(h, deck, taken) for h in hand_texts]
        centre = parse_cards(centre_text, deck, taken)
        if any(len(h) != HAND_SIZE for h in hands) or len(centre) != CENTRE_SIZE:
            raise ValueError(f"every hand holds {HAND_SIZE} cards and the centre {CENTRE_SIZE}: {text!r}")
        for s, hand in zip(self.seats, hands):
            s.hand = hand
        self.centre = centre

    def next_deadline(self) -> float | None:
        """The earliest time at which :meth:`tick` has something to do, or ``None``."""
        due = self._due
        return None if due is None else due[0]

    # --- driving the game ---------------------------------------------------------

    def tick(self, now: float) -> Outcome:
        """Let time pass up to ``now``: every deadline due is handled in time order."""
        events: list[ev.Event] = []
        self._advance(now, events)
        return Outcome(tuple(events)) if events else _NOTHING

    def apply(self, command: Any, now: float) -> Outcome:
        """Carry out ``command`` at time ``now`` (after any deadline due by then).

        A refused command changes nothing: every check is made before any change.
        A ``now`` earlier than the game's clock counts as the game's clock (time never goes back).
        """
        handler = _HANDLERS.get(type(command))
        if handler is None:  # a caller's bug, not a player's mistake: raise before time moves
            raise TypeError(f"not a command: {command!r}")
        events: list[ev.Event] = []
        due = self._due
        if due is not None and due[0] <= now:
            self._advance(now, events)
        elif now > self.now:  # nothing due: only the clock moves (what _advance would do, without its loop)
            self.now = now
        seat = getattr(command, "seat", None)
        if seat is not None and not (type(seat) is int and 0 <= seat < self.seat_count):
            refusal: Refusal | None = Refusal(Reason.NO_SUCH_SEAT, f"there is no seat {seat!r} at this table")
        else:
            refusal = handler(self, command, events)
        if refusal is not None:
            return Outcome(tuple(events) if events else (), refusal)
        return Outcome(tuple(events)) if events else _NOTHING

    # --- time ---------------------------------------------------------------------

    def _earliest(self) -> tuple[float, int, int] | None:
        """The next thing due as ``(time, kind, seat)``: kind 0 an emission, 1 the vote's end, 2 the phase's end.

        Ties go to the lower kind, then the lower seat (hence the strict ``<`` below: the
        loop meets seats in order), so the answer is the smallest such tuple — which
        :meth:`_emission_moved` relies on. Only called when ``_due`` must be worked out again.
        """
        best: tuple[float, int, int] | None = None
        if self.phase is PLAY:
            i = 0
            for s in self.seats:
                at = s.next_emission_at
                if at is not None and (best is None or at < best[0]):
                    best = (at, 0, i)
                i += 1
            vote = self.vote
            if vote is not None and (best is None or vote.ends_at < best[0]):
                best = (vote.ends_at, 1, 0)
        end = self.phase_ends_at
        if end is not None and (best is None or end < best[0]):
            best = (end, 2, 0)
        return best

    def _reschedule(self) -> None:
        """The phase, its end or the vote changed: work out what is due next (``_due``)."""
        self._due = self._earliest()

    def _emission_moved(self, seat: int) -> None:
        """``seat``'s next emission was set, moved later or cleared: keep ``_due`` equal to ``_earliest()``.

        The common cases need no look at the other seats: if this seat's emission was not the
        next thing due, the next thing due is the sooner of the old one and the new emission
        (tuples compare as ``_earliest`` breaks ties).
        """
        due = self._due
        if due is not None and due[1] == 0 and due[2] == seat:
            self._due = self._earliest()
            return
        at = self.seats[seat].next_emission_at
        if at is not None and self.phase is PLAY and (due is None or (at, 0, seat) < due):
            self._due = (at, 0, seat)

    def _advance(self, now: float, events: list[ev.Event]) -> None:
        """Handle every deadline due by ``now``, in time order; then the clock reads ``now``."""
        while True:
            due = self._due
            if due is None or due[0] > now:
                break
            at, kind, seat = due
            if at > self.now:
                self.now = at
            if kind == 0:
                self._emit(seat, events)
            elif kind == 1:
                self._end_vote(False, "silence", events)
            elif self.phase is SIGN:
                self._open_round(events)
            elif self.phase is PLAY:
                self._end_round(RoundEnd.VOID, None, None, False, (), events)
            elif self.phase is PAUSE:
                self._open_sign_phase(events)
        if now > self.now:
            self.now = now

    def _emit(self, seat: int, events: list[ev.Event]) -> None:
        s = self.seats[seat]
        assert s.next_emission_at is not None and s.channel_choice is not None
        at = s.next_emission_at
        s.last_emission_at = at
        s.last_emitted = s.channel_choice
        s.next_emission_at = at + self.timing.emission_period
        self._emission_moved(seat)
        events.append(ev.Emitted(seat, s.channel_choice))

    # --- phases -------------------------------------------------------------------

    def _open_sign_phase(self, events: list[ev.Event]) -> None:
        self.phase = SIGN
        self.round += 1
        for t in self.teams:
            t.last_sign = t.sign if t.sign is not None else t.last_sign
            t.sign = None
            t.random_sign = False
        for s in self.seats:
            s.ready = False
            s.hand = []
            s.channel_held = False
            s.channel_choice = None
            s.next_emission_at = None
            s.last_emission_at = None
            s.last_emitted = None
            s.swap_ready_at = s.channel_ready_at = float("-inf")
        self.centre = []
        self.vote = None
        self.reshuffled = False
        self.redeals = 0
        self.phase_ends_at = self.now + self.timing.sign_phase
        self._reschedule()
        events.append(ev.SignPhaseOpened(self.round))
        self._open_if_all_ready(events)

    def _waiting_for(self) -> list[int]:
        """R11: connected humans not yet ready."""
        return [i for i, s in enumerate(self.seats) if s.kind is HUMAN and s.connected and not s.ready]

    def _open_if_all_ready(self, events: list[ev.Event]) -> None:
        if self.phase is SIGN and not self._waiting_for():
            self._open_round(events)

    def _open_round(self, events: list[ev.Event]) -> None:
        for i, t in enumerate(self.teams):
            if t.sign is None:  # R12, never last round's sign (R10)
                t.sign = self.rng.choice(
                    _SIGNS_BUT[t.last_sign] if t.last_sign in _SIGNS_BUT else [s for s in SIGNS if s != t.last_sign]
                )
                t.random_sign = True
                events.append(ev.RandomSignGiven(i))
        self.phase = PLAY
        self.round_opened_at = self.now
        self.phase_ends_at = self.now + self.timing.round_length
        self._reschedule()
        self.result = None
        events.append(ev.RoundOpened(self.round, self.timing.round_length))
        self._deal(list(deck_for(self.seat_count)))  # the deck lists its cards in id order
        events.append(ev.Dealt(tuple(self.centre), self.redeals))

    def _deal(self, pile: list[Card]) -> None:
        """R5–R6: shuffle and deal until no hand holds three of a rank.

        ``pile`` is every card in id order (a fixed order, so the deal depends on the RNG alone); it is
        shuffled in place and dealt.
        """
        self.redeals = 0
        while True:
            self.rng.shuffle(pile)
            if not _a_hand_to_redeal([c.rank for c in pile], self.seat_count):
                break
            self.redeals += 1
        for i, s in enumerate(self.seats):
            s.hand = pile[i * HAND_SIZE : (i + 1) * HAND_SIZE]
        self.centre = pile[self.seat_count * HAND_SIZE :]
        assert len(self.centre) == CENTRE_SIZE

    def _end_round(
        self,
        end: RoundEnd,
        caller: int | None,
        target: int | None,
        correct: bool,
        scorers: tuple[int, ...],
        events: list[ev.Event],
    ) -> None:
        if self.vote is not None:
            self._end_vote(False, "round_over", events)
        for t in scorers:  # R34: points are only ever added
            self.teams[t].score += 1
        for s in self.seats:
            s.next_emission_at = None
        scores = self.scores()
        self.result = RoundResult(
            round=self.round,
            end=end,
            caller=caller,
            target=target,
            correct=correct,
            scorers=scorers,
            hands=tuple(tuple(s.hand) for s in self.seats),
            centre=tuple(self.centre),
            carres=tuple(i for i, s in enumerate(self.seats) if is_carre(s.hand)),
            signs=tuple(t.sign for t in self.teams),
            scores=scores,
        )
        events.append(ev.RoundEnded(self.result))
        best = max(scores)
        if best >= self.winning_score:  # R34–R35
            self.phase = OVER
            self.phase_ends_at = None
            self._reschedule()
            self.winners = tuple(i for i, t in enumerate(self.teams) if t.score == best)
            events.append(ev.GameOver(self.winners, scores))
        else:
            self.phase = PAUSE
            self.phase_ends_at = self.now + self.timing.pause_length
            self._reschedule()
            events.append(ev.PauseOpened(self.timing.pause_length))

    # --- refusals shared by handlers -----------------------------------------------
    #
    # A handler returns the Refusal of a command it refuses (``None`` when it carried the command
    # out), after its checks and before any change. Returned, not raised: a bot game meets about
    # 180 refusals (mostly R16's "card taken"), and raising and catching an exception costs several
    # times as much as building the refusal. The checks themselves are written inline in each
    # handler (e.g. ``if self.phase is not PLAY``); these helpers only build the refusal.

    def _wrong_phase(self, *phases: Phase) -> Refusal:
        return Refusal(Reason.WRONG_PHASE, _wrong_phase_text(self.phase, phases), {"phase": _PHASE_NAMES[self.phase]})

    def _not_seated_in(self, phase: Phase, seat: int) -> Refusal | None:
        """The checks every seat's action starts with: the game is in ``phase``, and someone holds ``seat``."""
        if self.phase is not phase:
            return self._wrong_phase(phase)
        return self._not_a_player(seat)

    def _not_a_player(self, seat: int) -> Refusal | None:
        """The refusal for a command from an empty seat, or ``None`` if someone holds ``seat``."""
        if self.seats[seat].kind is EMPTY:
            return Refusal(Reason.SEAT_EMPTY, f"seat {seat} is empty")
        return None

    def _not_a_human(self, seat: int) -> Refusal | None:
        """R30: the refusal for a request from an empty or bot seat, or ``None`` for a human's."""
        refusal = self._not_a_player(seat)
        if refusal is not None:
            return refusal
        if self.seats[seat].kind is not HUMAN:
            return Refusal(Reason.SEAT_NOT_HUMAN, "bots do not vote or ask for a reshuffle (R30)")
        return None

    def _waiting(self, reason: Reason, ready_at: float, what: str) -> Refusal | None:
        """The refusal of an action that must wait until ``ready_at``, or ``None`` if the wait is over."""
        # A nanosecond of slack: with scaled timings, 0.1 + 0.2 is 0.30000000000000004, and a
        # player (or bot) acting exactly when the wait ends must not be told "0.0 s left".
        if ready_at - self.now > _SLACK:
            left = round(ready_at - self.now, 3)
            # Tenths rounded *up* (never "0.0 s left" while still waiting); the inner round()
            # absorbs float noise such as 2.0 - 0.7 = 1.3000000000000003.
            shown = math.ceil(round(left * 10, 6)) / 10
            return Refusal(reason, f"{what}, {shown:.1f} s left", {"wait": left})
        return None

    # --- handlers: table ----------------------------------------------------------

    def _set_seat_count(self, c: SetSeatCount, events: list[ev.Event]) -> Refusal | None:
        if self.phase is not LOBBY:
            return self._wrong_phase(LOBBY)
        if c.seat_count not in SEAT_COUNTS:
            return Refusal(Reason.BAD_SEAT_COUNT, "a table has 4, 6 or 8 seats")
        kept = self.seats[: c.seat_count]
        self.seat_count = c.seat_count
        self.seats = kept + [SeatState() for _ in range(c.seat_count - len(kept))]
        self.teams = [TeamState() for _ in range(c.seat_count // 2)]
        self._reschedule()
        events.append(ev.SeatCountChanged(c.seat_count))
        return None

    def _sit(self, c: Sit, events: list[ev.Event]) -> Refusal | None:
        name = c.name.strip() if isinstance(c.name, str) else ""
        kind = SeatKind(c.kind)
        if kind is EMPTY:
            if self.phase is not LOBBY:  # R33: a seat in play keeps its hand and its place
                return self._wrong_phase(LOBBY)
            name = ""
        elif not 1 <= len(name) <= MAX_NAME_LENGTH or not name.isprintable():
            return Refusal(Reason.BAD_NAME, f"a name has 1 to {MAX_NAME_LENGTH} printable characters")
        s = self.seats[c.seat]
        # A seat that stays human keeps its connection state: renaming an absent player is not a
        # reconnection (R33; only SetConnected says a device came back, with its public event).
        if not (kind is HUMAN and s.kind is HUMAN):
            s.connected = kind is not EMPTY
        s.kind, s.name = kind, name
        s.ready = s.ready and kind is HUMAN
        events.append(ev.SeatChanged(c.seat, kind.value, name))
        if self.vote is not None and c.seat in self.vote.voters and kind is not HUMAN:
            self._drop_voter(c.seat, events)
        self._open_if_all_ready(events)
        return None

    def _set_connected(self, c: SetConnected, events: list[ev.Event]) -> Refusal | None:
        refusal = self._not_a_player(c.seat)
        if refusal is not None:
            return refusal
        s = self.seats[c.seat]
        if s.kind is BOT or s.connected == c.connected:
            return None
        s.connected = bool(c.connected)
        events.append(ev.ConnectionChanged(c.seat, s.connected))
        if not s.connected:
            if self.vote is not None and c.seat in self.vote.voters:  # R28: drops out of the vote
                self._drop_voter(c.seat, events)
            self._open_if_all_ready(events)  # R11: not waited for
        return None

    def _start_game(self, c: StartGame, events: list[ev.Event]) -> Refusal | None:
        if self.phase is not LOBBY:
            return self._wrong_phase(LOBBY)
        empty = [i for i, s in enumerate(self.seats) if s.kind is EMPTY]
        if empty:
            return Refusal(Reason.SEATS_NOT_FILLED, f"seats {empty} are empty", {"seats": empty})
        events.append(ev.GameStarted())
        self._open_sign_phase(events)
        return None

    def _start_next_round(self, c: StartNextRound, events: list[ev.Event]) -> Refusal | None:
        if self.phase is not PAUSE:
            return self._wrong_phase(PAUSE)
        self._open_sign_phase(events)
        return None

    def _new_game(self, c: NewGame, events: list[ev.Event]) -> Refusal | None:
        if self.phase is LOBBY:
            return self._wrong_phase(OVER, PAUSE, SIGN, PLAY)
        self.phase = LOBBY
        self.round = 0
        self.teams = [TeamState() for _ in range(self.team_count)]
        for s in self.seats:
            s.hand, s.ready, s.channel_held, s.channel_choice = [], False, False, None
            s.next_emission_at = s.last_emission_at = None
            s.last_emitted = None
            s.swap_ready_at = s.channel_ready_at = float("-inf")  # no cooldown carried into the lobby
        self.centre, self.vote, self.result, self.winners = [], None, None, ()
        self.phase_ends_at = self.round_opened_at = None
        self.last_vote_end = None
        self.reshuffled, self.redeals = False, 0  # the lobby's view shows no reshuffle of an old round
        self._reschedule()
        events.append(ev.BackToLobby())
        return None

    # --- handlers: the sign -------------------------------------------------------

    def _pick_sign(self, c: PickSign, events: list[ev.Event]) -> Refusal | None:
        refusal = self._not_seated_in(SIGN, c.seat)
        if refusal is not None:
            return refusal
        s = self.seats[c.seat]
        team = self.teams[self.team(c.seat)]
        if c.sign not in SIGNS:
            return Refusal(Reason.UNKNOWN_SIGN, "pick one of the 24 signs")
        if s.kind is BOT and self.seats[self.partner(c.seat)].kind is HUMAN:
            return Refusal(Reason.SIGN_LEFT_TO_PARTNER, "a bot leaves the sign to its human partner (R13)")
        if team.sign is not None:
            return Refusal(Reason.SIGN_ALREADY_FIXED, "your team's sign is already fixed")
        if c.sign == team.last_sign:
            return Refusal(Reason.SIGN_USED_LAST_ROUND, "that was your sign last round: pick another")
        team.sign = c.sign  # R9: never compared with another team's sign
        return None

    def _ready(self, c: Ready, events: list[ev.Event]) -> Refusal | None:
        refusal = self._not_seated_in(SIGN, c.seat)
        if refusal is not None:
            return refusal
        s = self.seats[c.seat]
        if s.ready:
            return Refusal(Reason.ALREADY_READY, "you are already ready")
        s.ready = True
        events.append(ev.PlayerReady(c.seat))
        self._open_if_all_ready(events)
        return None

    # --- handlers: exchanges ------------------------------------------------------

    def _swap(self, c: Swap, events: list[ev.Event]) -> Refusal | None:
        # Checks in the rules' order, all before any change.
        seat = c.seat
        refusal = self._not_seated_in(PLAY, seat)
        if refusal is not None:
            return refusal
        s = self.seats[seat]
        hand = s.hand
        card = c.card
        for mine, held in enumerate(hand):
            if held.id == card:
                break
        else:
            return Refusal(Reason.NOT_YOUR_CARD, "that card is not in your hand")
        place = c.place
        if not (type(place) is int and 0 <= place < CENTRE_SIZE):
            return Refusal(Reason.NO_SUCH_PLACE, f"the centre has places 0 to {CENTRE_SIZE - 1}")
        if s.swap_ready_at - self.now > _SLACK:  # R15 (see _waiting)
            return self._waiting(Reason.SWAP_COOLDOWN, s.swap_ready_at, "cooldown")
        centre = self.centre
        took = centre[place]
        if took.id != c.expected:  # R16: costs nothing
            return Refusal(Reason.CARD_TAKEN, "that card was just taken — try again", {"place": place})
        put = hand[mine]
        hand[mine], centre[place] = took, put
        s.swap_ready_at = self.now + self.timing.swap_cooldown
        events.append(ev.Swapped(seat, place, put, took))
        return None

    # --- handlers: the channel ----------------------------------------------------

    def _take_channel(self, c: TakeChannel, events: list[ev.Event]) -> Refusal | None:
        seat = c.seat
        refusal = self._not_seated_in(PLAY, seat)
        if refusal is not None:
            return refusal
        s = self.seats[seat]
        if s.channel_held:
            return Refusal(Reason.CHANNEL_ALREADY_HELD, "you already hold your channel")
        if s.channel_ready_at - self.now > _SLACK:  # R21
            return self._waiting(Reason.CHANNEL_COOLDOWN, s.channel_ready_at, "channel cooldown")
        s.channel_held = True
        s.channel_ready_at = self.now + self.timing.channel_cooldown
        events.append(ev.ChannelTaken(seat))
        return None

    def _release_channel(self, c: ReleaseChannel, events: list[ev.Event]) -> Refusal | None:
        seat = c.seat
        refusal = self._not_seated_in(PLAY, seat)
        if refusal is not None:
            return refusal
        s = self.seats[seat]
        if not s.channel_held:
            return Refusal(Reason.CHANNEL_NOT_HELD, "you do not hold your channel")
        if s.channel_ready_at - self.now > _SLACK:  # R21
            return self._waiting(Reason.CHANNEL_COOLDOWN, s.channel_ready_at, "channel cooldown")
        s.channel_held = False
        s.channel_choice = None  # R19
        if s.next_emission_at is not None:
            s.next_emission_at = None
            self._emission_moved(seat)
        # R19: a released channel shows nothing; without this a re-taken channel with no choice
        # would still show its old emoji on every screen. ``last_emission_at`` stays (R18's 5 s).
        s.last_emitted = None
        s.channel_ready_at = self.now + self.timing.channel_cooldown
        events.append(ev.ChannelReleased(seat))
        return None

    def _choose_emoji(self, c: ChooseEmoji, events: list[ev.Event]) -> Refusal | None:
        seat = c.seat
        refusal = self._not_seated_in(PLAY, seat)
        if refusal is not None:
            return refusal
        s = self.seats[seat]
        if c.emoji not in SIGNS:
            return Refusal(Reason.UNKNOWN_SIGN, "pick one of the 24 emojis")
        if not s.channel_held:
            return Refusal(Reason.CHANNEL_NOT_HELD, "take your channel first")
        s.channel_choice = c.emoji
        if s.next_emission_at is None:  # R18: at once, or at the next 5 s mark
            period = self.timing.emission_period
            if s.last_emission_at is None or self.now - s.last_emission_at >= period - _SLACK:
                s.next_emission_at = self.now
                self._emit(seat, events)
            else:
                s.next_emission_at = s.last_emission_at + period
                self._emission_moved(seat)
        return None

    # --- handlers: calls ----------------------------------------------------------

    def _call_quatro(self, c: CallQuatro, events: list[ev.Event]) -> Refusal | None:
        refusal = self._not_seated_in(PLAY, c.seat)
        if refusal is not None:
            return refusal
        if self.has_carre(c.seat) and not c.confirmed:  # R23
            return Refusal(
                Reason.CONFIRM_OWN_CARRE, "Quatro looks at your partner's hand, not yours: confirm to call anyway"
            )
        partner = self.partner(c.seat)
        mine = self.team(c.seat)
        correct = self.has_carre(partner)  # R22
        scorers = (mine,) if correct else tuple(t for t in range(self.team_count) if t != mine)
        self._end_round(RoundEnd.QUATRO, c.seat, partner, correct, scorers, events)
        return None

    def _call_contre(self, c: CallContre, events: list[ev.Event]) -> Refusal | None:
        refusal = self._not_seated_in(PLAY, c.seat)
        if refusal is not None:
            return refusal
        mine = self.team(c.seat)
        accused = c.team
        if accused is None and self.team_count == 2:
            accused = 1 - mine
        if not (_is_index(accused) and 0 <= accused < self.team_count and accused != mine):
            return Refusal(Reason.BAD_TEAM, "name an opposing team")
        correct = any(self.has_carre(s) for s in seats_of(accused, self.seat_count))  # R24
        self._end_round(RoundEnd.CONTRE, c.seat, accused, correct, (mine,) if correct else (accused,), events)
        return None

    # --- handlers: reshuffle ------------------------------------------------------

    def _request_reshuffle(self, c: RequestReshuffle, events: list[ev.Event]) -> Refusal | None:
        if self.phase is not PLAY:
            return self._wrong_phase(PLAY)
        refusal = self._not_a_human(c.seat)  # R30
        if refusal is not None:
            return refusal
        if self.reshuffled:
            return Refusal(Reason.RESHUFFLE_ALREADY_DONE, "this round was already reshuffled")
        if self.vote is not None:
            return Refusal(Reason.VOTE_RUNNING, "a vote is already running")
        if self.last_vote_end is not None:
            refusal = self._waiting(
                Reason.VOTE_TOO_SOON, self.last_vote_end + self.timing.vote_gap, "too soon after the last vote"
            )
            if refusal is not None:
                return refusal
        voters = [i for i, s in enumerate(self.seats) if i != c.seat and s.kind is HUMAN and s.connected]  # R28
        self.vote = Vote(c.seat, voters, [], self.now + self.timing.vote_length)
        self._reschedule()
        events.append(ev.VoteOpened(c.seat, tuple(voters), self.timing.vote_length))
        if not voters:
            self._end_vote(True, "accepted", events)
        return None

    def _answer_vote(self, c: AnswerVote, events: list[ev.Event]) -> Refusal | None:
        if self.phase is not PLAY:
            return self._wrong_phase(PLAY)
        vote = self.vote
        if vote is None:
            return Refusal(Reason.NO_VOTE, "no vote is running")
        if c.seat not in vote.voters:
            return Refusal(Reason.NOT_A_VOTER, "you do not vote on this one")
        if c.seat in vote.accepted:
            return Refusal(Reason.ALREADY_ANSWERED, "you already answered")
        events.append(ev.VoteAnswered(c.seat, bool(c.accept)))
        if not c.accept:
            self._end_vote(False, "refused", events)  # R28: one refusal ends it
            return None
        vote.accepted.append(c.seat)
        if set(vote.accepted) >= set(vote.voters):
            self._end_vote(True, "accepted", events)
        return None

    def _drop_voter(self, seat: int, events: list[ev.Event]) -> None:
        vote = self.vote
        assert vote is not None
        vote.voters.remove(seat)
        if seat in vote.accepted:
            vote.accepted.remove(seat)
        if set(vote.accepted) >= set(vote.voters):
            self._end_vote(True, "accepted", events)

    def _end_vote(self, passed: bool, why: str, events: list[ev.Event]) -> None:
        self.vote = None
        self._reschedule()
        self.last_vote_end = self.now
        events.append(ev.VoteEnded(passed, why))
        if passed:  # R27, R31: same signs, same clock, no point
            self.reshuffled = True
            self._deal(sorted(self.all_cards(), key=_card_id))  # back in id order: see _deal
            events.append(ev.Reshuffled(tuple(self.centre), self.redeals))


#: Command type → handler. A handler returns the command's Refusal, or ``None`` once it is carried out.
#: (A module global: :meth:`Game.apply` looks it up on every command.)
_HANDLERS: dict[type, Callable[[Game, Any, list[ev.Event]], Refusal | None]] = {
    SetSeatCount: Game._set_seat_count,
    Sit: Game._sit,
    SetConnected: Game._set_connected,
    StartGame: Game._start_game,
    StartNextRound: Game._start_next_round,
    NewGame: Game._new_game,
    PickSign: Game._pick_sign,
    Ready: Game._ready,
    Swap: Game._swap,
    TakeChannel: Game._take_channel,
    ReleaseChannel: Game._release_channel,
    ChooseEmoji: Game._choose_emoji,
    CallQuatro: Game._call_quatro,
    CallContre: Game._call_contre,
    RequestReshuffle: Game._request_reshuffle,
    AnswerVote: Game._answer_vote,
}
