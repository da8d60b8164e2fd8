"""The host: a Flask + flask-sock server around one table (see ``docs/protocol.md``).

* :func:`create_app` — the Flask app (pages, QR code, ``/ws/phone``, ``/ws/screen``).
* :class:`Table` — the actor that owns the engine, the seats' tokens and the bots.
* :class:`ServerThread` — the app on a real socket, in a background thread.
"""

from .app import create_app, table_of
from .config import DEFAULTS
from .serving import ServerThread
from .table import Table

__all__ = ["DEFAULTS", "ServerThread", "Table", "create_app", "table_of"]
