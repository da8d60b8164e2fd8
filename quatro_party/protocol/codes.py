"""The codes both directions share: :class:`ErrorCode`, and :class:`ProtocolError`, which carries one.

A message that cannot be read (:mod:`.incoming`) raises :class:`ProtocolError`; the server answers it with
an ``error`` frame (:mod:`.outgoing`) carrying the same code, so a code is written once, here.
"""

from __future__ import annotations

from enum import Enum
from typing import Any


class ErrorCode(str, Enum):
    """Every code of an ``error`` frame that is not an engine :class:`~quatro_party.engine.refusals.Reason`.

    A server error whose cause the engine names (``no_such_seat``, ``wrong_phase``, ``seat_empty``) carries
    the engine's ``Reason``: no code is in both enums. The value is the stable code sent to clients.
    """

    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    BAD_FIELD = "bad_field"
    UNKNOWN_TYPE = "unknown_type"
    TOO_LARGE = "too_large"
    FLOOD = "flood"
    NOT_SEATED = "not_seated"
    ALREADY_SEATED = "already_seated"
    SEAT_TAKEN = "seat_taken"
    BAD_TOKEN = "bad_token"
    SEAT_MOVED = "seat_moved"
    SEAT_FREED = "seat_freed"
    NOT_HOST = "not_host"
    BAD_HOST_SECRET = "bad_host_secret"
    NOT_A_BOT = "not_a_bot"
    NOT_HELD = "not_held"
    TABLE_LOCKED = "table_locked"
    KICKED = "kicked"
    REPLACED_BY_BOT = "replaced_by_bot"
    BAD_VIP = "bad_vip"
    VIP_USED = "vip_used"
    INTERNAL = "internal"


class ProtocolError(Exception):
    """A message that cannot be understood. ``code`` is stable; ``message`` is English."""

    def __init__(self, code: ErrorCode | str, message: str, ref: Any = None) -> None:
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = message
        self.ref = ref
