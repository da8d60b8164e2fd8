"""Random play: a seeded driver that plays whole games of legal and illegal actions.

The simulation tests, the property tests and ``bench/engine.py`` all use it. It is
as pure as the engine: its choices come from its own :class:`random.Random` (or one
a caller passes in, such as hypothesis's ``st.randoms()``), and its clock is a plain
float it moves forward itself. Same seeds, same game, event for event.

The driver plays like a noisy table: humans and bots swap (often with a stale
expected card), fiddle with their channels, ask for reshuffles and answer votes,
drop off the Wi-Fi and come back, get renamed, and send a steady trickle of
nonsense (wrong phase, not their card, unknown emojis, bad seats…), which the
engine must refuse without changing anything. Callers call "often enough" — and
correctly when a carré is on the table — so games end in a handful of rounds.

>>> play = play_random_game(1, 4)
>>> play.game.phase.value, max(play.game.scores()) >= 5
('over', True)
>>> play_random_game(1, 4).events == play.events   # replaying a seed gives the same game
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import commands as c
from .commands import SeatKind
from .events import Event
from .game import Game, Outcome
from .rules import CENTRE_SIZE, DEFAULT_TIMING, SIGNS, Timing
from .state import Phase

#: What :meth:`RandomPlay.play` calls after every step: ``observer(play, command, outcome)``
#: (``command`` is ``None`` for a plain :meth:`Game.tick`).
Observer = Callable[["RandomPlay", Any, Outcome], None]


class RandomPlay:
    """One table played by a random driver.

    ``seed`` seeds the game's own RNG (the deal, random signs); ``driver`` makes the
    players' choices (a fresh ``random.Random`` derived from ``seed`` by default).
    ``humans`` is the share of human seats (drawn per game when ``None``; at least
    one seat is always human then, so votes and readiness are exercised).
    ``call_rate`` is the chance per playing step that somebody calls.
    """

    def __init__(
        self,
        seed: int,
        seat_count: int = 8,
        *,
        driver: random.Random | None = None,
        humans: float | None = None,
        call_rate: float = 0.05,
        timing: Timing = DEFAULT_TIMING,
        record: bool = True,
    ) -> None:
        self.seed = seed
        self.rnd = driver if driver is not None else random.Random(seed * 1_000_003 + seat_count)
        self.game = Game(seat_count, rng=random.Random(seed), timing=timing)
        self.humans = humans
        self.call_rate = call_rate
        self.now = 0.0
        self.steps = 0
        self.refusals = 0
        self.record = record
        self.events: list[Event] = []  # every public event, in order (when ``record``)
        self.commands: list[tuple[float, Any]] = []  # every command sent, with its time (when ``record``)

    # --- running ------------------------------------------------------------------

    def send(self, command: Any) -> Outcome:
        """Apply one command at the driver's clock and keep the record."""
        out = self.game.apply(command, self.now)
        self.steps += 1
        if out.refusal is not None:
            self.refusals += 1
        if self.record:
            self.commands.append((self.now, command))
            self.events.extend(out.events)
        return out

    def tick(self) -> Outcome:
        out = self.game.tick(self.now)
        if self.record:
            self.events.extend(out.events)
        return out

    def setup(self) -> None:
        """The lobby: maybe a change of table size, seats filled with humans and bots, the game started."""
        rnd, game = self.rnd, self.game
        share = self.humans
        if share is None:
            share = rnd.choice((0.0, 0.25, 0.5, 1.0))
        if rnd.random() < 0.2:  # the host tries other sizes first (5 is refused, R1), then comes back
            size = game.seat_count
            self.send(c.SetSeatCount(rnd.choice((4, 6, 8))))
            self.send(c.Sit(0, SeatKind.BOT, "Early bird"))
            self.send(c.SetSeatCount(5))
            self.send(c.SetSeatCount(size))
        kinds = [SeatKind.HUMAN if rnd.random() < share else SeatKind.BOT for _ in range(len(game.seats))]
        if self.humans is None and SeatKind.HUMAN not in kinds:
            kinds[rnd.randrange(len(kinds))] = SeatKind.HUMAN
        self.send(c.StartGame())  # refused while seats are empty, unless the seats were kept
        for seat, kind in enumerate(kinds):
            self.send(c.Sit(seat, kind, f"{kind.value.title()} {seat}"))
        self.send(c.StartGame())

    def play(self, max_steps: int = 1_000_000, observer: Observer | None = None) -> RandomPlay:
        """Set up (if not yet) and play until the game is over or ``max_steps`` commands were sent."""
        if self.game.phase is Phase.LOBBY and self.steps == 0:
            self.setup()
        while self.game.phase is not Phase.OVER and self.steps < max_steps:
            command, out = self.step()
            if observer is not None:
                observer(self, command, out)
        return self

    def step(self) -> tuple[Any, Outcome]:
        """Let a little time pass, then send one command (or only tick). Returns both."""
        command = self.next_command()
        if command is None:
            return None, self.tick()
        return command, self.send(command)

    def next_command(self) -> Any:
        """Move the driver's clock on a little and choose the next command (``None``: only tick).

        Nothing is sent: :meth:`step` does that. Tests use this to look at the game just before.
        """
        rnd, game = self.rnd, self.game
        roll = rnd.random()
        if roll < 0.03:  # time jumps to the next deadline (sign timeout, emission, vote, pause end)…
            deadline = game.next_deadline()
            # …but seldom to the void end of a round (R32), or most rounds would be void.
            phase_end = None if game.phase_ends_at is None else game.phase_ends_at + game.lag
            if deadline is not None and (deadline != phase_end or game.phase is not Phase.PLAY or rnd.random() < 0.1):
                self.now = max(self.now, deadline)
        elif roll < 0.035:
            self.now += rnd.uniform(5.0, 40.0)
        else:
            self.now += rnd.random() * 0.8
        if rnd.random() < 0.05:
            return None
        phase = game.phase
        if game.paused is not None:  # the host resumes soon; meanwhile the table keeps trying (refused: paused)
            return c.Resume() if rnd.random() < 0.2 else self._play_command() if phase is Phase.PLAY else self._people()
        if rnd.random() < 0.002 and phase in (Phase.SIGN, Phase.PLAY, Phase.PAUSE):
            return c.Pause()
        if phase is Phase.PLAY:
            return self._play_command()
        if phase is Phase.SIGN:
            return self._sign_command()
        if phase is Phase.PAUSE:
            return self._pause_command()
        if phase is Phase.LOBBY:  # after a NewGame
            return c.StartGame()
        return self._nonsense()

    # --- choices --------------------------------------------------------------------
    # ``int(random() * n)`` rather than ``randrange``/``choice``: several times cheaper, and the
    # driver's own cost is part of what bench/engine.py measures.

    def _below(self, n: int) -> int:
        return int(self.rnd.random() * n)

    def _pick(self, options: Any) -> Any:
        return options[int(self.rnd.random() * len(options))]

    def _actor(self) -> int:
        """A seat that may act: a bot, or a connected human (a phone that left sends nothing)."""
        seats = self.game.seats
        for _ in range(4):
            seat = self._below(len(seats))
            s = seats[seat]
            if s.connected or s.kind is SeatKind.BOT:
                return seat
        return seat

    def _human(self) -> int | None:
        humans = [i for i, s in enumerate(self.game.seats) if s.kind is SeatKind.HUMAN]
        return self._pick(humans) if humans else None

    def _sign_command(self) -> Any:
        rnd, game = self.rnd, self.game
        r = rnd.random()
        seat = self._actor()
        if r < 0.35:
            return c.PickSign(seat, self._pick(SIGNS))
        if r < 0.8:
            waiting = [i for i, s in enumerate(game.seats) if s.kind is SeatKind.HUMAN and s.connected and not s.ready]
            return c.Ready(self._pick(waiting) if waiting else seat)
        if r < 0.9:
            return self._people()
        return self._nonsense()

    def _pause_command(self) -> Any:
        r = self.rnd.random()
        if r < 0.45:
            return c.StartNextRound()
        if r < 0.452:
            return c.NewGame()  # the host starts over: back to the lobby, scores at zero
        if r < 0.8:
            return self._people()
        return self._nonsense()

    def _people(self) -> Any:
        """Phones dropping and coming back (R33), the host renaming or swapping a bot for a human (R3)."""
        rnd, game = self.rnd, self.game
        seat = self._human()
        if seat is not None and rnd.random() < 0.85:
            return c.SetConnected(seat, not game.seats[seat].connected)
        seat = self._below(game.seat_count)
        kind = self._pick((SeatKind.HUMAN, SeatKind.BOT))
        return c.Sit(seat, kind, f"{kind.value.title()} {seat}'")

    def _play_command(self) -> Any:
        rnd, game = self.rnd, self.game
        seats = game.seats
        r = rnd.random()
        if r < self.call_rate or (r < 0.2 and any(game.has_carre(i) for i in range(game.seat_count))):
            return self._call()  # a carré on the table is seen quickly: correct calls happen
        r = rnd.random()
        seat = self._actor()
        s = seats[seat]
        if r < 0.5:  # an exchange, purposeful or not, sometimes with a stale expected card (R16)
            hand, centre = s.hand, game.centre
            place = self._below(CENTRE_SIZE)
            counts: dict[str, int] = {}
            for card in hand:
                counts[card.rank] = counts.get(card.rank, 0) + 1
            best, most = "", 0
            for rank, count in counts.items():  # the first of the commonest ranks
                if count > most:
                    best, most = rank, count
            wanted = [p for p in range(CENTRE_SIZE) if centre[p].rank == best]
            if wanted and rnd.random() < 0.9:  # collect the commonest rank: carrés do happen
                place = self._pick(wanted)
                spare = [card for card in hand if card.rank != best] or hand
                card = self._pick(spare)
            else:
                card = self._pick(hand)
            expected = centre[place].id if rnd.random() < 0.9 else self._pick(centre).id
            return c.Swap(seat, card.id, place, expected)
        if r < 0.62:
            return c.ReleaseChannel(seat) if s.channel_held else c.TakeChannel(seat)
        if r < 0.72:
            return c.ChooseEmoji(seat, self._pick(SIGNS))
        if r < 0.76:
            human = self._human()
            return c.RequestReshuffle(human if human is not None else 0)
        if r < 0.86 and game.vote is not None:
            voters = game.vote.voters
            voter = self._pick(voters) if voters and rnd.random() < 0.9 else seat
            return c.AnswerVote(voter, rnd.random() < 0.85)
        if r < 0.9:
            return self._people()
        return self._nonsense()

    def _call(self) -> Any:
        """Somebody calls: right when a carré is there to be seen, otherwise a bluff or a mistake."""
        rnd, game = self.rnd, self.game
        n = game.seat_count
        carres = [i for i in range(n) if game.has_carre(i)]
        if carres and rnd.random() < 0.8:
            holder = self._pick(carres)
            if rnd.random() < 0.5:  # the partner saw the sign: Quatro (R22)
                caller = game.partner(holder)
                return c.CallQuatro(caller, confirmed=game.has_carre(caller) or rnd.random() < 0.5)
            others = [i for i in range(n) if game.team(i) != game.team(holder)]
            return c.CallContre(self._pick(others), game.team(holder))  # an opponent read the sign (R24)
        caller = self._actor()
        if rnd.random() < 0.5:
            return c.CallQuatro(caller, confirmed=rnd.random() < 0.7)
        team = self._below(game.team_count)
        return c.CallContre(caller, None if rnd.random() < 0.3 else team)

    def _nonsense(self) -> Any:
        """Something the engine must refuse (or shrug off) without changing anything."""
        rnd, game = self.rnd, self.game
        n = game.seat_count
        seat = rnd.randrange(-1, n + 1)  # sometimes no such seat
        pick = self._below(14)
        other = next(iter(game.seats[(seat + 1) % n].hand), None)
        if pick == 0:
            return c.Swap(seat, other.id if other is not None else 999, rnd.randrange(-1, 5), self._below(40))
        if pick == 1:
            return c.PickSign(seat, self._pick(("🐈", "", "A", SIGNS[0])))
        if pick == 2:
            return c.ChooseEmoji(seat, self._pick(("🐈", "x")))
        if pick == 3:
            return c.Ready(seat)
        if pick == 4:
            return c.StartGame()
        if pick == 5:
            return c.SetSeatCount(self._pick((4, 5, 6, 8)))
        if pick == 6:
            return c.AnswerVote(seat, rnd.random() < 0.5)
        if pick == 7:
            return c.Sit(seat, SeatKind.EMPTY, "")
        if pick == 8:
            return c.Sit(seat, SeatKind.HUMAN, self._pick(("", " ", "x" * 40, "tab\there")))
        if pick == 9:
            return c.CallContre(seat, self._pick((None, -1, game.team_count, game.team(seat) if 0 <= seat < n else 0)))
        if pick == 10:
            return c.StartNextRound()
        if pick == 11:
            return c.RequestReshuffle(seat)
        if pick == 12:  # house rules or a practice during a game, or a resume with nothing paused
            return self._pick((c.Settings(winning_score=self._pick((2, 3, 11))), c.StartPractice(), c.Resume()))
        return c.TakeChannel(seat)


def play_random_game(seed: int, seat_count: int = 8, *, observer: Observer | None = None, **options: Any) -> RandomPlay:
    """Play one complete random game (to game over) and return the driver, with its record."""
    return RandomPlay(seed, seat_count, **options).play(observer=observer)
