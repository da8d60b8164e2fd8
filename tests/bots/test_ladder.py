"""The level ladder, calibrated on the scripted newcomer (``bench/ladder.py`` prints it in full, 400 games a cell).

Small runs on fixed seeds (duplicate deals, two processes), so each band is checked with a margin for sampling:
about two standard errors of a rate measured on this many games. The targets (T1–T8) are those of the ladder.
"""

from __future__ import annotations

from typing import Protocol

import pytest

from quatro_party.simulate import Summary, run
from tests.sharing import OncePerRun

GAMES = 120  # a cell: SE of a rate near 50 % is 4.6 points
MARGIN = 0.10  # about two standard errors
SEED = 500  # not the ladder's seeds: the tests check the calibration on games it was not tuned on


class Cell(Protocol):
    def __call__(self, *teams: str, seats: int = 4, games: int = GAMES) -> Summary: ...


@pytest.fixture
def cell(once: OncePerRun) -> Cell:
    """A cell of the ladder: ``games`` games of ``teams`` at ``seats`` seats. Several tests read the same cell;
    it is played once in the whole run (tests/sharing.py), whichever worker asks first."""

    def played(*teams: str, seats: int = 4, games: int = GAMES) -> Summary:
        key = f"ladder cell {teams} seats={seats} games={games} first_seed={SEED}"
        return once.get(key, lambda: run(list(teams), games, seats, first_seed=SEED, jobs=2))

    return played


def rate(summary: Summary, team: str) -> float:
    return summary.win_rate(team)


@pytest.mark.parametrize("level,low,high", [("easy", 0.65, 0.75), ("normal", 0.40, 0.55), ("hard", 0.25, 0.35)])
def test_t1_newcomer_with_a_bot_partner_against_two_bots_of_its_level(cell: Cell, level, low, high):
    s = cell(f"newcomer+{level}", level)
    assert low - MARGIN <= rate(s, f"newcomer+{level}") <= high + MARGIN, s.table()


@pytest.mark.parametrize("level,low,high", [("easy", 0.70, 1.0), ("normal", 0.30, 0.50), ("hard", 0.10, 0.30)])
def test_t2_two_newcomers_against_two_bots(cell: Cell, level, low, high):
    s = cell("newcomer", level)
    assert low - MARGIN <= rate(s, "newcomer") <= high + MARGIN, s.table()


def test_t3_a_hard_partner_is_worth_forty_points_more_than_an_easy_one_against_two_normal(cell: Cell):
    hard, easy = cell("newcomer+hard", "normal"), cell("newcomer+easy", "normal")
    gain = rate(hard, "newcomer+hard") - rate(easy, "newcomer+easy")
    assert gain >= 0.40 - MARGIN * 1.4, (hard.table(), easy.table())  # a difference of two rates: sqrt(2) SE


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_t4_the_newcomer_takes_part_in_at_least_40_percent_of_its_teams_points(cell: Cell, level):
    for s, team in ((cell(f"newcomer+{level}", level), f"newcomer+{level}"), (cell("newcomer", level), "newcomer")):
        assert s.newcomer_share(team) >= 0.40 - 0.05, s.table()


def test_t5_bots_call_quatro_at_a_human_pace_and_choose_their_emoji_a_beat_after_taking_the_channel(cell: Cell):
    cells = [cell("newcomer+hard", "hard"), cell("hard", "normal"), cell("normal", "easy")]
    pace = sorted(p for s in cells for p in s.quatro_pace)
    assert len(pace) > 500
    assert pace[len(pace) // 10] >= 1.3 and pace[len(pace) // 2] >= 1.6
    assert min(g for s in cells for g in s.emoji_gaps) >= 0.3


@pytest.mark.parametrize("strong,weak", [("normal", "easy"), ("hard", "normal")])
def test_t6_the_stronger_of_adjacent_levels_wins_70_to_95_percent(cell: Cell, strong, weak):
    s = cell(strong, weak)
    assert 0.70 - MARGIN <= rate(s, strong) <= 0.95 + MARGIN / 2, s.table()


@pytest.mark.parametrize("strong,weak", [("normal", "easy"), ("hard", "normal")])
def test_t6_at_8_seats_too(cell: Cell, strong, weak):
    s = cell(strong, weak, seats=8, games=30)  # SE near 8 points: a wider margin
    assert 0.70 - 0.18 <= rate(s, strong) <= 0.95 + 0.05, s.table()


def test_t7_t8_rounds_long_enough_few_void_and_no_lost_call(cell: Cell):
    """Bot-only and newcomer tables, 4 and 8 seats: rounds under 5 s <= 2 %, void <= 5 %, no bot call refused
    and never sent again."""
    cells = [
        cell("hard", "normal"),
        cell("normal", "easy"),
        cell("newcomer+hard", "hard"),
        cell("newcomer", "normal"),
        cell("hard", "normal", seats=8, games=16),
        cell("newcomer+easy", "easy", "easy", "easy", seats=8, games=16),
    ]
    rounds = sum(s.rounds for s in cells)
    assert sum(s.short_rounds for s in cells) <= 0.02 * rounds
    assert sum(s.endings["void"] for s in cells) <= 0.05 * rounds
    assert sum(s.lost_calls for s in cells) == 0


def test_jobs_give_the_same_summary_as_one_process():
    one = run(["newcomer+normal", "hard"], 12, 4, first_seed=7, jobs=1, keep_records=True)
    two = run(["newcomer+normal", "hard"], 12, 4, first_seed=7, jobs=2, keep_records=True)
    assert one.table().splitlines()[2:] == two.table().splitlines()[2:]
    assert [r.scores for r in one.records] == [r.scores for r in two.records]
