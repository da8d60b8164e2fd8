"""The Flask app: static pages from ``web/``, the QR code, and the two WebSocket endpoints.

:func:`create_app` builds everything (flask-sock included) and starts the
table thread; the app's ``extensions["quatro"]`` holds the :class:`~.table.Table`.
Socket handlers do as little as possible: rate-limit, then hand the raw text
to the table thread. Only the table decides anything.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, jsonify, request, send_from_directory
from flask_sock import Sock
from simple_websocket import ConnectionClosed

from .. import protocol as p
from .connection import Connection, TokenBucket
from .qr import png_of, qr_png, qr_svg
from .table import Table

log = logging.getLogger("quatro.server")


def _find_web_dir() -> Path:
    """``web/`` beside the source tree (a checkout, an editable install), else where ``pip install .`` put it."""
    beside = Path(__file__).resolve().parents[2] / "web"
    if beside.is_dir():
        return beside
    return Path(sys.prefix) / "share" / "quatro-party" / "web"


WEB_DIR = _find_web_dir()

#: Defaults of every config key :func:`create_app` understands.
DEFAULTS: dict[str, Any] = {
    "seats": 4,  # R1: 4, 6 or 8
    "seed": None,  # reproducible deals when set
    "time_scale": 1.0,  # every rule duration multiplied by this
    "clock": None,  # () -> float, monotonic; time.monotonic when None
    "host_secret": None,  # random when None; the launcher opens /screen#host=<secret>
    "bot_level": "normal",
    "language": "en",
    "join_url": "",  # http://<LAN IP>:<port>/, set by the launcher or the test fixture
    "mdns_name": None,
    "web_dir": None,  # folder of the pages; ./web when None
    "ping_interval": 5.0,  # seconds: a vanished phone is noticed within about two intervals
    "rate": 20.0,  # messages per second per socket (token bucket refill) …
    "burst": 40.0,  # … and the burst it allows
    "outgoing_limit": 512,  # frames queued for one socket before it counts as stuck and is dropped
    "bot_factory": None,  # (seat, level, rng) -> bot; quatro_party.bots.make_bot when None
    "journal": None,  # path of the table's journal: a restarted host resumes the table it holds; None: none kept
}

#: Seconds between checks that a silent socket is still open (see ``serve``).
RECEIVE_WAKE = 2.0
#: A message this large closes the socket outright (1009); up to it, over 4 KiB gets a ``too_large`` error.
HARD_MESSAGE_LIMIT = 64 * 1024
#: Largest body ``POST /seat-link/qr.png`` reads (a seat link is well under 200 characters).
SEAT_LINK_BODY_LIMIT = 1024


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The whole host as a Flask app. ``config`` keys: see :data:`DEFAULTS`.

    The table thread starts at once; ``app.extensions["quatro"].stop()`` ends it
    (closing every socket with 1001).
    """
    cfg = {**DEFAULTS, **(config or {})}
    web_dir = Path(cfg["web_dir"] or WEB_DIR)
    app = Flask(__name__, static_folder=None)
    app.config["QUATRO"] = cfg
    app.config["SOCK_SERVER_OPTIONS"] = {
        "ping_interval": cfg["ping_interval"],
        "max_message_size": HARD_MESSAGE_LIMIT,
    }
    sock = Sock(app)
    table = Table(cfg).start()
    app.extensions["quatro"] = table

    def page(name: str) -> Response:
        if not (web_dir / name).is_file():
            abort(404)
        resp = send_from_directory(web_dir, name, max_age=0)
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    @app.get("/")
    def phone_page() -> Response:
        return page("phone.html")

    @app.get("/screen")
    def screen_page() -> Response:
        return page("screen.html")

    @app.get("/qr.png")
    def qr_png_route() -> Response:
        return Response(
            qr_png(table.join_url or request.host_url), mimetype="image/png", headers={"Cache-Control": "no-cache"}
        )

    @app.get("/qr.svg")
    def qr_svg_route() -> Response:
        return Response(
            qr_svg(table.join_url or request.host_url), mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"}
        )

    @app.post("/seat-link/qr.png")
    def seat_link_qr() -> Response:
        """The QR code of a seat link (§4.4), for the phone the host sent it to: the other device scans it.

        The phone POSTs ``{"url": <the seat_link's url>}``: a body, not a query string, so the one-time secret
        stays out of access logs, the browser's history and any cache (``no-store``). Only a seat link of this
        host that still works is drawn (else 404): the host is no QR service for any text a page sends it.
        """
        raw = request.stream.read(SEAT_LINK_BODY_LIMIT + 1)
        if len(raw) > SEAT_LINK_BODY_LIMIT:
            abort(413)
        try:
            body = json.loads(raw) if request.mimetype == "application/json" else None
        except ValueError:
            body = None
        url = body.get("url") if isinstance(body, dict) else None
        if not isinstance(url, str):
            abort(400)
        if not table.is_live_seat_link(url):
            abort(404)
        return Response(
            png_of(url), mimetype="image/png", headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
        )

    @app.get("/info.json")
    def info() -> Response:
        """Public facts a page may want before its socket is open."""
        return jsonify({"join_url": table.join_url or request.host_url, "mdns_name": table.mdns_name})

    @app.get("/<path:path>")
    def static_file(path: str) -> Response:
        resp = send_from_directory(web_dir, path, max_age=0)  # 404 when missing; refuses ../
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    def serve(ws: Any, kind: str) -> None:
        conn = Connection(kind, ws, peer=request.remote_addr or "?", outgoing_limit=cfg["outgoing_limit"])
        bucket = TokenBucket(cfg["rate"], cfg["burst"])
        last_flood_error = 0.0
        table.connect(conn)
        try:
            while True:
                # A timeout, not a blocking wait: simple-websocket can set its "message" event just
                # before it marks the socket closed (seen with an oversized message), and a
                # blocking receive() would then never return. Waking every few seconds notices it.
                raw = ws.receive(timeout=RECEIVE_WAKE)
                if raw is None:
                    if not ws.connected:
                        break
                    continue
                if not bucket.take():
                    # Dropped here, before the table sees it; one error a second at most, so a flood
                    # cannot make us flood back.
                    now = time.monotonic()
                    if now - last_flood_error >= 1.0:
                        last_flood_error = now
                        log.warning("%r: flood, dropping messages", conn)
                        conn.send_text(
                            p.json_text(
                                p.error_message("flood", "too many messages: slow down (extra messages are dropped)")
                            )
                        )
                    continue
                table.receive(conn, raw)
        except ConnectionClosed as closed:
            log.debug("%r closed: %s", conn, closed)
        except Exception:  # pragma: no cover - a broken socket must never take anything else down
            log.exception("%r: socket handler failed", conn)
        finally:
            table.disconnect(conn)
            conn.finish()

    @sock.route("/ws/phone")
    def ws_phone(ws: Any) -> None:
        serve(ws, "phone")

    @sock.route("/ws/screen")
    def ws_screen(ws: Any) -> None:
        serve(ws, "screen")

    return app


def table_of(app: Flask) -> Table:
    """The :class:`Table` of an app made by :func:`create_app`."""
    return app.extensions["quatro"]


__all__ = ["create_app", "table_of", "DEFAULTS", "WEB_DIR"]
