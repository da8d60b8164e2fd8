"""Client → server: every message a phone or a screen sends, parsed and checked into typed messages.

Client messages are JSON objects with a string ``"type"`` and an optional ``"id"``
(any short string or integer, echoed in the reply so a client can match it).
:func:`parse_phone` and :func:`parse_screen` turn raw text into typed messages or
raise :class:`ProtocolError` with a stable code; they never raise anything else.
Phone *actions* become engine seat commands: the seat is never taken from the
message, only from the connection's token (R39: a phone cannot act for another seat).

>>> parse_phone('{"type": "swap", "card": 3, "place": 1, "expected": 9, "id": 7}')
Action(id=7, kind='swap', fields={'card': 3, 'place': 1, 'expected': 9})
>>> to_command(parse_phone('{"type": "ready"}'), seat=2)
Ready(seat=2)

A message already decoded (a bot's, in the simulator) skips the JSON text:
:func:`parse_phone_message` makes exactly the same checks as :func:`parse_phone`.

>>> parse_phone_message({"type": "choose_emoji", "emoji": "🐙"})
Action(id=None, kind='choose_emoji', fields={'emoji': '🐙'})
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine import commands as c
from ..engine import rules
from .codes import ErrorCode, ProtocolError

#: Larger client messages are refused unread.
MAX_MESSAGE_BYTES = 4096
#: Longest "id" a client may attach (characters).
MAX_ID_LENGTH = 40
#: Bot levels a host may choose.
BOT_LEVELS = ("easy", "normal", "hard")
#: What a language code looks like (ISO 639); the host accepts the codes of the catalogs it has (``web/i18n/``).
LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}$")
#: House rules the host may choose between games (the engine's own ranges): points to win, every duration × factor.
WINNING_SCORES = (min(rules.WINNING_SCORES), max(rules.WINNING_SCORES))
TIMER_FACTORS = rules.TIMER_FACTORS


# --- phone → server ----------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    """First message of a phone: resume with a seat token, or ``None`` to look at free seats.

    ``vip`` is the invitation of a VIP link (the host's remote), when the page was opened from one; ``remote``
    the key the server gave this phone when it took such an invitation (it keeps the remote across a closed
    tab and a host restart).
    """

    id: Any
    token: str | None
    vip: str | None = None
    remote: str | None = None


@dataclass(frozen=True)
class Watch:
    """Become a spectator: the public view, the reveal and the story, no seat."""

    id: Any


@dataclass(frozen=True)
class Join:
    """Take a free seat under a name. ``key`` is a secret the page made for this join: should the reply go down
    with its socket, the page sends the same join again on its next one and gets what the first one was given."""

    id: Any
    seat: int
    name: str
    key: str | None = None


@dataclass(frozen=True)
class Leave:
    """Give the seat back (lobby only); the token stops working."""

    id: Any


@dataclass(frozen=True)
class Action:
    """A game action for the connection's own seat; ``kind`` names it, ``fields`` are checked."""

    id: Any
    kind: str
    fields: dict[str, Any] = field(default_factory=dict)


# --- screen → server ---------------------------------------------------------------


@dataclass(frozen=True)
class ScreenHello:
    """First message of a big screen; ``host`` is the host secret, or ``None`` for a spectator screen; ``key`` the
    host key the server gave this screen (it keeps the host's rights across a host restart), or ``None``."""

    id: Any
    host: str | None
    key: str | None = None


@dataclass(frozen=True)
class HostAction:
    """A host control; only accepted from a screen that proved the host secret."""

    id: Any
    kind: str
    fields: dict[str, Any] = field(default_factory=dict)


# --- field checks ------------------------------------------------------------------


# Each check first tries the plain case (``type(v) is int``, ``type(v) is str``), which is most of the
# traffic and cheap; anything else gets the full test, which accepts int and str subclasses (never bool)
# exactly as before.


def _int(msg: dict[str, Any], key: str, lo: int = 0, hi: int = 1000) -> int:
    v = msg.get(key)
    if type(v) is int and lo <= v <= hi:
        return v
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"'{key}' must be a whole number from {lo} to {hi}", msg.get("id"))
    return v


def _opt_int(msg: dict[str, Any], key: str, lo: int = 0, hi: int = 1000) -> int | None:
    return None if msg.get(key) is None else _int(msg, key, lo, hi)


def _bool(msg: dict[str, Any], key: str, default: bool | None = None) -> bool:
    v = msg.get(key, default)
    if v is not True and v is not False:  # bool has no subclasses: the same as isinstance(v, bool)
        raise ProtocolError(ErrorCode.BAD_FIELD, f"'{key}' must be true or false", msg.get("id"))
    return v


def _encodable(v: str) -> bool:
    """Whether ``v`` can be written as UTF-8: JSON's ``\\ud800`` escapes give strings with lone surrogates,
    which no reply, journal line or comparison could hold."""
    if v.isascii():
        return True
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _str(msg: dict[str, Any], key: str, max_len: int = 64, optional: bool = False) -> str | None:
    v = msg.get(key)
    if type(v) is str and len(v) <= max_len and _encodable(v):
        return v
    if v is None and optional:
        return None
    if not isinstance(v, str) or len(v) > max_len:
        raise ProtocolError(
            ErrorCode.BAD_FIELD, f"'{key}' must be a text of at most {max_len} characters", msg.get("id")
        )
    if not _encodable(v):
        raise ProtocolError(
            ErrorCode.BAD_FIELD, f"'{key}' holds a character that cannot be encoded (a lone surrogate)", msg.get("id")
        )
    return v


#: A join's key is a secret like a seat token: long enough that nobody guesses another page's.
JOIN_KEY_LENGTH = (16, 128)


def _join_key(msg: dict[str, Any]) -> str | None:
    key = _str(msg, "key", JOIN_KEY_LENGTH[1], optional=True)
    if key is not None and len(key) < JOIN_KEY_LENGTH[0]:
        raise ProtocolError(
            ErrorCode.BAD_FIELD,
            f"'key' must be a text of {JOIN_KEY_LENGTH[0]} to {JOIN_KEY_LENGTH[1]} characters",
            msg.get("id"),
        )
    return key


def _choice(msg: dict[str, Any], key: str, options: tuple[str, ...]) -> str:
    v = msg.get(key)
    if v not in options:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"'{key}' must be one of {', '.join(options)}", msg.get("id"))
    return str(v)


def _language(msg: dict[str, Any]) -> str | None:
    v = msg.get("language")
    if v is not None and not (isinstance(v, str) and LANGUAGE_CODE.match(v)):
        raise ProtocolError(ErrorCode.BAD_FIELD, "'language' must be a language code (en, fr…) or null", msg.get("id"))
    return v


def _timer_factor(msg: dict[str, Any]) -> float:
    v = msg.get("timer_factor")
    if isinstance(v, bool) or v not in TIMER_FACTORS:
        raise ProtocolError(ErrorCode.BAD_FIELD, "'timer_factor' must be 1, 1.5 or 2", msg.get("id"))
    return float(v)


def _settings_fields(m: dict[str, Any]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    if "bot_level" in m:
        fields["bot_level"] = _choice(m, "bot_level", BOT_LEVELS)
    if "language" in m:
        fields["language"] = _language(m)
    if "winning_score" in m:
        fields["winning_score"] = _int(m, "winning_score", *WINNING_SCORES)
    if "timer_factor" in m:
        fields["timer_factor"] = _timer_factor(m)
    return fields


def _swap_fields(m: dict[str, Any]) -> dict[str, Any]:
    """Half of all actions: ``_int``'s plain case written out for the three fields, in their order."""
    card, place, expected = m.get("card"), m.get("place"), m.get("expected")
    if not (type(card) is int and 0 <= card <= 1000):
        card = _int(m, "card")
    if not (type(place) is int and 0 <= place <= 3):
        place = _int(m, "place", 0, 3)
    if not (type(expected) is int and 0 <= expected <= 1000):
        expected = _int(m, "expected")
    return {"card": card, "place": place, "expected": expected}


def _no_fields(m: dict[str, Any]) -> dict[str, Any]:
    return {}


#: Phone actions: message type → (field checker, engine command builder).
_PHONE_ACTIONS: dict[str, tuple[Callable[[dict[str, Any]], dict[str, Any]], Callable[..., c.SeatCommand]]] = {
    "pick_sign": (lambda m: {"sign": _str(m, "sign", 16)}, c.PickSign),
    "ready": (_no_fields, c.Ready),
    "swap": (_swap_fields, c.Swap),
    "take_channel": (_no_fields, c.TakeChannel),
    "release_channel": (_no_fields, c.ReleaseChannel),
    "choose_emoji": (lambda m: {"emoji": _str(m, "emoji", 16)}, c.ChooseEmoji),
    "call_quatro": (lambda m: {"confirmed": _bool(m, "confirmed", False)}, c.CallQuatro),
    "call_contre": (lambda m: {"team": _opt_int(m, "team", 0, 3)}, c.CallContre),
    "request_reshuffle": (_no_fields, c.RequestReshuffle),
    "answer_vote": (lambda m: {"accept": _bool(m, "accept")}, c.AnswerVote),
}
PHONE_ACTION_TYPES = tuple(_PHONE_ACTIONS)
#: The same, split for the hot path: message type → field checker, and → engine command class.
_PHONE_FIELDS = {kind: check for kind, (check, _) in _PHONE_ACTIONS.items()}
_PHONE_COMMANDS = {kind: build for kind, (_, build) in _PHONE_ACTIONS.items()}

#: Host controls: message type → field checker.
_HOST_ACTIONS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "set_seats": lambda m: {"count": _int(m, "count", 4, 8)},
    "add_bot": lambda m: {
        "seat": _int(m, "seat", 0, 7),
        "level": _choice(m, "level", BOT_LEVELS) if m.get("level") is not None else None,
    },
    "remove_bot": lambda m: {"seat": _int(m, "seat", 0, 7)},
    "free_seat": lambda m: {"seat": _int(m, "seat", 0, 7)},
    "allow_move": lambda m: {"seat": _int(m, "seat", 0, 7)},
    "fill_bots": lambda m: {},
    "start_game": lambda m: {},
    "next_round": lambda m: {},
    "new_game": lambda m: {},
    "settings": _settings_fields,
    "pause": lambda m: {},
    "resume": lambda m: {},
    "end_game": lambda m: {},
    "start_practice": lambda m: {},
    "replace_with_bot": lambda m: {
        "seat": _int(m, "seat", 0, 7),
        "level": _choice(m, "level", BOT_LEVELS) if m.get("level") is not None else None,
    },
    "kick": lambda m: {"seat": _int(m, "seat", 0, 7)},
    "lock": lambda m: {"locked": _bool(m, "locked")},
    "vip_link": lambda m: {},
    "revoke_vip": lambda m: {},
}
HOST_ACTION_TYPES = tuple(_HOST_ACTIONS)


def _decode(raw: str | bytes) -> Any:
    """The JSON value of a raw message (its size and encoding checked); :func:`_envelope` checks its shape."""
    if isinstance(raw, bytes):
        if len(raw) > MAX_MESSAGE_BYTES:
            raise ProtocolError(ErrorCode.TOO_LARGE, f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError(ErrorCode.BAD_JSON, "messages are UTF-8 JSON text") from None
    if len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise ProtocolError(ErrorCode.TOO_LARGE, f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    try:
        msg = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError(ErrorCode.BAD_JSON, "that is not valid JSON") from None
    return msg


def _envelope(msg: Any) -> tuple[str, Any]:
    """A decoded message's ``type`` and ``id``, checked: an object, a short id (if any), a string type."""
    if not isinstance(msg, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message is a JSON object")
    ref = msg.get("id")
    if ref is not None:
        _check_id(ref)
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message needs a string 'type'", ref)
    return kind, ref


def _check_id(ref: Any) -> None:
    if not (isinstance(ref, (int, str)) and not isinstance(ref, bool) and len(str(ref)) <= MAX_ID_LENGTH):
        raise ProtocolError(
            ErrorCode.BAD_FIELD, f"'id' must be a number or a text of at most {MAX_ID_LENGTH} characters"
        )
    if isinstance(ref, str) and not _encodable(ref):  # the reply carries the id back: it must be encodable
        raise ProtocolError(ErrorCode.BAD_FIELD, "'id' holds a character that cannot be encoded (a lone surrogate)")


def parse_phone(raw: str | bytes) -> Hello | Join | Leave | Action:
    """A phone's message, checked. Raises :class:`ProtocolError` for anything malformed."""
    return parse_phone_message(_decode(raw))


def parse_phone_message(msg: dict[str, Any]) -> Hello | Join | Leave | Action:
    """A phone's message already decoded from JSON (any value: it is checked), with exactly the checks and
    errors of :func:`parse_phone`. Raises :class:`ProtocolError` for anything malformed."""
    kind, ref = _envelope(msg)
    check = _PHONE_FIELDS.get(kind)
    if check is not None:  # an action: the bulk of the traffic, so looked up first
        return Action(ref, kind, check(msg))
    if kind == "hello":
        return Hello(
            ref,
            _str(msg, "token", 128, optional=True),
            _str(msg, "vip", 128, optional=True),
            _str(msg, "remote", 128, optional=True),
        )
    if kind == "join":
        return Join(ref, _int(msg, "seat", 0, 7), _str(msg, "name", 40) or "", _join_key(msg))
    if kind == "leave":
        return Leave(ref)
    if kind in _HOST_ACTIONS:
        raise ProtocolError(ErrorCode.NOT_HOST, "only the host's big screen can do that", ref)
    raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}", ref)


def _host_action(msg: dict[str, Any], kind: str, ref: Any) -> HostAction | None:
    """The host action ``msg`` is, or ``None``: ``{"type": <action>, …}``, or the same as
    ``{"type": "host", "action": <action>, …}``."""
    if kind == "host":
        action = msg.get("action")
        if not isinstance(action, str) or action not in _HOST_ACTIONS:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"'action' must be one of {', '.join(_HOST_ACTIONS)}", ref)
        kind = action
    check = _HOST_ACTIONS.get(kind)
    return None if check is None else HostAction(ref, kind, check(msg))


def parse_screen(raw: str | bytes) -> ScreenHello | HostAction:
    """A big screen's message, checked. Raises :class:`ProtocolError` for anything malformed."""
    msg = _decode(raw)
    kind, ref = _envelope(msg)
    if kind == "hello":
        return ScreenHello(ref, _str(msg, "host", 128, optional=True), _str(msg, "key", 128, optional=True))
    host = _host_action(msg, kind, ref)
    if host is not None:
        return host
    raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}", ref)


def parse_phone_socket(raw: str | bytes) -> Hello | Join | Leave | Action | Watch | HostAction:
    """Whatever the host's phone socket accepts: :func:`parse_phone`'s messages, ``watch``, and the host's
    actions, which only a VIP phone may send (the table answers the others ``not_host``)."""
    msg = _decode(raw)
    kind, ref = _envelope(msg)
    if kind in _PHONE_FIELDS:  # the bulk of the traffic
        return Action(ref, kind, _PHONE_FIELDS[kind](msg))
    if kind == "watch":
        return Watch(ref)
    host = _host_action(msg, kind, ref)
    if host is not None:
        return host
    return parse_phone_message(msg)


def to_command(action: Action, seat: int) -> c.SeatCommand:
    """The engine command for a phone (or bot) action, on behalf of ``seat``."""
    return _PHONE_COMMANDS[action.kind](seat, **action.fields)


def action_message(kind: str, **fields: Any) -> dict[str, Any]:
    """The JSON a client sends for an action, e.g. ``action_message("swap", card=3, place=1, expected=9)``.

    Bots build their moves with this, so they speak exactly the phones' protocol.
    """
    if kind not in _PHONE_ACTIONS:
        raise ValueError(f"unknown action {kind!r}")
    return {"type": kind, **fields}
