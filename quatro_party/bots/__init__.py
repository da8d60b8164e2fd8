"""Bots that play Quatro honestly: a phone's eyes and hands, nothing more (R3, R13, R30).

The host (or the simulator) drives a bot with three calls and nothing else::

    bot = make_bot(seat, "hard", random.Random(seed))
    bot.observe(message, now)   # every server→client message a phone in that seat gets (stored until a look)
    bot.next_wake()             # when it next wants to look or act (absolute time, or None)
    bot.wake(now)               # -> phone protocol messages to send now, e.g. {"type": "swap", ...}

A bot looks at the table at moments (a glance when it notices a change, at most once per level-dependent
``look_gap``) and thinks on what it saw after its reaction delay (``core`` explains). The simulator may skip
the messages a bot never looks at: ``bot.notice(now)`` tells it the table changed (no content), and when
``bot.wants_view(now)`` it sends the latest state with the events since the last one it sent.

The messages it sends go through the same parse and validation path as a phone's
(``protocol.parse_phone`` → ``protocol.to_command``), so a bot has exactly a phone's powers and cooldowns.
"""

from __future__ import annotations

import random

from .core import MIN_REACTION, Bot
from .levels import EasyBot, HardBot, NormalBot
from .policy import PlayingBot

#: The levels a host may choose, weakest first.
LEVELS: dict[str, type[PlayingBot]] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}


def make_bot(seat: int, level: str, rng: random.Random) -> Bot:
    """A bot for ``seat`` at ``level`` ("easy", "normal" or "hard"), drawing all its dice from ``rng``."""
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})") from None
    if not isinstance(rng, random.Random):
        raise TypeError("a bot needs its own random.Random")
    return cls(seat, rng)


__all__ = ["Bot", "EasyBot", "HardBot", "LEVELS", "MIN_REACTION", "NormalBot", "make_bot"]
