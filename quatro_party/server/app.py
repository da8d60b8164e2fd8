"""The app factory: a Flask app with the host's routes (:mod:`.routes`) around one running table.

:func:`create_app` builds the app, registers the blueprint and starts the table thread; the app's
``extensions["quatro"]`` holds the :class:`~.table.Table`.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path
from typing import Any

from flask import Flask

from . import catalogs
from .config import DEFAULTS, with_defaults
from .routes import bp
from .table import Table

#: A message this large closes the socket outright (1009); up to it, over 4 KiB gets a ``too_large`` error.
HARD_MESSAGE_LIMIT = 64 * 1024


#: The pages a host cannot run without: a folder that lacks one of them is not where the pages are.
PAGES = ("phone.html", "screen.html", "rules.html")


def find_web_dir() -> Path | None:
    """The folder of the pages: inside the installed package (``quatro_party/web``, put there by the build: a
    wheel, ``--user``, ``--target``, pipx, the bundle), else ``web/`` at the top of a checkout (run in place, or
    installed editable). ``None`` when neither holds :data:`PAGES`: a host must then say so, not serve 404s."""
    packaged = importlib.resources.files("quatro_party") / "web"
    places = [packaged] if isinstance(packaged, Path) else []  # a zip import has no folder to serve from
    places.append(Path(__file__).resolve().parents[2] / "web")
    for place in places:
        if all((place / page).is_file() for page in PAGES):
            return place
    return None


class PagesNotFound(RuntimeError):
    """The pages are nowhere this host can serve them from (an install that lost them)."""


WEB_DIR = find_web_dir()


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The whole host as a Flask app. ``config`` keys: see :data:`~.config.DEFAULTS`.

    The table thread starts at once; ``app.extensions["quatro"].stop()`` ends it
    (closing every socket with 1001).
    """
    cfg = with_defaults(config)
    app = Flask(__name__, static_folder=None)
    app.config["QUATRO"] = cfg
    web_dir = cfg["web_dir"] or WEB_DIR
    if web_dir is None:
        raise PagesNotFound("the game's pages (web/) are not installed beside quatro_party")
    app.config["QUATRO_WEB_DIR"] = Path(web_dir)
    cfg["languages"] = cfg["languages"] or catalogs.languages(Path(web_dir))
    app.config["SOCK_SERVER_OPTIONS"] = {"ping_interval": cfg["ping_interval"], "max_message_size": HARD_MESSAGE_LIMIT}
    app.register_blueprint(bp)
    table_class = cfg["table_class"] or Table
    app.extensions["quatro"] = table_class(cfg).start()
    return app


def table_of(app: Flask) -> Table:
    """The :class:`Table` of an app made by :func:`create_app`."""
    table: Table = app.extensions["quatro"]
    return table


__all__ = ["create_app", "table_of", "find_web_dir", "DEFAULTS", "PAGES", "PagesNotFound", "WEB_DIR"]
