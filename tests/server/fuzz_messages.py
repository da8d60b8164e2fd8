"""What the fuzzers of incoming messages draw from (tests/server/test_protocol_fast.py, tests/server/test_table.py):
one list of the fields the wire knows, so that a field the protocol gains is fuzzed by both, and JSON-like values
built on each fuzzer's own scalars (each needs other edge values)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from quatro_party.protocol import HOST_ACTION_TYPES, PHONE_ACTION_TYPES

#: Every message type a client may send, and one that does not exist.
TYPES = ("hello", "join", "leave", *PHONE_ACTION_TYPES, *HOST_ACTION_TYPES, "nope")

#: The keys both fuzzers put in messages: every field of the phone's messages (hello, join, the actions), the
#: host's ``count`` and ``level``, and the ``id`` any message may carry. Each fuzzer adds the keys its path reads.
FIELDS = (
    "seat",
    "name",
    "card",
    "place",
    "expected",
    "sign",
    "emoji",
    "confirmed",
    "team",
    "accept",
    "count",
    "level",
    "token",
    "id",
)


def json_values(scalars: st.SearchStrategy[Any], max_leaves: int) -> st.SearchStrategy[Any]:
    """``scalars``, and small lists and objects of them, nested."""
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
        max_leaves=max_leaves,
    )
