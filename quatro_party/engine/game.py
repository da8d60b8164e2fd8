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
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable

from . import events as ev
from .cards import Card, deck_for, format_cards, is_carre, parse_cards
from .commands import (
    AnswerVote, CallContre, CallQuatro, ChooseEmoji, NewGame, PickSign, Ready, ReleaseChannel,
    RequestReshuffle, SeatKind, SetConnected, SetSeatCount, Sit, StartGame, StartNextRound, Swap, TakeChannel,
)
from .refusals import Reason, Refusal, Refused
from .rules import (
    CENTRE_SIZE, DEFAULT_TIMING, HAND_SIZE, REDEAL_THRESHOLD, SEAT_COUNTS, SIGNS, WINNING_SCORE, Timing,
    partner_of, seats_of, team_of,
)

#: Longest player name accepted (characters, after trimming).
MAX_NAME_LENGTH = 20


#: Float noise tolerated when a cooldown ends (seconds).
_SLACK = 1e-9


def _is_index(value: object) -> bool:
    """A seat, place or team number: a plain int, and not a bool (``True`` is not team 1)."""
    return type(value) is int


def _card_id(card: Card) -> int:
    return card.id


#: R6 — a rank held ``REDEAL_THRESHOLD`` times in a hand of ``HAND_SIZE`` must show up among
#: the hand's first ``HAND_SIZE - REDEAL_THRESHOLD + 1`` cards, so only those ranks need counting.
_SUSPECTS = HAND_SIZE - REDEAL_THRESHOLD + 1


def _too_many_of_a_rank(hand: list[Card]) -> bool:
    """R6: does this dealt hand hold ``REDEAL_THRESHOLD`` or more cards of one rank? (hot: every deal)"""
    ranks = [c.rank for c in hand]
    return any(ranks.count(r) >= REDEAL_THRESHOLD for r in ranks[:_SUSPECTS])


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
        found = self._earliest()
        return None if found is None else found[0]

    # --- driving the game ---------------------------------------------------------

    def tick(self, now: float) -> Outcome:
        """Let time pass up to ``now``: every deadline due is handled in time order."""
        return Outcome(tuple(self._advance(now)))

    def apply(self, command: Any, now: float) -> Outcome:
        """Carry out ``command`` at time ``now`` (after any deadline due by then).

        A refused command changes nothing: every check is made before any change.
        A ``now`` earlier than the game's clock counts as the game's clock (time never goes back).
        """
        handler: Callable[[Any, list[ev.Event]], None] | None = self._handlers.get(type(command))
        if handler is None:  # a caller's bug, not a player's mistake: raise before time moves
            raise TypeError(f"not a command: {command!r}")
        events = self._advance(now)
        try:
            seat = getattr(command, "seat", None)
            if seat is not None and not (type(seat) is int and 0 <= seat < self.seat_count):
                raise Refused(Reason.NO_SUCH_SEAT, f"there is no seat {seat!r} at this table")
            handler(self, command, events)
        except Refused as refused:
            return Outcome(tuple(events), refused.refusal)
        return Outcome(tuple(events)) if events else _NOTHING

    # --- time ---------------------------------------------------------------------

    def _earliest(self) -> tuple[float, int, int] | None:
        """The next thing due as ``(time, kind, seat)``: kind 0 an emission, 1 the vote's end, 2 the phase's end.

        Ties go to the lower kind, then the lower seat (hence the strict ``<`` below: the
        loop meets seats in order). Called on every command, so kept to plain comparisons.
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

    def _advance(self, now: float) -> list[ev.Event]:
        events: list[ev.Event] = []
        while True:
            due = self._earliest()
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
        return events

    def _emit(self, seat: int, events: list[ev.Event]) -> None:
        s = self.seats[seat]
        assert s.next_emission_at is not None and s.channel_choice is not None
        at = s.next_emission_at
        s.last_emission_at = at
        s.last_emitted = s.channel_choice
        s.next_emission_at = at + self.timing.emission_period
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
                t.sign = self.rng.choice([s for s in SIGNS if s != t.last_sign])
                t.random_sign = True
                events.append(ev.RandomSignGiven(i))
        self.phase = PLAY
        self.round_opened_at = self.now
        self.phase_ends_at = self.now + self.timing.round_length
        self.result = None
        events.append(ev.RoundOpened(self.round, self.timing.round_length))
        self._deal(deck_for(self.seat_count))
        events.append(ev.Dealt(tuple(self.centre), self.redeals))

    def _deal(self, cards: tuple[Card, ...] | list[Card]) -> None:
        """R5–R6: shuffle and deal until no hand holds three of a rank."""
        pile = sorted(cards, key=_card_id)  # a fixed order (ids are unique), so the deal depends on the RNG alone
        self.redeals = 0
        while True:
            self.rng.shuffle(pile)
            hands = [pile[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(self.seat_count)]
            if not any(_too_many_of_a_rank(h) for h in hands):
                break
            self.redeals += 1
        for s, hand in zip(self.seats, hands):
            s.hand = list(hand)
        self.centre = pile[self.seat_count * HAND_SIZE:]
        assert len(self.centre) == CENTRE_SIZE

    def _end_round(
        self, end: RoundEnd, caller: int | None, target: int | None, correct: bool,
        scorers: tuple[int, ...], events: list[ev.Event],
    ) -> None:
        if self.vote is not None:
            self._end_vote(False, "round_over", events)
        for t in scorers:  # R34: points are only ever added
            self.teams[t].score += 1
        for s in self.seats:
            s.next_emission_at = None
        self.result = RoundResult(
            round=self.round, end=end, caller=caller, target=target, correct=correct, scorers=scorers,
            hands=tuple(tuple(s.hand) for s in self.seats), centre=tuple(self.centre),
            carres=tuple(i for i, s in enumerate(self.seats) if is_carre(s.hand)),
            signs=tuple(t.sign for t in self.teams), scores=self.scores(),
        )
        events.append(ev.RoundEnded(self.result))
        best = max(self.scores())
        if best >= self.winning_score:  # R34–R35
            self.phase = OVER
            self.phase_ends_at = None
            self.winners = tuple(i for i, t in enumerate(self.teams) if t.score == best)
            events.append(ev.GameOver(self.winners, self.scores()))
        else:
            self.phase = PAUSE
            self.phase_ends_at = self.now + self.timing.pause_length
            events.append(ev.PauseOpened(self.timing.pause_length))

    # --- checks shared by handlers ------------------------------------------------

    def _need_phase(self, *phases: Phase) -> None:
        if self.phase not in phases:
            wanted = " or ".join(p.value for p in phases)
            raise Refused(Reason.WRONG_PHASE, f"not during the {self.phase.value} phase (only {wanted})",
                          phase=self.phase.value)

    def _need_player(self, seat: int) -> SeatState:
        s = self.seats[seat]
        if s.kind is EMPTY:
            raise Refused(Reason.SEAT_EMPTY, f"seat {seat} is empty")
        return s

    def _need_human(self, seat: int) -> SeatState:
        s = self._need_player(seat)
        if s.kind is not HUMAN:
            raise Refused(Reason.SEAT_NOT_HUMAN, "bots do not vote or ask for a reshuffle (R30)")
        return s

    def _wait(self, reason: Reason, ready_at: float, what: str) -> None:
        # A nanosecond of slack: with scaled timings, 0.1 + 0.2 is 0.30000000000000004, and a
        # player (or bot) acting exactly when the wait ends must not be told "0.0 s left".
        if ready_at - self.now > _SLACK:
            left = round(ready_at - self.now, 3)
            # Tenths rounded *up* (never "0.0 s left" while still waiting); the inner round()
            # absorbs float noise such as 2.0 - 0.7 = 1.3000000000000003.
            shown = math.ceil(round(left * 10, 6)) / 10
            raise Refused(reason, f"{what}, {shown:.1f} s left", wait=left)

    # --- handlers: table ----------------------------------------------------------

    def _set_seat_count(self, c: SetSeatCount, events: list[ev.Event]) -> None:
        self._need_phase(LOBBY)
        if c.seat_count not in SEAT_COUNTS:
            raise Refused(Reason.BAD_SEAT_COUNT, "a table has 4, 6 or 8 seats")
        kept = self.seats[: c.seat_count]
        self.seat_count = c.seat_count
        self.seats = kept + [SeatState() for _ in range(c.seat_count - len(kept))]
        self.teams = [TeamState() for _ in range(c.seat_count // 2)]
        events.append(ev.SeatCountChanged(c.seat_count))

    def _sit(self, c: Sit, events: list[ev.Event]) -> None:
        name = c.name.strip() if isinstance(c.name, str) else ""
        kind = SeatKind(c.kind)
        if kind is EMPTY:
            self._need_phase(LOBBY)  # R33: a seat in play keeps its hand and its place
            name = ""
        elif not 1 <= len(name) <= MAX_NAME_LENGTH or not name.isprintable():
            raise Refused(Reason.BAD_NAME, f"a name has 1 to {MAX_NAME_LENGTH} printable characters")
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

    def _set_connected(self, c: SetConnected, events: list[ev.Event]) -> None:
        s = self._need_player(c.seat)
        if s.kind is BOT or s.connected == c.connected:
            return
        s.connected = bool(c.connected)
        events.append(ev.ConnectionChanged(c.seat, s.connected))
        if not s.connected:
            if self.vote is not None and c.seat in self.vote.voters:  # R28: drops out of the vote
                self._drop_voter(c.seat, events)
            self._open_if_all_ready(events)  # R11: not waited for

    def _start_game(self, c: StartGame, events: list[ev.Event]) -> None:
        self._need_phase(LOBBY)
        empty = [i for i, s in enumerate(self.seats) if s.kind is EMPTY]
        if empty:
            raise Refused(Reason.SEATS_NOT_FILLED, f"seats {empty} are empty", seats=empty)
        events.append(ev.GameStarted())
        self._open_sign_phase(events)

    def _start_next_round(self, c: StartNextRound, events: list[ev.Event]) -> None:
        self._need_phase(PAUSE)
        self._open_sign_phase(events)

    def _new_game(self, c: NewGame, events: list[ev.Event]) -> None:
        self._need_phase(OVER, PAUSE, SIGN, PLAY)
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
        events.append(ev.BackToLobby())

    # --- handlers: the sign -------------------------------------------------------

    def _pick_sign(self, c: PickSign, events: list[ev.Event]) -> None:
        self._need_phase(SIGN)
        s = self._need_player(c.seat)
        team = self.teams[self.team(c.seat)]
        if c.sign not in SIGNS:
            raise Refused(Reason.UNKNOWN_SIGN, "pick one of the 24 signs")
        if s.kind is BOT and self.seats[self.partner(c.seat)].kind is HUMAN:
            raise Refused(Reason.SIGN_LEFT_TO_PARTNER, "a bot leaves the sign to its human partner (R13)")
        if team.sign is not None:
            raise Refused(Reason.SIGN_ALREADY_FIXED, "your team's sign is already fixed")
        if c.sign == team.last_sign:
            raise Refused(Reason.SIGN_USED_LAST_ROUND, "that was your sign last round: pick another")
        team.sign = c.sign  # R9: never compared with another team's sign

    def _ready(self, c: Ready, events: list[ev.Event]) -> None:
        self._need_phase(SIGN)
        s = self._need_player(c.seat)
        if s.ready:
            raise Refused(Reason.ALREADY_READY, "you are already ready")
        s.ready = True
        events.append(ev.PlayerReady(c.seat))
        self._open_if_all_ready(events)

    # --- handlers: exchanges ------------------------------------------------------

    def _swap(self, c: Swap, events: list[ev.Event]) -> None:
        self._need_phase(PLAY)
        s = self._need_player(c.seat)
        mine = next((i for i, card in enumerate(s.hand) if card.id == c.card), None)
        if mine is None:
            raise Refused(Reason.NOT_YOUR_CARD, "that card is not in your hand")
        if not (_is_index(c.place) and 0 <= c.place < CENTRE_SIZE):
            raise Refused(Reason.NO_SUCH_PLACE, f"the centre has places 0 to {CENTRE_SIZE - 1}")
        self._wait(Reason.SWAP_COOLDOWN, s.swap_ready_at, "cooldown")  # R15
        if self.centre[c.place].id != c.expected:  # R16: costs nothing
            raise Refused(Reason.CARD_TAKEN, "that card was just taken — try again", place=c.place)
        put, took = s.hand[mine], self.centre[c.place]
        s.hand[mine], self.centre[c.place] = took, put
        s.swap_ready_at = self.now + self.timing.swap_cooldown
        events.append(ev.Swapped(c.seat, c.place, put, took))

    # --- handlers: the channel ----------------------------------------------------

    def _take_channel(self, c: TakeChannel, events: list[ev.Event]) -> None:
        self._need_phase(PLAY)
        s = self._need_player(c.seat)
        if s.channel_held:
            raise Refused(Reason.CHANNEL_ALREADY_HELD, "you already hold your channel")
        self._wait(Reason.CHANNEL_COOLDOWN, s.channel_ready_at, "channel cooldown")  # R21
        s.channel_held = True
        s.channel_ready_at = self.now + self.timing.channel_cooldown
        events.append(ev.ChannelTaken(c.seat))

    def _release_channel(self, c: ReleaseChannel, events: list[ev.Event]) -> None:
        self._need_phase(PLAY)
        s = self._need_player(c.seat)
        if not s.channel_held:
            raise Refused(Reason.CHANNEL_NOT_HELD, "you do not hold your channel")
        self._wait(Reason.CHANNEL_COOLDOWN, s.channel_ready_at, "channel cooldown")  # R21
        s.channel_held = False
        s.channel_choice = None  # R19
        s.next_emission_at = None
        # R19: a released channel shows nothing; without this a re-taken channel with no choice
        # would still show its old emoji on every screen. ``last_emission_at`` stays (R18's 5 s).
        s.last_emitted = None
        s.channel_ready_at = self.now + self.timing.channel_cooldown
        events.append(ev.ChannelReleased(c.seat))

    def _choose_emoji(self, c: ChooseEmoji, events: list[ev.Event]) -> None:
        self._need_phase(PLAY)
        s = self._need_player(c.seat)
        if c.emoji not in SIGNS:
            raise Refused(Reason.UNKNOWN_SIGN, "pick one of the 24 emojis")
        if not s.channel_held:
            raise Refused(Reason.CHANNEL_NOT_HELD, "take your channel first")
        s.channel_choice = c.emoji
        if s.next_emission_at is None:  # R18: at once, or at the next 5 s mark
            period = self.timing.emission_period
            if s.last_emission_at is None or self.now - s.last_emission_at >= period - _SLACK:
                s.next_emission_at = self.now
                self._emit(c.seat, events)
            else:
                s.next_emission_at = s.last_emission_at + period

    # --- handlers: calls ----------------------------------------------------------

    def _call_quatro(self, c: CallQuatro, events: list[ev.Event]) -> None:
        self._need_phase(PLAY)
        self._need_player(c.seat)
        if self.has_carre(c.seat) and not c.confirmed:  # R23
            raise Refused(Reason.CONFIRM_OWN_CARRE,
                          "Quatro looks at your partner's hand, not yours: confirm to call anyway")
        partner = self.partner(c.seat)
        mine = self.team(c.seat)
        correct = self.has_carre(partner)  # R22
        scorers = (mine,) if correct else tuple(t for t in range(self.team_count) if t != mine)
        self._end_round(RoundEnd.QUATRO, c.seat, partner, correct, scorers, events)

    def _call_contre(self, c: CallContre, events: list[ev.Event]) -> None:
        self._need_phase(PLAY)
        self._need_player(c.seat)
        mine = self.team(c.seat)
        accused = c.team
        if accused is None and self.team_count == 2:
            accused = 1 - mine
        if not (_is_index(accused) and 0 <= accused < self.team_count and accused != mine):
            raise Refused(Reason.BAD_TEAM, "name an opposing team")
        correct = any(self.has_carre(s) for s in seats_of(accused, self.seat_count))  # R24
        self._end_round(RoundEnd.CONTRE, c.seat, accused, correct, (mine,) if correct else (accused,), events)

    # --- handlers: reshuffle ------------------------------------------------------

    def _request_reshuffle(self, c: RequestReshuffle, events: list[ev.Event]) -> None:
        self._need_phase(PLAY)
        self._need_human(c.seat)  # R30
        if self.reshuffled:
            raise Refused(Reason.RESHUFFLE_ALREADY_DONE, "this round was already reshuffled")
        if self.vote is not None:
            raise Refused(Reason.VOTE_RUNNING, "a vote is already running")
        if self.last_vote_end is not None:
            self._wait(Reason.VOTE_TOO_SOON, self.last_vote_end + self.timing.vote_gap, "too soon after the last vote")
        voters = [i for i, s in enumerate(self.seats)
                  if i != c.seat and s.kind is HUMAN and s.connected]  # R28
        self.vote = Vote(c.seat, voters, [], self.now + self.timing.vote_length)
        events.append(ev.VoteOpened(c.seat, tuple(voters), self.timing.vote_length))
        if not voters:
            self._end_vote(True, "accepted", events)

    def _answer_vote(self, c: AnswerVote, events: list[ev.Event]) -> None:
        self._need_phase(PLAY)
        vote = self.vote
        if vote is None:
            raise Refused(Reason.NO_VOTE, "no vote is running")
        if c.seat not in vote.voters:
            raise Refused(Reason.NOT_A_VOTER, "you do not vote on this one")
        if c.seat in vote.accepted:
            raise Refused(Reason.ALREADY_ANSWERED, "you already answered")
        events.append(ev.VoteAnswered(c.seat, bool(c.accept)))
        if not c.accept:
            self._end_vote(False, "refused", events)  # R28: one refusal ends it
            return
        vote.accepted.append(c.seat)
        if set(vote.accepted) >= set(vote.voters):
            self._end_vote(True, "accepted", events)

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
        self.last_vote_end = self.now
        events.append(ev.VoteEnded(passed, why))
        if passed:  # R27, R31: same signs, same clock, no point
            self.reshuffled = True
            self._deal(self.all_cards())
            events.append(ev.Reshuffled(tuple(self.centre), self.redeals))

    _handlers: dict[type, Callable[..., None]] = {
        SetSeatCount: _set_seat_count, Sit: _sit, SetConnected: _set_connected, StartGame: _start_game,
        StartNextRound: _start_next_round, NewGame: _new_game, PickSign: _pick_sign, Ready: _ready,
        Swap: _swap, TakeChannel: _take_channel, ReleaseChannel: _release_channel, ChooseEmoji: _choose_emoji,
        CallQuatro: _call_quatro, CallContre: _call_contre, RequestReshuffle: _request_reshuffle,
        AnswerVote: _answer_vote,
    }
