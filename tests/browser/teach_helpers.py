"""A plain static server for the teaching modules' harness pages: ``web/`` at ``/`` and
``tests/browser/fixtures/`` at ``/fixtures/``, and the word catalogs as the host serves them (``/i18n/…``). No game
server: the attract loop and the coach need none."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from quatro_party.server import catalogs

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript", ".css": "text/css"}

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        if not url.path.startswith("/i18n/"):
            return super().do_GET()
        name = url.path.removeprefix("/i18n/").removesuffix(".json")
        groups = parse_qs(url.query).get("groups", [""])[0]
        found = (
            [{"code": c, "name": n} for c, n in catalogs.languages(WEB).items()]
            if name == "languages"
            else catalogs.catalog(WEB, name, groups.split(",") if groups else None)
        )
        if found is None:
            return self.send_error(404)
        body = json.dumps(found, ensure_ascii=False, separators=(",", ":")).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None

    def translate_path(self, path: str) -> str:
        clean = path.split("?", 1)[0].split("#", 1)[0]
        if clean.startswith("/fixtures/"):
            return str(FIXTURES / clean.removeprefix("/fixtures/"))
        return str(WEB / clean.lstrip("/"))

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass


@contextmanager
def static_server() -> Iterator[str]:
    """``http://127.0.0.1:PORT`` serving ``web/`` and the fixtures, for the length of the block."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Handler))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
