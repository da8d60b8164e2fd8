"""The host's configuration: every key :func:`~.app.create_app` and :class:`~.table.Table` understand, with its
default, written once."""

from __future__ import annotations

from typing import Any

from .connection import OUTGOING_LIMIT

#: Defaults of every config key. A table or an app made with a partial config gets these for the rest.
DEFAULTS: dict[str, Any] = {
    "seats": 4,  # R1: 4, 6 or 8
    "seed": None,  # reproducible deals when set
    "time_scale": 1.0,  # every rule duration multiplied by this
    "clock": None,  # () -> float, monotonic; time.monotonic when None
    "host_secret": None,  # random when None; the launcher opens /screen#host=<secret>
    "bot_level": "normal",
    "language": None,  # the table's language (a catalog's code); None: each page speaks its browser's
    "languages": None,  # the catalogs present, code → name; create_app reads web/i18n/ when None
    "join_url": "",  # http://<LAN IP>:<port>/, set by the launcher or the test fixture
    "mdns_name": None,
    "web_dir": None,  # folder of the pages; found in the package or the checkout when None (app.find_web_dir)
    "ping_interval": 5.0,  # seconds: a vanished phone is noticed within about two intervals
    "rate": 20.0,  # messages per second per socket (token bucket refill) …
    "burst": 40.0,  # … and the burst it allows
    "outgoing_limit": OUTGOING_LIMIT,  # frames queued for one socket before it counts as stuck and is dropped
    "bot_factory": None,  # (seat, level, rng) -> bot; quatro_party.bots.make_bot when None
    "journal": None,  # path of the table's journal: a restarted host resumes the table it holds; None: none kept
    "table_class": None,  # the Table class to build (tests pass one with their hooks); Table when None
}


def with_defaults(config: dict[str, Any] | None) -> dict[str, Any]:
    """``config`` completed with :data:`DEFAULTS` (a key given as ``None`` takes its default too)."""
    return {**DEFAULTS, **{k: v for k, v in (config or {}).items() if v is not None}}
