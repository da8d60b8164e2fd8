"""Every fixed duration of the bots, and the two clocks their durations follow.

A bot's durations are of two kinds:

* **The body's**: how a person perceives and taps — the reaction delay (never under :data:`MIN_REACTION`), the
  spacing of glances, the call button's hold (:data:`CALL_HOLD`), the emoji tray's second tap (never under
  :data:`MIN_EMOJI_BEAT`), the team picker, the R23 question, the "ready" tap. People do not speed up with the
  table: at a table people play at, these stay real seconds whatever the host's ``--time-scale``.
* **The table's**: the pace of play a level chooses within the rules' time — the pace after a swap cooldown,
  the hesitation before a sign, the wait before a Contre, a decoy's hold, a collector's patience, an action
  given up (:data:`PENDING_TIMEOUT`). They follow the table's timing, as the rules' own durations do.

A table run faster (``Timing.scaled``, a host's ``--time-scale`` under 1) is read from the view's public
``timing``; a slower one leaves the bots at their own pace. :class:`Pace` holds both factors: the body's is 1
unless the bot was made with ``human_pace=False``, the explicit choice of simulations and tests that want a
whole sped-up table.

The levels' own durations (reaction laws, paces, beats) are their knobs in :mod:`.levels`, each one named
there with the clock it follows.
"""

from __future__ import annotations

from typing import Any

from ..engine.rules import DEFAULT_TIMING

#: No bot answers an event sooner than this (seconds): a quick human, not a machine. A body duration.
MIN_REACTION = 0.7
#: A call button must be held this long before it fires (the phone's press-and-hold, there against stray
#: touches): every bot pays it as a player does. A body duration.
CALL_HOLD = 0.55
#: The least time between taking the channel and choosing its emoji: the tray opens, then a second tap. A body
#: duration.
MIN_EMOJI_BEAT = 0.3
#: An action with no ``ok``/``refused`` after this long is forgotten (the host may have dropped it). A table
#: duration.
PENDING_TIMEOUT = 3.0


class Pace:
    """A bot's two clocks: ``table`` (≤ 1, the table's time scale as its view shows it) and ``body`` (1, or the
    table's when the bot was made with ``human_pace=False``). A duration in seconds is multiplied by one of
    them."""

    def __init__(self, human_pace: bool = True) -> None:
        self.human_pace = human_pace
        self.table = 1.0
        self.body = 1.0
        self._timing: Any = None  # the last view's timing dict, already read

    def read(self, timing: dict[str, Any]) -> None:
        """Take the table's time scale from a view's public ``timing`` (views may share one dict: read once)."""
        if timing is self._timing:
            return
        self._timing = timing
        length = timing.get("round_length")
        if isinstance(length, (int, float)) and length > 0:
            # a table run faster (host --time-scale) plays its rules faster; a slower one does not slow the bots
            self.table = min(1.0, float(length) / DEFAULT_TIMING.round_length)
            if not self.human_pace:
                self.body = self.table
