"""Why a command was refused, as data a phone can show in its own language."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Reason(str, Enum):
    """Every reason a command can be refused. The value is the stable code sent to clients."""

    WRONG_PHASE = "wrong_phase"  # e.g. a swap during the sign phase (R13)
    NO_SUCH_SEAT = "no_such_seat"
    SEAT_NOT_HUMAN = "seat_not_human"  # R3, R30: bots and empty seats do not vote or ask
    SEAT_EMPTY = "seat_empty"
    SEATS_NOT_FILLED = "seats_not_filled"
    BAD_SEAT_COUNT = "bad_seat_count"  # R1
    BAD_NAME = "bad_name"
    UNKNOWN_SIGN = "unknown_sign"  # R8, R18: not one of the 24
    SIGN_ALREADY_FIXED = "sign_already_fixed"  # R8
    SIGN_USED_LAST_ROUND = "sign_used_last_round"  # R10
    SIGN_LEFT_TO_PARTNER = "sign_left_to_partner"  # R13: a bot with a human partner never picks
    ALREADY_READY = "already_ready"
    NOT_YOUR_CARD = "not_your_card"  # R14
    NO_SUCH_PLACE = "no_such_place"
    CARD_TAKEN = "card_taken"  # R16: the centre place no longer holds the expected card
    SWAP_COOLDOWN = "swap_cooldown"  # R15
    CHANNEL_COOLDOWN = "channel_cooldown"  # R21
    CHANNEL_ALREADY_HELD = "channel_already_held"
    CHANNEL_NOT_HELD = "channel_not_held"  # R18
    CONFIRM_OWN_CARRE = "confirm_own_carre"  # R23
    BAD_TEAM = "bad_team"  # R24: the accused must be an opposing team
    RESHUFFLE_ALREADY_DONE = "reshuffle_already_done"  # R29
    VOTE_TOO_SOON = "vote_too_soon"  # R29
    VOTE_RUNNING = "vote_running"
    NO_VOTE = "no_vote"
    NOT_A_VOTER = "not_a_voter"  # R28
    ALREADY_ANSWERED = "already_answered"
    PAUSED = "paused"  # the game is paused: the command needs running time (or it is a second Pause)
    NOT_PAUSED = "not_paused"  # a Resume while nothing is paused
    BAD_SETTING = "bad_setting"  # a house rule outside its allowed values


@dataclass(frozen=True)
class Refusal:
    """A refused command: a stable ``reason``, an English ``message`` and optional details.

    ``details`` carries numbers a client can render itself, e.g. ``{"wait": 1.3}``
    for a cooldown (seconds left).

    >>> Refusal(Reason.SWAP_COOLDOWN, "cooldown, 1.3 s left", {"wait": 1.3}).to_json()["reason"]
    'swap_cooldown'
    """

    reason: Reason
    message: str
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The refusal as JSON for the one client that sent the command."""
        return {
            "reason": self.reason.value,
            "message": self.message,
            **({"details": self.details} if self.details else {}),
        }


def wrong_phase(phase: str, wanted: list[str]) -> Refusal:
    """A command refused in ``phase`` (only accepted in ``wanted``).

    >>> wrong_phase("lobby", ["play"]).message
    'not during the lobby phase (only play)'
    """
    return Refusal(Reason.WRONG_PHASE, f"not during the {phase} phase (only {' or '.join(wanted)})", {"phase": phase})


def waiting(reason: Reason, left: float, what: str) -> Refusal:
    """An action that must wait ``left`` more seconds; the message rounds *up* to tenths (never "0.0 s
    left" while still waiting).

    >>> waiting(Reason.SWAP_COOLDOWN, 2.0 - 0.7, "cooldown").message
    'cooldown, 1.3 s left'
    """
    left = round(left, 3)
    # the inner round() absorbs float noise such as 2.0 - 0.7 = 1.3000000000000003
    shown = math.ceil(round(left * 10, 6)) / 10
    return Refusal(reason, f"{what}, {shown:.1f} s left", {"wait": left})
