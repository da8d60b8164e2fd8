"""Per-viewer views (R36–R39): the only way state leaves the engine.

* :func:`table_view` — what the big screen may show: public facts only (R36).
* :func:`seat_view` — what one seat's phone (or bot) may see: the table view plus
  ``"you"``: its own hand, cooldowns and channel choice (R37) and its team's sign (R38);
  :func:`you_view` builds that part alone.
* :func:`reveal_view` — what everybody sees after a round ends (R26): all hands,
  carrés and signs of that round. Both other views embed it as ``"result"``.

Views are plain JSON-ready dicts. Durations are given as seconds *remaining*
from ``now``, so a client needs no shared clock; while the game is paused they are
frozen as they stood when the pause began.

Beside the rule state every view carries:

* ``paused`` — ``None``, or ``{"by": "host" | "restart"}`` while every clock stands still;
* ``practice`` — ``True`` during a practice round (and its pause): it scores nothing;
* ``house_rules`` — ``{"winning_score": n, "timer_factor": f, "changed": [...]}``, the names of the
  settings that differ from the rules' defaults (see :func:`house_rules`);
* ``recap`` and ``awards`` — at game over only (``None`` before): every round's result and how its
  points were won, and the game's awards (see :mod:`.story`); ``ended_by`` — at game over, ``"score"`` (a team
  reached the winning score) or ``"host"`` (the host ended the game early), else ``None``.

The reveal (``result``, after a round has ended only: R39) carries the round's ``story``.

>>> import random
>>> from quatro_party.engine import Game
>>> view = table_view(Game(4, rng=random.Random(1)), now=0.0)
>>> view["phase"], view["seat_count"], len(view["seats"])
('lobby', 4, 4)
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from .cards import is_carre
from .commands import SeatKind
from .game import Game, Phase
from .rules import SIGNS, TIMER_FACTORS, WINNING_SCORE, partner_of, seats_of, team_count, team_of
from .story import awards, recap


def _left(at: float | None, now: float) -> float | None:
    return None if at is None else round(max(0.0, at - now), 3)


def house_rules(game: Game) -> dict[str, Any]:
    """The house rules in force: ``winning_score``, ``timer_factor`` and ``changed`` (the names of those
    that differ from the rules' own: R34's 5 points, a factor of 1).

    >>> import random
    >>> house_rules(Game(4, rng=random.Random(0), winning_score=7))
    {'winning_score': 7, 'timer_factor': 1.0, 'changed': ['winning_score']}
    """
    changed = []
    if game.winning_score != WINNING_SCORE:
        changed.append("winning_score")
    if game.timer_factor != TIMER_FACTORS[0]:
        changed.append("timer_factor")
    return {"winning_score": game.winning_score, "timer_factor": float(game.timer_factor), "changed": changed}


def _extras(game: Game) -> dict[str, Any]:
    """The view's keys beside the rule state: pause, practice, house rules, and the recap at game over."""
    over = game.phase is Phase.OVER
    return {
        "paused": None if game.paused is None else {"by": game.paused.by},
        "practice": game.practice,
        "house_rules": house_rules(game),
        "recap": recap(game.results) if over else None,
        "awards": awards(game.results) if over else None,
        "ended_by": game.ended_by if over else None,
    }


def reveal_view(game: Game) -> dict[str, Any] | None:
    """R26: the last round's reveal (all hands, carrés, signs), or ``None`` before any round ended."""
    return None if game.result is None else game.result.to_json()


def _reshuffle_json(game: Game, now: float) -> dict[str, Any]:
    """R27–R29: whether this round was reshuffled, the running vote and how long until another may start."""
    vote = game.vote
    gap = None
    if game.last_vote_end is not None:
        gap = _left(game.last_vote_end + game.timing.vote_gap, now) or None
    return {
        "done": game.reshuffled,
        "vote": None
        if vote is None
        else {
            "requester": vote.requester,
            "voters": list(vote.voters),
            "accepted": list(vote.accepted),
            "left": _left(vote.ends_at, now),
        },
        "next_vote_in": gap,
    }


def table_view(game: Game, now: float) -> dict[str, Any]:
    """R36: the public state, for the big screen. Holds no hand and no sign of the running round."""
    now = game.clock_at(now)
    clock = _left(game.phase_ends_at, now)
    seats = []
    for i, s in enumerate(game.seats):
        seats.append(
            {
                "seat": i,
                "team": game.team(i),
                "kind": s.kind.value,
                "name": s.name,
                "connected": s.connected or s.kind is SeatKind.BOT,
                "ready": s.ready or s.kind is SeatKind.BOT,  # R11: bots are always ready
                "channel": {"held": s.channel_held, "emoji": s.last_emitted if s.channel_held else None},
            }
        )
    return {
        "phase": game.phase.value,
        "round": game.round,
        "seat_count": game.seat_count,
        "winning_score": game.winning_score,
        "clock": clock,
        "timing": asdict(game.timing),
        "signs": list(SIGNS),
        "seats": seats,
        "teams": [
            {
                "team": t,
                "seats": list(seats_of(t, game.seat_count)),
                "score": team.score,
                "random_sign": team.random_sign and game.phase is Phase.PLAY,
            }
            for t, team in enumerate(game.teams)
        ],
        "centre": [c.to_json() for c in game.centre] if game.phase is Phase.PLAY else [],
        "redeals": game.redeals if game.phase is Phase.PLAY else 0,
        "reshuffle": _reshuffle_json(game, now),
        "result": reveal_view(game) if game.phase in (Phase.PAUSE, Phase.OVER, Phase.SIGN) else None,
        "winners": list(game.winners),
        **_extras(game),
    }


def you_view(game: Game, seat: int, now: float) -> dict[str, Any]:
    """R37–R38: ``seat``'s private facts only (``seat_view(...)["you"]``, without building the table's part):
    its hand, cooldowns, channel choice and team's sign.

    Raises ``IndexError`` for a seat that does not exist.
    """
    if not 0 <= seat < game.seat_count:
        raise IndexError(f"no seat {seat}")
    s = game.seats[seat]
    team = game.teams[game.team(seat)]
    vote = game.vote
    now = game.clock_at(now)
    return {
        "seat": seat,
        "team": game.team(seat),
        "partner": game.partner(seat),
        "hand": [c.to_json() for c in s.hand] if game.phase is Phase.PLAY else [],
        "has_carre": game.phase is Phase.PLAY and game.has_carre(seat),
        "sign": team.sign,
        "last_sign": team.last_sign,
        "swap_wait": _left(s.swap_ready_at, now) if s.swap_ready_at != float("-inf") else 0.0,
        "channel_wait": _left(s.channel_ready_at, now) if s.channel_ready_at != float("-inf") else 0.0,
        "channel_choice": s.channel_choice,
        "voter": vote is not None and seat in vote.voters and seat not in vote.accepted,
    }


def seat_view(game: Game, seat: int, now: float) -> dict[str, Any]:
    """R37–R38: what ``seat`` may see: the table view and, under ``"you"``, its private facts (:func:`you_view`).

    Raises ``IndexError`` for a seat that does not exist.
    """
    you = you_view(game, seat, now)
    view = table_view(game, now)
    view["you"] = you
    return view


class ViewBuilder:
    """Every seat's view of one game at once, for a caller that builds them at each change (the simulator).

    ``ViewBuilder(game).seat_views(now)[s] == seat_view(game, s, now)`` for every seat, field for field (a test
    checks it at every step of whole games), but much cheaper: the table part is built once and shared by the
    seats, and the parts that rarely change (the timing, the signs, each card's JSON, the seats list, the
    reveal) are built once and *shared between successive views*. The views are therefore read-only: a caller
    that mutates one would change others. ``seat_view`` and ``table_view`` still build fresh dicts.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self._timing: tuple[Any, dict[str, Any]] | None = None
        self._cards: dict[int, tuple[Any, dict[str, Any]]] = {}
        self._carre: dict[Any, bool] = {}  # seat -> its hand (as cached in _lists) is a carré
        self._teams_key: tuple[Any, ...] | None = None
        self._teams: list[dict[str, Any]] = []
        self._lists: dict[Any, tuple[tuple[int, ...], list[dict[str, Any]], list[Any]]] = {}
        self._seats_key: tuple[Any, ...] | None = None
        self._seats: list[dict[str, Any]] = []
        self._result: tuple[Any, dict[str, Any] | None] = (None, None)
        self._signs = list(SIGNS)
        self._team_seats: tuple[int, list[list[int]]] = (0, [])

    def _card(self, c: Any) -> dict[str, Any]:
        found = self._cards.get(c.id)
        if found is None or found[0] is not c:
            found = self._cards[c.id] = (c, c.to_json())
        return found[1]

    def _cards_json(self, slot: Any, cards: list[Any]) -> list[dict[str, Any]]:
        """The JSON list of ``cards`` (a hand or the centre), shared while the same card objects lie there."""
        key = tuple(map(id, cards))  # cards are frozen and kept alive by the deck: identity is enough
        found = self._lists.get(slot)
        if found is None or found[0] != key:
            card = self._card
            found = self._lists[slot] = (key, [card(c) for c in cards], cards[:])  # the copy keeps the ids alive
            if slot != "centre":  # a hand: is it a carré (R7, as Game.has_carre)?
                self._carre[slot] = is_carre(cards)
        return found[1]

    def _teams_json(self, playing: bool, team_seats: list[list[int]]) -> list[dict[str, Any]]:
        key = tuple((team.score, team.random_sign and playing) for team in self.game.teams)
        if key != self._teams_key:
            self._teams_key = key
            self._teams = [
                {"team": t, "seats": team_seats[t], "score": score, "random_sign": random_sign}
                for t, (score, random_sign) in enumerate(key)
            ]
        return self._teams

    def table_view(self, now: float) -> dict[str, Any]:
        """Equal to :func:`table_view` (shares its unchanged parts with the previous call's)."""
        game = self.game
        now = game.clock_at(now)
        phase = game.phase
        playing = phase is Phase.PLAY
        timing = game.timing
        if self._timing is None or self._timing[0] is not timing:
            self._timing = (timing, asdict(timing))
        bot = SeatKind.BOT
        key = tuple((s.kind, s.name, s.connected, s.ready, s.channel_held, s.last_emitted) for s in game.seats)
        if key != self._seats_key:
            self._seats_key = key
            self._seats = [
                {
                    "seat": i,
                    "team": game.team(i),
                    "kind": kind.value,
                    "name": name,
                    "connected": connected or kind is bot,
                    "ready": ready or kind is bot,  # R11: bots are always ready
                    "channel": {"held": held, "emoji": emitted if held else None},
                }
                for i, (kind, name, connected, ready, held, emitted) in enumerate(key)
            ]
        result = None
        if phase in (Phase.PAUSE, Phase.OVER, Phase.SIGN) and game.result is not None:
            if self._result[0] is not game.result:
                self._result = (game.result, game.result.to_json())
            result = self._result[1]
        if self._team_seats[0] != game.seat_count:
            self._team_seats = (
                game.seat_count,
                [list(seats_of(t, game.seat_count)) for t in range(team_count(game.seat_count))],
            )
        team_seats = self._team_seats[1]
        return {
            "phase": phase.value,
            "round": game.round,
            "seat_count": game.seat_count,
            "winning_score": game.winning_score,
            "clock": _left(game.phase_ends_at, now),
            "timing": self._timing[1],
            "signs": self._signs,
            "seats": self._seats,
            "teams": self._teams_json(playing, team_seats),
            "centre": self._cards_json("centre", game.centre) if playing else [],
            "redeals": game.redeals if playing else 0,
            "reshuffle": _reshuffle_json(game, now),
            "result": result,
            "winners": list(game.winners),
            **_extras(game),
        }

    def seat_views(self, now: float) -> list[dict[str, Any]]:
        """Every seat's view, equal to ``[seat_view(game, s, now) for s in seats]``."""
        table = self.table_view(now)
        return [self.seat_view(table, seat, now) for seat in range(self.game.seat_count)]

    def seat_view(self, table: dict[str, Any], seat: int, now: float) -> dict[str, Any]:
        """One seat's view, equal to ``seat_view(game, seat, now)``, on top of ``table = self.table_view(now)``."""
        view = table.copy()
        view["you"] = self.you_view(seat, now)
        return view

    def you_view(self, seat: int, now: float) -> dict[str, Any]:
        """One seat's private part, equal to ``you_view(game, seat, now)`` (needs no table view)."""
        game = self.game
        now = game.clock_at(now)
        count = game.seat_count
        s = game.seats[seat]
        team = game.teams[team_of(seat, count)]
        if game.phase is Phase.PLAY:
            cards = self._cards_json(seat, s.hand)
            carre = self._carre[seat]
        else:
            cards, carre = [], False
        swap_at, channel_at = s.swap_ready_at, s.channel_ready_at
        vote = game.vote
        return {
            "seat": seat,
            "team": team_of(seat, count),
            "partner": partner_of(seat, count),
            "hand": cards,
            "has_carre": carre,
            "sign": team.sign,
            "last_sign": team.last_sign,
            # round(max(0.0, at - now), 3), or 0.0 when never set (-inf): 0.0 whenever at <= now
            "swap_wait": 0.0 if swap_at <= now else round(swap_at - now, 3),
            "channel_wait": 0.0 if channel_at <= now else round(channel_at - now, 3),
            "channel_choice": s.channel_choice,
            "voter": vote is not None and seat in vote.voters and seat not in vote.accepted,
        }
