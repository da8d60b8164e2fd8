"""Bots that play Quatro honestly: a phone's eyes and hands, nothing more (R3, R13, R30).

The host (or the simulator) drives a bot with three calls and nothing else::

    bot = make_bot(seat, "hard", random.Random(seed))
    bot.observe(message, now)   # every server→client message a phone in that seat gets (stored until a look)
    bot.next_wake()             # when it next wants to look or act (absolute time, or None)
    bot.wake(now)               # -> phone protocol messages to send now, e.g. {"type": "swap", ...}

A bot looks at the table at moments (a glance when it notices a change, at most once per level-dependent
``look_gap``) and thinks on what it saw after its reaction delay (:mod:`.eyes` explains). The simulator may skip
the messages a bot never looks at: ``bot.notice(now)`` tells it the table changed (no content), and when
``bot.wants_view(now)`` it sends the latest state with the events since the last one it sent.

People do not speed up with the table: at a table run faster (a host's ``--time-scale``), a bot's reactions and
taps stay real seconds (:mod:`.pace`) unless it is made with ``human_pace=False``, the explicit choice of
simulations and tests of a whole sped-up table.

The messages it sends go through the same parse and validation path as a phone's
(``protocol.parse_phone`` → ``protocol.to_command``), so a bot has exactly a phone's powers and cooldowns.

The modules, one reason to change each: :mod:`.pace` (every fixed duration, the two clocks), :mod:`.eyes`
(perception), :mod:`.memory` (what it knows), :mod:`.hands` (what it sent), :mod:`.calls`, :mod:`.channel` and
:mod:`.swaps` (the policy's three parts), :mod:`.policy` (their order), :mod:`.levels` (each level's knobs and
judgement), :mod:`.bot` (the composition and the API), :mod:`.newcomer` (the simulator's first-time player).
"""

from __future__ import annotations

import random

from .bot import Bot, Senses
from .calls import Calls
from .channel import Channel
from .levels import LEVELS, Level
from .pace import CALL_HOLD, MIN_REACTION
from .policy import BotSigner, Policy
from .swaps import Collector, Exchanges


def compose(seat: int, level: Level, rng: random.Random, human_pace: bool = True) -> Bot:
    """A bot of ``level`` for ``seat``: its senses, its level's judgement, and the policy's parts on them."""
    senses = Senses(seat, rng, level, human_pace)
    pace, memory, hands = senses.pace, senses.memory, senses.hands
    judgement = level.judgement(memory, pace)
    exchanges = Exchanges(memory, hands)
    channel = Channel(level, rng, pace, memory, hands)
    calls = Calls(level, rng, pace, memory, hands, exchanges, judgement)
    collector = Collector(level, rng, pace, memory, hands, exchanges, channel, judgement)
    policy = Policy(memory, hands, exchanges, calls, channel, collector, BotSigner(rng, memory, hands))
    return Bot(seat, level.name, senses, policy)


def make_bot(seat: int, level: str, rng: random.Random, *, human_pace: bool = True) -> Bot:
    """A bot for ``seat`` at ``level`` ("easy", "normal" or "hard"), drawing all its dice from ``rng``.

    ``human_pace`` (the default, the live table's): its reactions and taps stay real seconds at a table run
    faster, as people's do. ``False``: they speed up with the table too — the explicit choice of simulations and
    tests of a whole sped-up table."""
    try:
        chosen = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r} (choose from {', '.join(LEVELS)})") from None
    if not isinstance(rng, random.Random):
        raise TypeError("a bot needs its own random.Random")
    return compose(seat, chosen, rng, human_pace)


__all__ = ["Bot", "CALL_HOLD", "LEVELS", "MIN_REACTION", "compose", "make_bot"]
