"""Quatro Party: the team card game of secret signs, hosted on a laptop and played on phones.

:mod:`quatro_party.engine` holds the rules, :mod:`quatro_party.protocol` the wire messages,
:mod:`quatro_party.server` the host, :mod:`quatro_party.bots` the bots (see docs/architecture.md).
"""

__version__ = "0.2.0"
