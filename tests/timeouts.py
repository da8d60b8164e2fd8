"""The one setting behind every time limit of the tests: ``QUATRO_TEST_TIMEOUT_FACTOR``.

A wait for something that must come (a reply, a state, a page showing a screen) gives up after a limit; on a slow
or busy machine the same thing comes later, and a limit written for an idle laptop fails a healthy run. Every such
limit is written in seconds where it is used and multiplied here by one factor, read from the environment
(default 1)::

    QUATRO_TEST_TIMEOUT_FACTOR=3 python3 launcher.py test

The factor reaches the socket clients of ``live_server`` (tests/conftest.py), Playwright's default limits and
``expect`` (tests/browser/conftest.py), the explicit limits written with :func:`limit` / :func:`limit_ms`, and
pytest-timeout's limit on a whole test. It does not stretch waits that prove something does *not* happen within a
time ("a refusal would be back by now"), nor the game's own timers.
"""

from __future__ import annotations

import os


def _factor() -> float:
    raw = os.environ.get("QUATRO_TEST_TIMEOUT_FACTOR", "").strip()
    if not raw:
        return 1.0
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"QUATRO_TEST_TIMEOUT_FACTOR must be a number, not {raw!r}") from None
    if value <= 0:
        raise ValueError(f"QUATRO_TEST_TIMEOUT_FACTOR must be above 0, not {raw!r}")
    return value


#: What every time limit of a wait is multiplied by.
FACTOR = _factor()


def limit(seconds: float) -> float:
    """A wait's time limit in seconds, stretched by :data:`FACTOR`."""
    return seconds * FACTOR


def limit_ms(seconds: float) -> float:
    """The same limit in milliseconds, for Playwright's ``timeout=`` arguments (written in seconds here)."""
    return seconds * FACTOR * 1000
