"""Bot-only games on the engine with a simulated clock: how strong is each bot level?

    python -m quatro_party.simulate --seats 4 --games 2000 --teams hard,easy

No real time passes: an event loop jumps from one instant to the next among the engine's deadlines
(:meth:`Game.next_deadline`) and the bots' wakes (:meth:`Bot.next_wake`). Each bot is fed only what the
server sends a phone in its seat — ``state`` messages with the seat's view and the public events, ``ok`` and
``refused`` replies — and its messages go through the phones' checks (``parse_phone_message``, which the
server's ``parse_phone`` runs after decoding the JSON, then ``to_command``).

Lazily: a bot looks at the table only at moments (see :mod:`quatro_party.bots.core`), so at each change the
bots are only told that something changed (:meth:`Bot.notice`), and a bot about to look
(:meth:`Bot.wants_view`) is sent the state it would hold from the server — its seat's view as of the last
change — with every event since the last state it was sent. Views nobody looks at are never built.

Duplicate deals cut luck out: each seed is played once per rotation of the levels over the teams (with two
levels: once, then with the teams swapped), and every bot's dice come from the seed and its seat.

Use it from code too: :func:`run` returns a :class:`Summary`; :func:`play_game` plays one game.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from .bots import LEVELS, make_bot
from .bots.newcomer import make_newcomer
from .engine import Game, Phase, SeatKind, Sit, StartGame
from .engine import events as ev
from .engine.rules import DEFAULT_TIMING, Timing, partner_of, seats_of, team_of
from .engine.views import ViewBuilder
from .protocol import Action, ack_message, parse_phone_message, refused_message, to_command

#: Stop a game that has not ended after this many rounds (it counts as undecided).
MAX_ROUNDS = 80

#: How a round ended, as counted in the summary.
ENDINGS = ("correct_quatro", "false_quatro", "correct_contre", "false_contre", "void")


def seat_views(game: Game, now: float) -> list[dict[str, Any]]:
    """Every seat's view, equal to :func:`quatro_party.engine.seat_view` for each seat (``tests/bots`` checks
    it field for field at every step of whole games). See :class:`~quatro_party.engine.views.ViewBuilder`;
    :func:`play_game` keeps one builder per game, so that successive views share their unchanged parts."""
    return ViewBuilder(game).seat_views(now)


def _seat_view(builder: ViewBuilder, table: dict[str, Any], seat: int, now: float) -> dict[str, Any]:
    """One seat's view, equal to ``seat_view(game, seat, now)``, from ``table = builder.table_view(now)``
    (the simulator builds a view only for a bot that looks)."""
    return builder.seat_view(table, seat, now)


_EVENT_SHAPES: dict[type, tuple[str, tuple[str, ...]]] = {}


def event_json(e: ev.Event) -> dict[str, Any]:
    """``e.to_json()``, with each event class's name and fields worked out once (``tests/bots`` checks it)."""
    shape = _EVENT_SHAPES.get(type(e))
    if shape is None:
        shape = _EVENT_SHAPES[type(e)] = (e.to_json()["type"], tuple(f.name for f in fields(e)))
    name, names = shape
    return {"type": name, **{n: ev._json(getattr(e, n)) for n in names}}


#: The scripted first-time player of the simulator (not a level a host can seat): it sits on a human seat.
NEWCOMER = "newcomer"


def team_players(label: str) -> tuple[str, str]:
    """A team's label to its two players, (first seat, partner): ``"hard"`` is two hard bots,
    ``"newcomer+easy"`` a newcomer with an easy bot as partner."""
    parts = [x.strip() for x in label.split("+")]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(parts):
        raise ValueError(f"a team is one level or two joined by '+', not {label!r}")
    for part in parts:
        if part != NEWCOMER and part not in LEVELS:
            raise ValueError(f"unknown player {part!r} (choose from {', '.join([*LEVELS, NEWCOMER])})")
    return parts[0], parts[1]


@dataclass
class RoundRecord:
    """How one round ended, with what the acceptance figures need."""

    ending: str  # one of ENDINGS
    caller: int | None  # the calling seat
    target: int | None  # Quatro: the partner judged; Contre: the accused team
    scorers: tuple[int, ...]  # the teams that scored
    length: float  # seconds from the round's opening to its end
    newcomer_part: tuple[int, ...] = ()  # the scoring teams whose newcomer scored it (its call, or its carré)


@dataclass
class GameRecord:
    """One simulated game: the label of each team, the final scores, the winners, how each round ended."""

    seed: int
    levels: tuple[str, ...]  # by team
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    endings: list[tuple[str, str | None]]  # (ending, caller's level)
    sim_time: float
    messages: int = 0
    rounds: list[RoundRecord] = field(default_factory=list)
    quatro_pace: list[float] = field(default_factory=list)  # bots: from the partner's sign to their Quatro
    emoji_gaps: list[float] = field(default_factory=list)  # bots: from taking the channel to its first emission
    lost_calls: int = 0  # bot calls refused (not for a round already over) and never sent again that round
    random_signs: int = 0  # R12 signs drawn for teams of two bots at a table with a human (could have picked)


def make_player(seat: int, kind: str, rng: random.Random) -> Any:
    """A bot of level ``kind``, or the scripted newcomer."""
    if kind == NEWCOMER:
        return make_newcomer(seat, rng)
    return make_bot(seat, kind, rng)


def play_game(
    seed: int,
    team_levels: Sequence[str],
    seats: int = 4,
    *,
    timing: Timing = DEFAULT_TIMING,
    exact_views: bool = False,
    max_rounds: int = MAX_ROUNDS,
    observer: Callable[[str, float, Any], None] | None = None,
    humans: Sequence[int] = (),
    script: Sequence[tuple[float, Callable[[Game, float], Any]]] = (),
) -> GameRecord:
    """Play one game to the end (R34) on a simulated clock. ``team_levels[t]`` plays team ``t``: a level, or
    two players joined by ``+`` (first seat, then its partner), e.g. ``"newcomer+easy"``.

    ``exact_views`` builds each view with the engine's own ``seat_view`` (slower; the default shares the
    public part, see :func:`seat_views`). ``observer(kind, now, data)``, for tests, sees every step:
    ``("sent", now, (seat, message, refusal or None))`` and ``("events", now, [public events])``.
    ``humans`` seats are held by scripted humans instead of bots: ``script`` lists ``(time, action)``, each
    ``action(game, now)`` returning the engine ``Outcome`` of what a human did there (tests script readiness,
    reshuffles, disconnections with it). Newcomers sit on human seats too, and play by themselves.
    """
    from .engine import seat_view

    teams = seats // 2
    if len(team_levels) != teams:
        raise ValueError(f"{seats} seats make {teams} teams, not {len(team_levels)}")
    kinds = []
    for s in range(seats):
        first, second = team_players(team_levels[team_of(s, seats)])
        kinds.append(first if s < teams else second)
    human_seats = set(humans) | {s for s in range(seats) if kinds[s] == NEWCOMER}
    game = Game(seats, rng=random.Random(seed), timing=timing)
    bots = {
        s: make_player(s, kinds[s], random.Random(seed * 1009 + s * 7919 + 1)) for s in range(seats) if s not in humans
    }
    is_bot = [s in bots and kinds[s] != NEWCOMER for s in range(seats)]
    bot_team = [is_bot[a] and is_bot[b] for a, b in (seats_of(t, seats) for t in range(teams))]
    table_info = {"bots": {str(s): kinds[s] for s in bots if is_bot[s]}}
    todo = sorted(script, key=lambda x: x[0])
    endings: list[tuple[str, str | None]] = []
    rounds: list[RoundRecord] = []
    pace: list[float] = []
    gaps: list[float] = []
    random_signs = 0
    lost = 0
    refused_calls: set[int] = set()  # seats whose call was refused and not sent again this round
    sign_seen: dict[int, float] = {}  # seat -> when it first emitted its team's sign this deal
    taken_at: dict[int, float] = {}  # seat -> when it took its channel, until its first emission
    opened_at = 0.0
    sent = 0
    builder = ViewBuilder(game)

    # Lazy views: a change is only *noticed* by the bots (Bot.notice, no content); a bot's view is built when
    # it glances (Bot.wants_view), with the events since its previous view: the frame it would have kept of
    # the server's per-change messages (the latest state and the events since its last look).
    log: list[dict[str, Any]] = []  # every public event of the game, in order
    given = {s: 0 for s in bots}  # how much of the log each bot was sent
    inf = float("inf")
    wakes = [inf] * seats  # each bot's next wake, refreshed only when the bot was touched
    # The game changes only with events: the views a bot could hold are the ones built at the last change
    # (as the server's messages are). Built lazily, at most once per change and seat, only for a bot that looks.
    version = 0  # bumped at each change
    changed_at = 0.0  # when the last change happened: every view of this version is built at that time
    table_cache: list[Any] = [-1, None]  # (version, table view)
    view_cache: dict[int, dict[str, Any]] = {}  # seat -> its view at this version

    def measure(e: Any, now: float) -> None:
        """The acceptance figures, read off the events (the simulator may look at the engine: bots may not)."""
        nonlocal opened_at, lost, random_signs
        kind = type(e)
        if kind is ev.Emitted:
            if e.seat in taken_at and is_bot[e.seat]:
                gaps.append(now - taken_at.pop(e.seat))
            if e.seat not in sign_seen and e.emoji == game.teams[team_of(e.seat, seats)].sign:
                sign_seen[e.seat] = now
        elif kind is ev.ChannelTaken:
            taken_at[e.seat] = now
        elif kind is ev.ChannelReleased:
            taken_at.pop(e.seat, None)
        elif kind is ev.Dealt or kind is ev.Reshuffled:
            sign_seen.clear()
        elif kind is ev.RoundOpened:
            opened_at = now
        elif kind is ev.RandomSignGiven:
            if bot_team[e.team] and human_seats:
                random_signs += 1
        elif kind is ev.RoundEnded:
            r = e.result
            lost += len(refused_calls)
            refused_calls.clear()
            taken_at.clear()
            if r.end.value == "void":
                endings.append(("void", None))
                ending = "void"
            else:
                verdict = "correct" if r.correct else "false"
                ending = f"{verdict}_{r.end.value}"
                endings.append((ending, team_levels[team_of(r.caller, seats)]))
            part = []
            for t in r.scorers:
                mine = [s for s in seats_of(t, seats) if kinds[s] == NEWCOMER]
                if not mine:
                    continue
                if r.caller in mine or (r.end.value == "quatro" and r.correct and r.target in mine):
                    part.append(t)
            rounds.append(RoundRecord(ending, r.caller, r.target, tuple(r.scorers), now - opened_at, tuple(part)))

    def deliver(events: Sequence[ev.Event], now: float) -> None:
        nonlocal version, changed_at
        if not events:
            return
        public = [event_json(e) for e in events]
        if observer is not None:
            observer("events", now, public)
        for e in events:
            if type(e) in _MEASURED:
                measure(e, now)
        log.extend(public)
        version += 1
        changed_at = now
        view_cache.clear()
        for s, bot in bots.items():
            at = bot.notice(now)  # when it will glance: its next wake is the sooner of that and the one it had
            if at <= now:
                show(s)  # free to look now: it glances at once (observe) and perceives later
                refresh(s)
            elif at < wakes[s]:
                wakes[s] = at

    def show(s: int) -> None:
        """Send bot ``s`` the last state a phone in its seat was sent (at the last change), with the events
        since the last state this bot was shown."""
        view = view_cache.get(s)
        if view is None:
            if exact_views:
                view = seat_view(game, s, changed_at)
            else:
                if table_cache[0] != version:
                    table_cache[:] = [version, builder.table_view(changed_at)]
                view = _seat_view(builder, table_cache[1], s, changed_at)
            view_cache[s] = view
        events = log[given[s] :]
        given[s] = len(log)
        bots[s].observe({"type": "state", "view": view, "events": events, "table": table_info}, changed_at)

    def refresh(i: int) -> None:
        w = bots[i].next_wake()
        wakes[i] = inf if w is None else w

    def refresh_all() -> None:
        for i in bots:
            refresh(i)

    now = 0.0
    for s in range(seats):
        game.apply(Sit(s, SeatKind.HUMAN if s in human_seats else SeatKind.BOT, f"Player {s}"), now)
    deliver(game.apply(StartGame(), now).events, now)
    refresh_all()
    deadline = game.next_deadline()  # depends on the game's state only: refreshed whenever the game is touched
    while game.phase is not Phase.OVER and game.round <= max_rounds:
        best = min(wakes)
        who = wakes.index(best)
        if deadline is not None and deadline <= best:
            best, who = deadline, -1
        if todo and todo[0][0] <= best:  # a scripted human acts
            at, act = todo.pop(0)
            now = max(now, at)
            deliver(act(game, now).events, now)
            deadline = game.next_deadline()
            refresh_all()
            continue
        if best == inf:
            break
        now = max(now, best)
        if who < 0:
            events = game.tick(now).events
            deadline = game.next_deadline()
            deliver(events, now)  # keeps every bot's wake up to date
            continue
        bot = bots[who]
        if given[who] < len(log) and bot.wants_view(now):
            show(who)
        for msg in bot.wake(now):
            sent += 1
            action = parse_phone_message(msg)  # exactly a phone's checks, on the message it would send as JSON
            if not isinstance(action, Action):
                raise TypeError(f"bot {who} sent {msg!r}: a bot only sends actions")
            outcome = game.apply(to_command(action, who), now)
            deadline = game.next_deadline()
            ref = getattr(action, "id", None)
            if observer is not None:
                observer("sent", now, (who, msg, outcome.refusal))
            kind = msg["type"]
            if kind == "call_quatro" or kind == "call_contre":
                refused_calls.discard(who)
                refusal = outcome.refusal
                if refusal is not None and refusal.reason.value != "wrong_phase" and is_bot[who]:
                    refused_calls.add(who)
                elif refusal is None and kind == "call_quatro" and is_bot[who]:
                    mate = partner_of(who, seats)
                    if mate in sign_seen:
                        pace.append(now - sign_seen[mate])
            if outcome.refusal is not None:
                bot.observe(refused_message(outcome.refusal, ref), now)
            else:
                bot.observe(ack_message(ref), now)
            deliver(outcome.events, now)  # keeps every bot's wake up to date (this one's is refreshed below)
            if game.phase is not Phase.PLAY and kind not in ("pick_sign", "ready"):
                break  # the round ended (a call): the rest of this burst would only be refused
        refresh(who)
    return GameRecord(
        seed,
        tuple(team_levels),
        game.scores(),
        tuple(game.winners),
        endings,
        now,
        sent,
        rounds,
        pace,
        gaps,
        lost + len(refused_calls),
        random_signs,
    )


_MEASURED = {
    ev.Emitted,
    ev.ChannelTaken,
    ev.ChannelReleased,
    ev.Dealt,
    ev.Reshuffled,
    ev.RoundOpened,
    ev.RandomSignGiven,
    ev.RoundEnded,
}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class LevelStats:
    """The games of one team label (a level, or ``newcomer+easy`` and the like)."""

    games: int = 0  # games this label played in
    wins: int = 0  # games it won alone
    decided: int = 0  # games that one label won alone
    points: int = 0
    teams: int = 0  # team-games (for points per team per game)
    newcomer_points: int = 0  # points its newcomer scored (its call, or its carré called by its partner)


@dataclass
class Summary:
    """The outcome of :func:`run`."""

    seats: int
    levels: tuple[str, ...]
    games: int
    by_level: dict[str, LevelStats] = field(default_factory=dict)
    endings: Counter = field(default_factory=Counter)  # ending -> count
    endings_by_caller: dict[str, Counter] = field(default_factory=dict)
    rounds: int = 0
    short_rounds: int = 0  # rounds ended by a call less than SHORT_ROUND seconds after they opened
    draws: int = 0
    undecided: int = 0
    seconds: float = 0.0
    quatro_pace: list[float] = field(default_factory=list)
    emoji_gaps: list[float] = field(default_factory=list)
    lost_calls: int = 0
    random_signs: int = 0
    records: list[GameRecord] = field(default_factory=list)

    def win_rate(self, level: str) -> float:
        """Share of decided games won by ``level``."""
        s = self.by_level[level]
        return s.wins / s.decided if s.decided else 0.0

    def void_rate(self) -> float:
        return self.endings["void"] / self.rounds if self.rounds else 0.0

    def short_rate(self) -> float:
        return self.short_rounds / self.rounds if self.rounds else 0.0

    def newcomer_share(self, level: str) -> float:
        """Share of ``level``'s points its newcomer took part in."""
        s = self.by_level[level]
        return s.newcomer_points / s.points if s.points else 0.0

    def pace(self, q: float) -> float:
        """The ``q`` quantile of the bots' Quatro pace (from the partner's sign), or NaN without any."""
        return quantile(self.quatro_pace, q)

    def add(self, rec: GameRecord, keep: bool = False) -> None:
        """Count one game in."""
        self.games += 1
        if keep:
            self.records.append(rec)
        team_levels = rec.levels
        present = set(team_levels)
        winning = {team_levels[t] for t in rec.winners}
        for level in present:
            st = self.by_level.setdefault(level, LevelStats())
            st.games += 1
            for t, lv in enumerate(team_levels):
                if lv == level:
                    st.points += rec.scores[t]
                    st.teams += 1
        for r in rec.rounds:
            for t in r.newcomer_part:
                self.by_level[team_levels[t]].newcomer_points += 1
            if r.ending != "void" and r.length < SHORT_ROUND:
                self.short_rounds += 1
        if len(winning) == 1 and len(present) > 1:
            for level in present:
                self.by_level[level].decided += 1
            self.by_level[next(iter(winning))].wins += 1
        elif not winning:
            self.undecided += 1
        elif len(present) > 1:
            self.draws += 1
        for ending, caller_level in rec.endings:
            self.rounds += 1
            self.endings[ending] += 1
            if caller_level is not None:
                self.endings_by_caller.setdefault(caller_level, Counter())[ending] += 1
        self.quatro_pace.extend(rec.quatro_pace)
        self.emoji_gaps.extend(rec.emoji_gaps)
        self.lost_calls += rec.lost_calls
        self.random_signs += rec.random_signs

    def table(self) -> str:
        """The printed report."""
        lines = [
            f"{self.games} games at {self.seats} seats, teams {','.join(self.levels)} "
            f"(duplicate deals), {self.rounds} rounds, {self.seconds:.1f} s "
            f"({self.games / self.seconds if self.seconds else 0:.1f} games/s)",
            "",
        ]
        lines.append(
            f"{'team':16} {'games':>6} {'decided':>8} {'wins':>6} {'win %':>7}  {'95 % Wilson':>15} "
            f"{'pts/team/game':>14} {'newcomer part':>14}"
        )
        for level, s in self.by_level.items():
            lo, hi = wilson(s.wins, s.decided)
            rate = 100 * s.wins / s.decided if s.decided else 0.0
            pts = s.points / s.teams if s.teams else 0.0
            part = f"{100 * self.newcomer_share(level):13.1f}%" if NEWCOMER in team_players(level) else f"{'':>14}"
            lines.append(
                f"{level:16} {s.games:6d} {s.decided:8d} {s.wins:6d} {rate:6.1f}%  "
                f"[{100 * lo:5.1f}, {100 * hi:5.1f}]% {pts:14.2f} {part}"
            )
        lines.append(
            f"draws (several teams won together): {self.draws}; undecided (> {MAX_ROUNDS} rounds): {self.undecided}"
        )
        lines.append("")
        lines.append("rounds ended by     " + " ".join(f"{e:>15}" for e in ENDINGS))
        total = max(1, self.rounds)
        lines.append(
            f"{'all':19} " + " ".join(f"{self.endings[e]:7d} ({100 * self.endings[e] / total:4.1f}%)" for e in ENDINGS)
        )
        for level, c in self.endings_by_caller.items():
            lines.append(
                f"{'  called by ' + level:19} "
                + " ".join(f"{c[e]:7d} ({100 * c[e] / total:4.1f}%)" if e != "void" else f"{'':>15}" for e in ENDINGS)
            )
        lines.append("")
        gap = min(self.emoji_gaps) if self.emoji_gaps else float("nan")
        lines.append(
            f"rounds under {SHORT_ROUND:.0f} s: {100 * self.short_rate():.1f} %; void: {100 * self.void_rate():.1f} %; "
            f"bot Quatro pace from the partner's sign: p10 {self.pace(0.1):.2f} s, median {self.pace(0.5):.2f} s "
            f"({len(self.quatro_pace)}); soonest bot emission after taking the channel: {gap:.2f} s; "
            f"bot calls lost: {self.lost_calls}; random signs of bot teams at human tables: {self.random_signs}"
        )
        return "\n".join(lines)


#: A round ended by a call sooner than this after it opened is "short" (too quick for people to follow).
SHORT_ROUND = 5.0


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank), NaN when empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def rotations(levels: Sequence[str], teams: int) -> list[tuple[str, ...]]:
    """Team levels for each replay of a seed: the levels cycled over the teams, then every rotation of them."""
    distinct = list(dict.fromkeys(levels))
    out = []
    for k in range(max(1, len(distinct))):
        rotated = list(levels[k:]) + list(levels[:k])
        out.append(tuple(rotated[t % len(rotated)] for t in range(teams)))
    return list(dict.fromkeys(out))


def _play_task(task: tuple[int, tuple[str, ...], int, Timing, bool]) -> GameRecord:
    seed, team_levels, seats, timing, exact_views = task
    return play_game(seed, team_levels, seats, timing=timing, exact_views=exact_views)


def tasks(levels: Sequence[str], games: int, seats: int, first_seed: int) -> list[tuple[int, tuple[str, ...]]]:
    """The (seed, team levels) of each game of a run, in order: every seed once per rotation."""
    variants = rotations(levels, seats // 2)
    out: list[tuple[int, tuple[str, ...]]] = []
    seed = first_seed
    while len(out) < games:
        for team_levels in variants:
            if len(out) >= games:
                break
            out.append((seed, team_levels))
        seed += 1
    return out


def run(
    levels: Sequence[str],
    games: int,
    seats: int = 4,
    *,
    first_seed: int = 1,
    timing: Timing = DEFAULT_TIMING,
    keep_records: bool = False,
    exact_views: bool = False,
    jobs: int = 1,
) -> Summary:
    """Play about ``games`` games with duplicate deals and summarise them. ``jobs`` > 1 plays them in that many
    processes; every game depends on its seed alone, and they are counted in order: the same summary."""
    for level in levels:
        team_players(level)
    summary = Summary(seats, tuple(levels), 0)
    for level in dict.fromkeys(levels):
        summary.by_level[level] = LevelStats()
    started = time.perf_counter()
    work = [(seed, tl, seats, timing, exact_views) for seed, tl in tasks(levels, games, seats, first_seed)]
    if jobs > 1 and len(work) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
        with ProcessPoolExecutor(jobs, mp_context=context) as pool:
            for rec in pool.map(_play_task, work, chunksize=max(1, min(16, len(work) // (4 * jobs)))):
                summary.add(rec, keep_records)
    else:
        for task in work:
            summary.add(_play_task(task), keep_records)
    summary.seconds = time.perf_counter() - started
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m quatro_party.simulate", description=__doc__.split("\n")[0])
    parser.add_argument("--seats", type=int, default=4, choices=(4, 6, 8))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--teams",
        default="hard,easy",
        help="comma-separated teams, cycled over the table and rotated: a level (easy, normal, hard) or two "
        "players joined by '+', first seat then partner, where 'newcomer' is the scripted first-time player "
        "(e.g. newcomer+easy,easy)",
    )
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes to spread the games over (same results)")
    parser.add_argument(
        "--exact-views", action="store_true", help="build every view with the engine's seat_view (slower; same games)"
    )
    args = parser.parse_args(argv)
    levels = [x.strip() for x in args.teams.split(",") if x.strip()]
    try:
        summary = run(
            levels, args.games, args.seats, first_seed=args.seed, exact_views=args.exact_views, jobs=max(1, args.jobs)
        )
    except ValueError as e:
        parser.error(str(e))
    print(summary.table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
