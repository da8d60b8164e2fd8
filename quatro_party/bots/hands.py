"""A bot's hands: the phone messages it sent and awaits an answer to, when its buttons work again, and when it
means to act next.

Every message goes through :func:`~quatro_party.protocol.action_message` with an id, as a phone's does, and is
remembered until its ``ok`` / ``refused`` is perceived (or :data:`~.pace.PENDING_TIMEOUT` passes without a
reply: the host may have dropped it).
"""

from __future__ import annotations

from typing import Any

from ..protocol import action_message


class Hands:
    """Actions in flight, the cooldowns the view and refusals told of, and the bot's own wake-up plan."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self._serial = 0
        # id -> (sent_at, message), in the order sent (times never go back): the first is the oldest
        self.sent: dict[str, tuple[float, dict[str, Any]]] = {}
        self.kinds: dict[str, int] = {}  # message type -> how many of them are pending
        # pending actions whose reply came and is not perceived yet: they never time out (a slow glance must not
        # forget a refusal it already holds, or a refused call would never be sent again)
        self.answered: set[str] = set()
        self.swap_block_until = float("-inf")  # R15: no exchange before this (the view's swap_wait, a refusal)
        self.channel_block_until = float("-inf")  # R17: no channel before this
        self.timer: float | None = None  # own plan: when to look again without news

    def send(self, kind: str, now: float, **fields: Any) -> dict[str, Any]:
        """A phone message with an id, remembered until its ``ok``/``refused`` comes back."""
        self._serial += 1
        ref = f"b{self.seat}.{self._serial}"
        msg = action_message(kind, **fields)
        msg["id"] = ref
        self.sent[ref] = (now, msg)
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        return msg

    def forget(self, ref: str) -> None:
        """The action ``ref`` was answered, or is given up."""
        found = self.sent.pop(ref, None)
        self.answered.discard(ref)
        if found is not None:
            kind = found[1]["type"]
            left = self.kinds[kind] - 1
            if left:
                self.kinds[kind] = left
            else:
                del self.kinds[kind]

    def pending(self, kind: str) -> bool:
        """Is an action of this kind sent and not yet answered?"""
        return kind in self.kinds

    def reply_came(self, ref: str) -> dict[str, Any] | None:
        """A reply to ``ref`` arrived (not perceived yet): that action no longer times out. The message sent, if
        it is pending."""
        found = self.sent.get(ref)
        if found is None:
            return None
        self.answered.add(ref)
        return found[1]

    def oldest_unanswered(self) -> float | None:
        """When the oldest action with no reply yet was sent (actions are sent in time order), or ``None``."""
        answered = self.answered
        for ref, (sent, _) in self.sent.items():
            if ref not in answered:
                return sent
        return None

    def give_up(self, now: float, timeout: float) -> bool:
        """Forget the actions unanswered for ``timeout`` seconds at ``now``; whether there were any."""
        answered = self.answered
        lost = []
        for ref, (sent, _) in self.sent.items():
            if ref in answered:
                continue  # its reply is on its way to our eyes
            if sent + timeout > now:
                break  # young, and so are those sent after it
            lost.append(ref)
        for ref in lost:
            self.forget(ref)
        return bool(lost)

    def plan(self, at: float) -> None:
        """Ask to be woken at ``at`` (the earliest plan wins)."""
        if self.timer is None or at < self.timer:
            self.timer = at
