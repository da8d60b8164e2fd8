"""The wire protocol: every message, both directions (the contract is ``docs/protocol.md``).

It is split by direction, and everything is re-exported here, so ``from quatro_party import protocol as p``
reaches all of it:

* :mod:`.incoming`: client → server. Raw text from a phone or a screen, parsed and checked into typed
  messages (:func:`parse_phone`, :func:`parse_screen`, :func:`parse_phone_socket`), and phone actions turned
  into engine commands (:func:`to_command`).
* :mod:`.outgoing`: server → client. Every frame the server sends (:class:`State`, :class:`Joined`,
  :class:`SeatLink`, :class:`VipLink`, :class:`Ok`, :class:`Refused`, :class:`Error`), each serialising itself.
* :mod:`.codes`: what both share: :class:`ErrorCode`, the stable codes of ``error`` frames, and
  :class:`ProtocolError`, which a message that cannot be read raises with one of them.
"""

from __future__ import annotations

from .codes import ErrorCode, ProtocolError
from .incoming import (
    BOT_LEVELS,
    HOST_ACTION_TYPES,
    LANGUAGE_CODE,
    MAX_ID_LENGTH,
    MAX_MESSAGE_BYTES,
    PHONE_ACTION_TYPES,
    TIMER_FACTORS,
    WINNING_SCORES,
    Action,
    Hello,
    HostAction,
    Join,
    Leave,
    ScreenHello,
    Watch,
    action_message,
    parse_phone,
    parse_phone_message,
    parse_phone_socket,
    parse_screen,
    to_command,
)
from .outgoing import (
    Error,
    HostKey,
    Joined,
    Ok,
    Refused,
    RemoteKey,
    SeatLink,
    ServerMessage,
    State,
    VipLink,
    ack_message,
    json_text,
    refused_message,
    seat_view_text,
    state_message,
)

__all__ = [
    "BOT_LEVELS",
    "HOST_ACTION_TYPES",
    "LANGUAGE_CODE",
    "MAX_ID_LENGTH",
    "MAX_MESSAGE_BYTES",
    "PHONE_ACTION_TYPES",
    "TIMER_FACTORS",
    "WINNING_SCORES",
    "Action",
    "Error",
    "HostKey",
    "ErrorCode",
    "Hello",
    "HostAction",
    "Join",
    "Joined",
    "Leave",
    "Ok",
    "ProtocolError",
    "Refused",
    "ScreenHello",
    "RemoteKey",
    "SeatLink",
    "ServerMessage",
    "State",
    "VipLink",
    "Watch",
    "ack_message",
    "action_message",
    "json_text",
    "parse_phone",
    "parse_phone_message",
    "parse_phone_socket",
    "parse_screen",
    "refused_message",
    "seat_view_text",
    "state_message",
    "to_command",
]
