"""A restarted host rebuilds its table without applying any rule to the restart itself.

The server replays its journal onto a fresh game (same seed, same calls), then holds it with
``Pause(by="restart")`` while the phones come back: every seat is away at first, yet no voter is
dropped (R28), the sign phase does not open on its own (R11), and no clock runs. When the hold lifts the
usual rules apply to whoever is still away. Each test compares the whole engine state after the phones'
return with the state of the game that never stopped.
"""

import random

from quatro_party.engine import (
    AnswerVote,
    CallQuatro,
    Game,
    Pause,
    Phase,
    PickSign,
    Ready,
    Reason,
    RequestReshuffle,
    Resume,
    SeatKind,
    SetConnected,
    Sit,
    StartGame,
    seat_view,
)

from .scenario import fingerprint, ok, refused


class Table:
    """A game and its journal: every command with its time, as the server keeps them."""

    def __init__(self, kinds: str = "HHHB", seed: int = 3) -> None:
        self.kinds, self.seed = kinds, seed
        self.game = Game(len(kinds), rng=random.Random(seed))
        self.journal: list[tuple[float, object]] = []
        for seat, k in enumerate(kinds):
            self.send(Sit(seat, SeatKind.HUMAN if k == "H" else SeatKind.BOT, f"P{seat}"), 0.0)
        self.send(StartGame(), 0.0)

    def send(self, command: object, now: float):
        self.journal.append((now, command))
        return ok(self.game.apply(command, now))

    def humans(self) -> list[int]:
        return [i for i, k in enumerate(self.kinds) if k == "H"]

    def restart(self, at: float, back: float, *, hold: bool = True) -> Game:
        """A fresh game from the journal; the phones are all away at ``at`` and all back at ``back``."""
        game = Game(len(self.kinds), rng=random.Random(self.seed))
        for now, command in self.journal:
            game.apply(command, now)
        if hold:
            ok(game.apply(Pause(by="restart"), at))
            assert seat_view(game, 0, at)["paused"] == {"by": "restart"}
        for seat in self.humans():
            ok(game.apply(SetConnected(seat, False), at))
        assert game.tick(back).events == () or not hold  # nothing falls due during the hold
        for seat in self.humans():
            ok(game.apply(SetConnected(seat, True), back))
        if hold:
            ok(game.apply(Resume(), back))
        return game


def _state(game: Game) -> str:
    """The engine state without the time spent paused (the only thing a restart may change)."""
    lag = game.lag
    game.lag = 0.0
    try:
        return fingerprint(game)
    finally:
        game.lag = lag


def test_r28_a_restart_during_a_vote_keeps_the_vote_its_voters_and_its_time():
    table = Table("HHHB")
    table.game.tick(1.0)
    for seat in range(3):
        table.send(Ready(seat), 1.0)
    table.send(RequestReshuffle(0), 5.0)
    table.send(AnswerVote(1, True), 6.0)
    assert table.game.vote is not None
    game = table.restart(at=7.0, back=67.0)
    table.game.tick(7.0)  # the game that never stopped, when the host was killed
    assert _state(game) == _state(table.game)
    assert game.vote.voters == [1, 2] and game.vote.accepted == [1] and not game.reshuffled
    assert game.next_deadline() == table.game.next_deadline() + 60.0  # the vote's 19 s left, and the round's


def test_without_the_hold_a_restart_would_pass_the_vote():
    table = Table("HHHB")
    for seat in range(3):
        table.send(Ready(seat), 1.0)
    table.send(RequestReshuffle(0), 5.0)
    game = table.restart(at=7.0, back=8.0, hold=False)
    assert game.reshuffled and game.vote is None  # what the hold prevents: every voter dropped (R28)


def test_r11_a_restart_during_the_sign_phase_keeps_the_picks_and_gives_no_random_sign():
    table = Table("HHBB")
    table.send(PickSign(0, "🍍"), 2.0)
    table.send(Ready(0), 3.0)
    game = table.restart(at=4.0, back=500.0)
    assert game.phase is Phase.SIGN and all(not t.random_sign for t in game.teams)
    table.game.tick(4.0)
    assert _state(game) == _state(table.game)
    assert seat_view(game, 1, 500.0)["clock"] == seat_view(table.game, 1, 4.0)["clock"] == 56.0
    refused(game.apply(PickSign(0, "🚀"), 501.0), Reason.SIGN_ALREADY_FIXED)  # the pick survived
    ok(game.apply(PickSign(1, "🚀"), 501.0))  # and the other team may still pick


def test_a_restart_during_the_pause_between_rounds_keeps_the_reveal_and_its_time():
    table = Table("HHBB")
    for seat in (0, 1):
        table.send(Ready(seat), 1.0)
    table.send(CallQuatro(1, confirmed=True), 4.0)
    assert table.game.phase is Phase.PAUSE
    game = table.restart(at=10.0, back=40.0)
    table.game.tick(10.0)
    assert _state(game) == _state(table.game)
    assert seat_view(game, 0, 40.0) == seat_view(table.game, 0, 10.0)
    assert game.next_deadline() == 64.0  # 24 s of the 30 s pause were left


def test_the_usual_rules_apply_to_whoever_is_still_away_when_the_hold_lifts():
    table = Table("HHHB")
    for seat in range(3):
        table.send(Ready(seat), 1.0)
    table.send(RequestReshuffle(0), 5.0)
    table.send(AnswerVote(1, True), 6.0)
    game = Game(4, rng=random.Random(3))
    for now, command in table.journal:
        game.apply(command, now)
    ok(game.apply(Pause(by="restart"), 7.0))
    for seat in (0, 1, 2):
        ok(game.apply(SetConnected(seat, False), 7.0))
    for seat in (0, 1):  # seat 2 never comes back: the grace period ends
        ok(game.apply(SetConnected(seat, True), 20.0))
    out = ok(game.apply(Resume(), 37.0))
    assert [e.to_json()["type"] for e in out.events] == ["game_resumed", "vote_ended", "reshuffled"]
