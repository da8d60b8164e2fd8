"""Every simulated game pinned, message for message: speed and structure work must not change a decision."""

from __future__ import annotations

import pytest

from .helpers import trace_digest as _trace_digest

#: Digests recorded with the perception model of looks (bots glance at moments, ``look_gap`` apart, and think
#: on what they perceived; the simulator builds a view only for a bot that looks), replacing those of the
#: per-message model (commit 318812b and the speed work after it): speed work must not change a single
#: decision. If bots are made to play differently on purpose, record these again (``_trace_digest``) and say
#: so in the commit. Last recorded when a bot that waits for its rank stopped re-rolling its tie-break dice at
#: every look (same decisions at that moment, a different stream of dice afterwards), then again when an answered
#: action stopped timing out before its reply was perceived, and easy and hard were re-paced for the ladder; and
#: when a round's reveal gained its players' names (the events changed, every message the bots sent did not).
DIGESTS_BEFORE_SPEEDUP = {
    (1, ("hard",) * 4, 8): "14924e3dc8358092",
    (2, ("hard",) * 4, 8): "03df6212deae9ef6",
    (1, ("hard", "normal"), 4): "204e3addbcd65e88",
    (1, ("easy", "normal", "hard"), 6): "df1e50c53eaaa684",
    (7, ("normal", "easy", "hard", "normal"), 8): "a5b6ab333afce3ab",
}


@pytest.mark.parametrize("case", sorted(DIGESTS_BEFORE_SPEEDUP))
def test_optimised_simulator_and_bots_play_exactly_as_before(case):
    """Same seed, same game, message for message and event for event: with the simulator's lazy shared views
    (ViewBuilder), with the engine's own seat_view (exact_views), and as recorded for this perception model."""
    seed, levels, seats = case
    fast = _trace_digest(seed, list(levels), seats)
    assert fast == _trace_digest(seed, list(levels), seats, exact_views=True)
    assert fast == DIGESTS_BEFORE_SPEEDUP[case]
