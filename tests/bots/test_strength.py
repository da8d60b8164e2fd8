"""Level strength, with the simulator on fixed seeds and duplicate deals.

Kept small enough for a shared, slow machine: a few hundred 4-seat games, a few dozen 8-seat games.
"""

from __future__ import annotations

from quatro_party.simulate import main, rotations, run, wilson


def test_normal_beats_easy_in_at_least_60_percent_of_decided_games():
    summary = run(["normal", "easy"], 200, 4, first_seed=1000)
    assert summary.by_level["normal"].decided >= 190
    assert summary.win_rate("normal") >= 0.60, summary.table()


def test_hard_beats_normal_in_at_least_60_percent_of_decided_games():
    summary = run(["hard", "normal"], 200, 4, first_seed=2000)
    assert summary.by_level["hard"].decided >= 190
    assert summary.win_rate("hard") >= 0.60, summary.table()


def test_r32_eight_hard_bots_leave_under_5_percent_void_rounds():
    summary = run(["hard"], 16, 8, first_seed=3000)
    assert summary.rounds >= 80
    assert summary.void_rate() < 0.05, summary.table()


def test_duplicate_deals_swap_the_teams():
    assert rotations(["hard", "easy"], 2) == [("hard", "easy"), ("easy", "hard")]
    assert rotations(["hard", "easy"], 4) == [("hard", "easy", "hard", "easy"), ("easy", "hard", "easy", "hard")]
    assert rotations(["hard"], 3) == [("hard", "hard", "hard")]
    summary = run(["hard", "easy"], 4, 4, keep_records=True)
    seeds = [r.seed for r in summary.records]
    assert seeds == [1, 1, 2, 2]
    assert [r.levels for r in summary.records[:2]] == [("hard", "easy"), ("easy", "hard")]


def test_wilson_interval():
    lo, hi = wilson(60, 100)
    assert 0.50 < lo < 0.51 and 0.69 < hi < 0.70
    assert wilson(0, 0) == (0.0, 1.0)


def test_command_line_prints_the_tables(capsys):
    assert main(["--seats", "4", "--games", "4", "--teams", "hard,easy"]) == 0
    out = capsys.readouterr().out
    for word in ("95 % Wilson", "correct_quatro", "false_contre", "void", "pts/team/game", "hard", "easy"):
        assert word in out
