"""The game of Quatro as a pure state machine (R1–R35): the theory of operation.

**Commands in, events out.** A :class:`Game` changes only through :meth:`Game.apply` (a command
from :mod:`.commands`: a player's action or the host's) and :meth:`Game.tick` (time passing). Both
return an :class:`Outcome`: the public events that happened (:mod:`.events`, R36), and for a command
that was refused, its :class:`~.refusals.Refusal`. What each viewer may see of the state is built by
:mod:`.views`, never read off the game by a client.

**No clock, no threads, no global randomness.** The caller passes ``now`` (seconds, any monotonic
origin) to every call and gives the game its own :class:`random.Random`: the same seed and the same
calls give the same game, event for event.

**Phases.** A game moves through five phases (:class:`~.state.Phase`)::

    lobby ──StartGame / StartPractice──▶ sign ──all ready, or its time is up (R11)──▶ play
      ▲                                   ▲                                           │
      │                                   └────── pause ◀── a call (R26), or 3 minutes ┘
      │                                             │        of play (R32)
      └── NewGame (from any other) ◀── over ◀───────┘ a team reached the winning score (R34),
                                        or the host's EndGame; after a practice round the
                                        pause leads back to the lobby.

Which commands each phase accepts is one table, :data:`ADMISSION` (see :func:`accepted_in`); a
command sent in another phase is refused ``wrong_phase`` before its handler runs. The phase changes
in one place, :meth:`Game._enter`, which also sets the phase's deadline. The handlers live with their
rules: :mod:`.host` (seats, games, house rules, pause), :mod:`.rounds` (the sign phase, the round's
end), :mod:`.deal`, :mod:`.exchanges` (swaps, channels), :mod:`.calls` and :mod:`.votes`.

**Deadlines.** Everything timed is a deadline on the game's clock: the end of the sign phase (R11),
of the round (R32) and of the pause between rounds, each seat's next emission (R18), the end of a
vote (R28). Cooldowns (R15, R21, R29) are times before which an action is refused; they need no
deadline. :meth:`Game.next_deadline` says when the next one falls due, and the caller calls
:meth:`Game.tick` then; :meth:`Game.apply` first handles whatever fell due before its ``now``, in
time order (R25: what was due before a call happens before it).

**Pause.** The game's clock (:attr:`Game.now`) is the caller's clock minus the time spent paused
(:attr:`Game.lag`). While :attr:`Game.paused` is set the game's clock stands still: every deadline
and cooldown keeps its remaining time, nothing falls due, and commands that need running time are
refused ``paused``. Paused time never counts toward R32's three minutes. A player who leaves during a
pause is not dropped from a vote (R28) nor stops being waited for (R11) until the pause lifts: then the
usual rules apply to whoever is still away. That is also how a restarted host rebuilds its table without
applying a rule to the restart itself: it replays its journal, holds the game with ``Pause(by="restart")``
while every phone is away, and resumes once they are back (or its grace period is over).

**The record.** Every public fact of a round (channel takes and releases, emissions, swaps, a carré
forming, the call) is kept with its time in :attr:`Game.record`; it is revealed as the round's story
only once the round has ended (R39), and the ended rounds make the game's recap and awards (:mod:`.story`).

**Refusals are returned, not raised.** A refused command is a normal part of play: a bot game meets
about 180 of them (mostly R16's "card taken"), a phone shows each one to its player, and building a
refusal costs a fraction of raising and catching an exception. Every check is made before any change,
so a refused command changes nothing. Only a caller's bug (an object that is not a command) raises.

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

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import calls, exchanges, host, rounds, votes
from . import commands as c
from . import events as ev
from .cards import Card, format_cards, is_carre, parse_position
from .commands import SeatKind
from .refusals import Reason, Refusal, waiting, wrong_phase
from .rules import (
    DEFAULT_TIMING,
    MAX_NAME_LENGTH,
    SEAT_COUNTS,
    SEAT_COUNTS_TEXT,
    WINNING_SCORE,
    Timing,
    partner_of,
    team_count,
    team_of,
)
from .state import SLACK, Moment, Outcome, Paused, Phase, RoundEnd, RoundResult, SeatState, TeamState, Vote

__all__ = ["ADMISSION", "MAX_NAME_LENGTH", "Game", "Outcome", "Phase", "RoundEnd", "RoundResult", "SeatState"]
__all__ += ["TeamState", "Vote", "accepted_in"]

#: A rule's handler: carries out the command and returns ``None``, or returns its Refusal having changed nothing.
Handler = Callable[["Game", Any, list[ev.Event]], Refusal | None]


@dataclass(frozen=True)
class Admission:
    """When a command is accepted: in ``phases``; while paused only if ``while_paused``; and for a seat
    command marked ``seated``, only from a seat somebody holds. ``handler`` then applies the rules."""

    handler: Handler
    phases: tuple[Phase, ...]
    while_paused: bool = False
    seated: bool = False


_ANY = tuple(Phase)
_IN_GAME = (Phase.SIGN, Phase.PLAY, Phase.PAUSE)
_BETWEEN_GAMES = (Phase.LOBBY, Phase.OVER)

#: Which commands each phase accepts, and the handler that applies each one's rules.
ADMISSION: dict[type, Admission] = {
    # the host and the server
    c.SetSeatCount: Admission(host.set_seat_count, _BETWEEN_GAMES),
    c.Settings: Admission(host.settings, _BETWEEN_GAMES),
    c.Sit: Admission(host.sit, _ANY, while_paused=True),
    c.SetConnected: Admission(host.set_connected, _ANY, while_paused=True, seated=True),
    c.StartGame: Admission(host.start_game, (Phase.LOBBY,)),
    c.StartPractice: Admission(host.start_practice, (Phase.LOBBY,)),
    c.StartNextRound: Admission(rounds.start_next_round, (Phase.PAUSE,)),
    c.Pause: Admission(host.pause, _IN_GAME),
    c.Resume: Admission(host.resume, _IN_GAME, while_paused=True),
    c.EndGame: Admission(host.end_game, _IN_GAME, while_paused=True),
    c.NewGame: Admission(host.new_game, (Phase.OVER, Phase.PAUSE, Phase.SIGN, Phase.PLAY), while_paused=True),
    # the sign (R8–R13)
    c.PickSign: Admission(rounds.pick_sign, (Phase.SIGN,), seated=True),
    c.Ready: Admission(rounds.ready, (Phase.SIGN,), seated=True),
    # play (R14–R31)
    c.Swap: Admission(exchanges.swap, (Phase.PLAY,), seated=True),
    c.TakeChannel: Admission(exchanges.take_channel, (Phase.PLAY,), seated=True),
    c.ReleaseChannel: Admission(exchanges.release_channel, (Phase.PLAY,), seated=True),
    c.ChooseEmoji: Admission(exchanges.choose_emoji, (Phase.PLAY,), seated=True),
    c.CallQuatro: Admission(calls.call_quatro, (Phase.PLAY,), seated=True),
    c.CallContre: Admission(calls.call_contre, (Phase.PLAY,), seated=True),
    c.RequestReshuffle: Admission(votes.request_reshuffle, (Phase.PLAY,), seated=True),
    c.AnswerVote: Admission(votes.answer_vote, (Phase.PLAY,)),
}


def accepted_in(phase: Phase) -> list[str]:
    """The names of the commands ``phase`` accepts (from :data:`ADMISSION`).

    >>> accepted_in(Phase.SIGN)
    ['Sit', 'SetConnected', 'Pause', 'Resume', 'EndGame', 'NewGame', 'PickSign', 'Ready']
    >>> accepted_in(Phase.OVER)
    ['SetSeatCount', 'Settings', 'Sit', 'SetConnected', 'NewGame']
    """
    return [command.__name__ for command, admission in ADMISSION.items() if phase in admission.phases]


#: The outcome of an accepted command that changed nothing public (shared: an Outcome is frozen).
_NOTHING = Outcome()


class Game:
    """One table's game, from the lobby to the winners.

    ``rng`` is the only source of randomness; ``timing`` holds the rules' durations (a host's time
    scale included); ``winning_score`` and ``timer_factor`` are house rules (see :class:`~.commands.Settings`).
    The state changes through :meth:`apply` and :meth:`tick` only (tests may lay out cards with
    :meth:`set_position`). Times held in the state are on the game's clock (:attr:`now`).
    """

    def __init__(
        self,
        seat_count: int = 4,
        *,
        rng: random.Random,
        timing: Timing = DEFAULT_TIMING,
        winning_score: int = WINNING_SCORE,
        timer_factor: float = 1.0,
    ) -> None:
        if seat_count not in SEAT_COUNTS:
            raise ValueError(f"a table has {SEAT_COUNTS_TEXT} seats, not {seat_count!r}")
        self.rng = rng
        self.base_timing = timing  # before the house rule's factor
        self.timer_factor = timer_factor
        self.timing = timing
        self._pace(timer_factor)
        self.winning_score = winning_score
        self.seat_count = seat_count
        self.phase = Phase.LOBBY
        self.practice = False  # this round is a practice round (it scores nothing)
        self.round = 0
        self.now = float("-inf")  # the game's clock: the caller's, less the time spent paused
        self.lag = 0.0  # the caller's clock minus the game's: the seconds spent paused so far
        self.paused: Paused | None = None
        self.seats: list[SeatState] = [SeatState() for _ in range(seat_count)]
        self.teams: list[TeamState] = [TeamState() for _ in range(team_count(seat_count))]
        self.centre: list[Card] = []
        self.phase_ends_at: float | None = None  # sign deadline, round end or pause end
        self.round_opened_at: float | None = None
        self.vote: Vote | None = None
        self.last_vote_end: float | None = None
        self.reshuffled: bool = False  # R29: this round
        self.redeals: int = 0  # R6: deals thrown back for the current hands
        self.record: list[Moment] = []  # the running round's public facts (revealed as its story: R39)
        self.result: RoundResult | None = None
        self.results: list[RoundResult] = []  # this game's ended rounds, for the recap and the awards
        self.winners: tuple[int, ...] = ()
        self.ended_by: str | None = None  # at game over: "score" (R34) or "host" (the host ended it)
        # The caller's time of the command being applied (a Resume needs it: the game's clock stood still).
        self._called_at = float("-inf")
        # The next thing due, always equal to ``_earliest()``, kept up to date by every change of the
        # phase, its end, the vote or an emission: every command asks "is anything due?", and working it
        # out means a look at every seat (recomputing it on every call cost 6 % of bench/engine.py: 542 against
        # 578 games/s, side by side).
        self._due: tuple[float, int, int] | None = None

    # --- reading the state --------------------------------------------------------

    @property
    def team_count(self) -> int:
        """R2: the number of teams."""
        return team_count(self.seat_count)

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
        """Every team's score, by team."""
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

        ``text`` reads ``"AAAK QQJJ KKTT JJAT | KQT9"`` (see :func:`~.cards.parse_position`). R6 is
        *not* applied (a scenario may need a carré). Only during play; raises ``ValueError`` for
        anything else. Nothing else changes (cooldowns, channels, clock, votes).

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
        if self.phase is not Phase.PLAY:
            raise ValueError("a position can only be set while a round is in play")
        hands, self.centre = parse_position(text, self.seat_count)
        for s, hand in zip(self.seats, hands):
            s.hand = hand

    def next_deadline(self) -> float | None:
        """The earliest time (on the caller's clock) at which :meth:`tick` has something to do, or ``None``.

        ``None`` while paused: nothing falls due until :class:`~.commands.Resume`.
        """
        due = self._due
        return None if due is None or self.paused is not None else due[0] + self.lag

    def clock_at(self, now: float) -> float:
        """The game's clock at the caller's time ``now``: what remaining times are counted from.

        While paused it stands where the pause began, so every remaining time shows as it stood.
        """
        return self.now if self.paused is not None else now - self.lag

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-able data, RNG included (see :mod:`.snapshot`): a host may keep it in
        place of the journal's calls so far, typically at a round's end."""
        from .snapshot import snapshot  # the snapshot module builds Games: imported at the call

        return snapshot(self)

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> Game:
        """The game a :meth:`snapshot` describes; it continues exactly as the original would.
        Raises ``ValueError`` for data that is not a snapshot."""
        from .snapshot import restore

        return restore(data)

    # --- driving the game ---------------------------------------------------------

    def tick(self, now: float) -> Outcome:
        """Let time pass up to ``now``: every deadline due is handled in time order."""
        events: list[ev.Event] = []
        if self.paused is None:
            self._advance(now, events)
        return Outcome(tuple(events)) if events else _NOTHING

    def apply(self, command: Any, now: float) -> Outcome:
        """Carry out ``command`` at time ``now`` (after any deadline due by then).

        A refused command changes nothing: every check is made before any change.
        A ``now`` earlier than the game's clock counts as the game's clock (time never goes back).
        """
        admission = ADMISSION.get(type(command))
        if admission is None:  # a caller's bug, not a player's mistake: raise before time moves
            raise TypeError(f"not a command: {command!r}")
        events: list[ev.Event] = []
        self._called_at = now
        if self.paused is None:
            due = self._due
            if due is not None and due[0] + self.lag <= now:
                self._advance(now, events)
            elif now - self.lag > self.now:  # nothing due: only the clock moves
                self.now = now - self.lag
        refusal = self._admit(command, admission)
        if refusal is None:
            refusal = admission.handler(self, command, events)
        if refusal is not None:
            return Outcome(tuple(events), refusal)
        return Outcome(tuple(events)) if events else _NOTHING

    def _admit(self, command: Any, admission: Admission) -> Refusal | None:
        """The checks :data:`ADMISSION` makes before any handler: the seat, the phase, the pause."""
        seat = getattr(command, "seat", None)
        if seat is not None and not (type(seat) is int and 0 <= seat < self.seat_count):
            return Refusal(Reason.NO_SUCH_SEAT, f"there is no seat {seat!r} at this table")
        if self.phase not in admission.phases:
            return self._wrong_phase(*admission.phases)
        if self.paused is not None and not admission.while_paused:
            return Refusal(Reason.PAUSED, f"the game is paused by the {self.paused.by}", {"by": self.paused.by})
        if admission.seated and seat is not None and self.seats[seat].kind is SeatKind.EMPTY:
            return Refusal(Reason.SEAT_EMPTY, f"seat {seat} is empty")
        return None

    # --- phases and time ----------------------------------------------------------

    def _enter(self, phase: Phase, length: float | None = None) -> None:
        """The one place the phase changes; its deadline falls ``length`` seconds of play from now.

        Leaving the game (lobby, over) lifts a pause.
        """
        if phase in _BETWEEN_GAMES and self.paused is not None:
            self._lift_pause()
        self.phase = phase
        self.phase_ends_at = None if length is None else self.now + length
        self._reschedule()

    def _pace(self, factor: float) -> None:
        """The durations in force: the rules' (with the host's time scale) × ``factor``."""
        self.timing = self.base_timing if factor == 1 else self.base_timing.scaled(factor)

    def _lift_pause(self) -> None:
        """The game's clock runs again: the time spent paused joins :attr:`lag`."""
        assert self.paused is not None
        self.lag += max(0.0, self._called_at - self.paused.since)
        self.paused = None

    def _earliest(self) -> tuple[float, int, int] | None:
        """The next thing due as ``(time, kind, seat)``: kind 0 an emission, 1 the vote's end, 2 the phase's end.

        Ties go to the lower kind, then the lower seat (hence the strict ``<``: the loop meets
        seats in order), so the answer is the smallest such tuple — which :meth:`_emission_moved`
        relies on. Only called when ``_due`` must be worked out again.
        """
        best: tuple[float, int, int] | None = None
        if self.phase is Phase.PLAY:
            for i, s in enumerate(self.seats):
                at = s.next_emission_at
                if at is not None and (best is None or at < best[0]):
                    best = (at, 0, i)
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

        If this seat's emission was not the next thing due, the next thing due is the sooner of the
        old one and the new emission (tuples compare as ``_earliest`` breaks ties): no look at the others.
        """
        due = self._due
        if due is not None and due[1] == 0 and due[2] == seat:
            self._due = self._earliest()
            return
        at = self.seats[seat].next_emission_at
        if at is not None and self.phase is Phase.PLAY and (due is None or (at, 0, seat) < due):
            self._due = (at, 0, seat)

    def _advance(self, now: float, events: list[ev.Event]) -> None:
        """Handle every deadline due by the caller's ``now``, in time order; then the clock reads ``now``."""
        lag = self.lag
        while True:
            due = self._due
            if due is None or due[0] + lag > now:
                break
            at, kind, seat = due
            if at > self.now:
                self.now = at
            if kind == 0:
                exchanges.emit(self, seat, events)
            elif kind == 1:
                votes.end_vote(self, False, "silence", events)
            else:
                rounds.time_up(self, events)
        if now - lag > self.now:
            self.now = now - lag

    # --- refusals shared by handlers ------------------------------------------------

    def _wrong_phase(self, *phases: Phase) -> Refusal:
        return wrong_phase(self.phase.value, [p.value for p in phases])

    def _waiting(self, reason: Reason, ready_at: float, what: str) -> Refusal | None:
        """The refusal of an action that must wait until ``ready_at``, or ``None`` if the wait is over."""
        return waiting(reason, ready_at - self.now, what) if ready_at - self.now > SLACK else None

    def _moment(
        self,
        seat: int,
        kind: str,
        emoji: str | None = None,
        sign: bool | None = None,
        call: str | None = None,
        team: int | None = None,
        correct: bool | None = None,
    ) -> None:
        """Add a public fact to the running round's record, at the seconds of play since it opened."""
        opened = self.round_opened_at if self.round_opened_at is not None else self.now
        self.record.append(Moment(round(self.now - opened, 3), seat, kind, emoji, sign, call, team, correct))
