"""The app factory: a Flask app with the host's routes (:mod:`.routes`) around one running table.

:func:`create_app` builds the app, registers the blueprint and starts the table thread; the app's
``extensions["quatro"]`` holds the :class:`~.table.Table`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from flask import Flask

from .config import DEFAULTS, with_defaults
from .routes import bp
from .table import Table

#: A message this large closes the socket outright (1009); up to it, over 4 KiB gets a ``too_large`` error.
HARD_MESSAGE_LIMIT = 64 * 1024


def _find_web_dir() -> Path:
    """``web/`` beside the source tree (a checkout, an editable install), else where ``pip install .`` put it."""
    beside = Path(__file__).resolve().parents[2] / "web"
    if beside.is_dir():
        return beside
    return Path(sys.prefix) / "share" / "quatro-party" / "web"


WEB_DIR = _find_web_dir()


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The whole host as a Flask app. ``config`` keys: see :data:`~.config.DEFAULTS`.

    The table thread starts at once; ``app.extensions["quatro"].stop()`` ends it
    (closing every socket with 1001).
    """
    cfg = with_defaults(config)
    app = Flask(__name__, static_folder=None)
    app.config["QUATRO"] = cfg
    app.config["QUATRO_WEB_DIR"] = Path(cfg["web_dir"] or WEB_DIR)
    app.config["SOCK_SERVER_OPTIONS"] = {"ping_interval": cfg["ping_interval"], "max_message_size": HARD_MESSAGE_LIMIT}
    app.register_blueprint(bp)
    table_class = cfg["table_class"] or Table
    app.extensions["quatro"] = table_class(cfg).start()
    return app


def table_of(app: Flask) -> Table:
    """The :class:`Table` of an app made by :func:`create_app`."""
    table: Table = app.extensions["quatro"]
    return table


__all__ = ["create_app", "table_of", "DEFAULTS", "WEB_DIR"]
