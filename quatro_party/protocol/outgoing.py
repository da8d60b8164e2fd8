"""Server → client: every frame the server sends, as frozen dataclasses that serialise themselves.

A frame's ``text()`` is the exact text that goes on the wire. ``state`` comes in already-encoded parts, so
that a change sent to many sockets encodes each distinct part once (see :func:`seat_view_text`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..engine.refusals import Reason, Refusal
from .codes import ErrorCode


def json_text(msg: dict[str, Any]) -> str:
    """A server message as the text frame that goes on the wire (UTF-8 JSON, emoji unescaped)."""
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


def state_message(view: dict[str, Any], events: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """The ``state`` frame as a dict: what :class:`State` encodes, for a reader (bots, tests) holding a view."""
    return {"type": "state", "view": view, "events": events, **extra}


def seat_view_text(table_view_text: str, you: dict[str, Any] | None, you_text: str | None = None) -> str:
    """A seat's view as JSON text: the table view's text (shared by every socket) with ``"you"`` spliced in.

    ``seat_view`` is ``table_view`` plus ``"you"`` added last, so this is byte for byte
    ``json_text(seat_view(...))``, while the table part is encoded once per change, not once per phone.
    A spectator's view is the table view with ``"you": null`` (``you=None``). ``you_text``, when given, is
    ``json_text(you)`` already encoded (and ``you`` is not read).
    """
    if you_text is None:
        you_text = "null" if you is None else json_text(you)
    return table_view_text[:-1] + ',"you":' + you_text + "}"


@dataclass(frozen=True)
class State:
    """A full, fresh view for one recipient, with the public events since the last one.

    Its parts come already encoded (``view``, ``events``, ``table`` are JSON texts): a change sends the
    same parts to many sockets, and each distinct part is encoded once (see :func:`seat_view_text`).
    """

    view: str
    events: str
    table: str

    def text(self) -> str:
        """The frame: ``{"type":"state","view":…,"events":…,"table":…}``."""
        return '{"type":"state","view":' + self.view + ',"events":' + self.events + ',"table":' + self.table + "}"


@dataclass(frozen=True)
class Joined:
    """A phone took (``join``) or resumed (``hello``) ``seat``; ``name`` is the seat's name as granted."""

    id: Any
    seat: int
    token: str
    name: str

    def text(self) -> str:
        """The frame as JSON text."""
        return json_text({"type": "joined", "id": self.id, "seat": self.seat, "token": self.token, "name": self.name})


@dataclass(frozen=True)
class SeatLink:
    """A one-time link that moves ``seat`` to another device; only the seat's own phones get it."""

    seat: int
    token: str
    url: str
    expires_in: float

    def text(self) -> str:
        """The frame as JSON text."""
        return json_text(
            {
                "type": "seat_link",
                "seat": self.seat,
                "token": self.token,
                "url": self.url,
                "expires_in": self.expires_in,
            }
        )


@dataclass(frozen=True)
class VipLink:
    """The link that makes a phone the host's remote; only the host screen that asked gets it."""

    id: Any
    url: str

    def text(self) -> str:
        """The frame as JSON text."""
        return json_text({"type": "vip_link", "id": self.id, "url": self.url})


@dataclass(frozen=True)
class HostKey:
    """The key that keeps this screen the host's across a host restart; only that screen gets it, once."""

    key: str

    def text(self) -> str:
        """The frame as JSON text."""
        return json_text({"type": "host_key", "key": self.key})


@dataclass(frozen=True)
class RemoteKey:
    """The key that keeps this phone the host's remote (it took the invitation); only that phone gets it."""

    key: str

    def text(self) -> str:
        """The frame as JSON text."""
        return json_text({"type": "remote_key", "key": self.key})


@dataclass(frozen=True)
class Ok:
    """The message was accepted; the ``state`` showing its effect follows."""

    id: Any = None

    def to_json(self) -> dict[str, Any]:
        """The frame as a dict (what a bot without a socket reads)."""
        return {"type": "ok", "id": self.id}

    def text(self) -> str:
        """The frame as JSON text."""
        return json_text(self.to_json())


@dataclass(frozen=True)
class Refused:
    """The engine refused a command; only its sender gets this, and nothing changed."""

    refusal: Refusal
    id: Any = None

    def to_json(self) -> dict[str, Any]:
        """The frame as a dict (what a bot without a socket reads)."""
        return {"type": "refused", "id": self.id, **self.refusal.to_json()}

    def text(self) -> str:
        """The frame as JSON text."""
        return json_text(self.to_json())


@dataclass(frozen=True)
class Error:
    """The server could not accept a message; nothing changed. ``code`` is stable, ``message`` English.

    Where the engine has a word for the problem (a seat that does not exist, the wrong phase) the code is
    the engine's :class:`~quatro_party.engine.refusals.Reason`, so no code means two things.
    """

    code: ErrorCode | Reason
    message: str
    id: Any = None

    def text(self) -> str:
        """The frame as JSON text."""
        return json_text({"type": "error", "id": self.id, "code": self.code.value, "message": self.message})


#: Every message the server sends.
ServerMessage = State | Joined | SeatLink | VipLink | HostKey | RemoteKey | Ok | Refused | Error


def ack_message(ref: Any = None) -> dict[str, Any]:
    """:class:`Ok` as a dict, for a client fed without a socket (the simulator's bots)."""
    return Ok(ref).to_json()


def refused_message(refusal: Refusal, ref: Any = None) -> dict[str, Any]:
    """:class:`Refused` as a dict, for a client fed without a socket (the simulator's bots)."""
    return Refused(refusal, ref).to_json()
