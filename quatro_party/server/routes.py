"""The host's routes, as one Flask blueprint: the pages of ``web/``, the QR codes, and the two WebSockets.

Socket handlers do as little as possible: rate-limit, then hand the raw text to the table thread.
Only the table decides anything. The app factory (:func:`~.app.create_app`) registers :data:`bp`
and puts the table in ``app.extensions["quatro"]``.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, send_from_directory
from flask_sock import Sock
from simple_websocket import ConnectionClosed

from .. import protocol as p
from . import catalogs
from .connection import Connection, TokenBucket
from .origin import add_headers, check_request
from .qr import png_of, qr_png, qr_svg
from .table import Table

log = logging.getLogger("quatro.server")

#: Seconds between checks that a silent socket is still open (see :func:`serve`).
RECEIVE_WAKE = 2.0
#: Largest body ``POST /seat-link/qr.png`` reads (a seat link is well under 200 characters).
SEAT_LINK_BODY_LIMIT = 1024

bp = Blueprint("quatro", __name__)
sock = Sock()
# Host and Origin first (a foreign one gets 403 before any page or handshake), headers on every answer: app-wide,
# so that the answers no route gives (404 of an unknown path, 405 of a wrong method) are checked and dressed too.
bp.before_app_request(check_request)
bp.after_app_request(add_headers)


def _table() -> Table:
    table: Table = current_app.extensions["quatro"]
    return table


def _web_file(name: str) -> Response:
    """A file of ``web/`` (404 when missing; ``send_from_directory`` refuses ``../``), never cached stale."""
    web_dir: Path = current_app.config["QUATRO_WEB_DIR"]
    if not (web_dir / name).is_file():
        abort(404)
    resp = send_from_directory(web_dir, name, max_age=0)
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/")
def phone_page() -> Response:
    """The phone controller."""
    return _web_file("phone.html")


@bp.get("/screen")
def screen_page() -> Response:
    """The big screen."""
    return _web_file("screen.html")


@bp.get("/rules")
def rules_page() -> Response:
    """The players' rules in one language: ``?lang=fr`` serves ``rules.fr.html`` where there is one, else the
    browser's first language that has a page (``Accept-Language``), else English (``rules.html``)."""
    web_dir: Path = current_app.config["QUATRO_WEB_DIR"]
    pages = {p.name.split(".")[1] for p in web_dir.glob("rules.*.html")}
    asked = request.args.get("lang", "")
    if not asked:
        asked = request.accept_languages.best_match(["en", *sorted(pages)], default="en").split("-")[0]
    if asked in pages and catalogs.LANGUAGE_CODE.match(asked):
        return _web_file(f"rules.{asked}.html")
    return _web_file("rules.html")


@bp.get("/i18n/languages.json")
def i18n_languages() -> Response:
    """Every catalog present: ``[{"code": "en", "name": "English"}, …]``, the pickers' list."""
    found = catalogs.languages(current_app.config["QUATRO_WEB_DIR"])
    return _json_no_cache([{"code": code, "name": name} for code, name in found.items()])


@bp.get("/i18n/<lang>.json")
def i18n_catalog(lang: str) -> Response:
    """One catalog: the file itself; with ``?groups=common,phone`` only those groups (the phone's page weight),
    English for a key it lacks. ``pseudo`` is made here (English wrapped)."""
    groups = request.args.get("groups")
    if not groups and lang != catalogs.PSEUDO:
        return _web_file(f"i18n/{lang}.json") if catalogs.LANGUAGE_CODE.match(lang) else abort(404)
    found = catalogs.catalog(current_app.config["QUATRO_WEB_DIR"], lang, groups.split(",") if groups else None)
    if found is None:
        abort(404)
    return _json_no_cache(found)


def _json_no_cache(data: object) -> Response:
    resp = Response(json.dumps(data, ensure_ascii=False, separators=(",", ":")), mimetype="application/json")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/qr.png")
def qr_png_route() -> Response:
    """The join URL's QR code as a PNG."""
    url = _table().join_url or request.host_url
    return Response(qr_png(url), mimetype="image/png", headers={"Cache-Control": "no-cache"})


@bp.get("/qr.svg")
def qr_svg_route() -> Response:
    """The join URL's QR code as SVG (scales on a TV)."""
    url = _table().join_url or request.host_url
    return Response(qr_svg(url), mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"})


@bp.post("/seat-link/qr.png")
def seat_link_qr() -> Response:
    """The QR code of a seat link, for the phone the host sent it to: the other device scans it.

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
    if not _table().is_live_seat_link(url):
        abort(404)
    return Response(
        png_of(url), mimetype="image/png", headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
    )


@bp.get("/info.json")
def info() -> Response:
    """Public facts a page may want before its socket is open."""
    table = _table()
    return jsonify({"join_url": table.join_url or request.host_url, "mdns_name": table.mdns_name})


@bp.get("/<path:path>")
def static_file(path: str) -> Response:
    """Any other file of ``web/``."""
    resp = send_from_directory(current_app.config["QUATRO_WEB_DIR"], path, max_age=0)  # 404 when missing
    resp.headers["Cache-Control"] = "no-cache"
    return resp


def serve(ws: Any, kind: str) -> None:
    """One socket's reader, for its whole life: rate-limit each message, then post it to the table."""
    table, cfg = _table(), current_app.config["QUATRO"]
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
                    flood = p.Error(p.ErrorCode.FLOOD, "too many messages: slow down (extra messages are dropped)")
                    conn.send_text(flood.text())
                continue
            table.receive(conn, raw)
    except ConnectionClosed as closed:
        log.debug("%r closed: %s", conn, closed)
    except Exception:  # pragma: no cover - a broken socket must never take anything else down
        log.exception("%r: socket handler failed", conn)
    finally:
        table.disconnect(conn)
        conn.finish()


@sock.route("/ws/phone", bp=bp)
def ws_phone(ws: Any) -> None:
    """A phone's socket (and anything else that plays a seat)."""
    serve(ws, "phone")


@sock.route("/ws/screen", bp=bp)
def ws_screen(ws: Any) -> None:
    """A big screen's socket (the host's, or a watching one)."""
    serve(ws, "screen")
