"""Which host names the host answers to: the join URL's, the loopback names and the mDNS name, nothing else.

A web page any guest opens on any device of the LAN could otherwise open the table's sockets (a
WebSocket is not bound by the same-origin policy: the server must look at ``Origin`` itself), and a
DNS-rebinding page (its own name resolving to the host's address) could read the pages. Both are told
apart by the names they use: a page of this host sends ``Origin: http://<one of its names>:<port>`` and
``Host: <one of its names>:<port>``, the same name and port; an outside page sends its own origin. The origin is
compared whole (scheme, name and port): another server on the host machine, or any port of an allowed name, is
another site.

A request without ``Origin`` is not from a web page (a script, a bot, ``curl``): whoever can do that on
the LAN can open a socket anyway, and the rate limits are there for them. ``Origin: null`` (a sandboxed
frame, a ``file:`` page) is refused.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

#: Names of the host machine itself, always accepted (the TV runs on it: ``http://127.0.0.1:port/screen``).
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})


def mdns_host_name() -> str:
    """The ``<hostname>.local`` name the mDNS announcement carries (see ``mdns.Advertiser``)."""
    return f"{socket.gethostname().split('.')[0] or 'quatro'}.local"


def _name(host: str) -> str:
    """A host name as compared: lower case, no trailing dot, IPv6 without brackets."""
    host = host.strip().lower().rstrip(".")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return host


def _split_host(value: str) -> str | None:
    """The name part of a ``Host`` header (``name``, ``name:port``, ``[v6]:port``); ``None`` if malformed."""
    value = value.strip()
    if not value or any(c.isspace() or c in "/?#@\\" for c in value):
        return None
    try:
        parsed = urlsplit("//" + value)
        name = parsed.hostname
        parsed.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return None
    return _name(name) if name else None


def is_loopback(name: str) -> bool:
    """True for the loopback names and addresses (``localhost``, 127.0.0.0/8, ``::1``)."""
    name = _name(name)
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class HostPolicy:
    """The host names this host answers to. ``names``: the join URL's host and the mDNS name (more may be added
    when they become known: :meth:`allow`); loopback is always allowed."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._names: set[str] = set()
        for n in names:
            self.allow(n)

    def allow(self, name_or_url: str | None) -> None:
        """Accept one more name: a bare host name, or a URL (``http://192.168.1.20:8765/``) whose host is taken."""
        if not name_or_url:
            return
        text = name_or_url.strip()
        name = urlsplit(text).hostname if "//" in text else _split_host(text)
        if name:
            self._names.add(_name(name))

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self._names)

    def name_ok(self, name: str) -> bool:
        name = _name(name)
        return name in self._names or is_loopback(name)

    def host_ok(self, host_header: str | None) -> bool:
        """Whether a request's ``Host`` header names this host (a missing one is refused: HTTP/1.1 requires it)."""
        if not host_header:
            return False
        name = _split_host(host_header)
        return name is not None and self.name_ok(name)

    def origin_ok(self, origin: str | None, host_header: str | None = None) -> bool:
        """Whether a request's ``Origin`` is a page of this host; no ``Origin`` at all (not a browser) is fine.

        A page of this host has the same origin as the request it makes (the pages open their sockets on their
        own address): ``http``, the ``Host`` header's name and its port, compared all three. Without a ``Host``
        to compare with, the name alone must be one of this host's.
        """
        if origin is None:
            return True
        try:
            parsed = urlsplit(origin.strip())
            port = parsed.port
        except ValueError:
            return False
        if parsed.scheme != "http" or not parsed.hostname or parsed.path not in ("", "/"):
            return False
        if parsed.username is not None or parsed.password is not None or parsed.query or parsed.fragment:
            return False
        if not self.name_ok(parsed.hostname):
            return False
        if host_header is None:
            return True
        own = _split_origin(host_header)
        return own is not None and own == (_name(parsed.hostname), port or HTTP_PORT)


#: The port of an ``http`` origin that names none.
HTTP_PORT = 80


def _split_origin(host_header: str) -> tuple[str, int] | None:
    """The name and port a ``Host`` header gives (port 80 when it names none); ``None`` if malformed."""
    name = _split_host(host_header)
    if name is None:
        return None
    try:
        port = urlsplit("//" + host_header.strip()).port
    except ValueError:
        return None
    return name, port or HTTP_PORT


# --- on the routes (Flask) -------------------------------------------------------------------------

#: The headers every answer carries. The pages load only their own scripts, styles and images (no inline
#: script: a name that slipped through escaping could not run), cannot be framed (clickjacking the host's
#: controls), and a file is never read as another type than it says.
SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
#: The content security policy of the pages (``{ws}`` is the page's own WebSocket origin).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; "
    "connect-src 'self' {ws}; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def policy_of(join_url: str | None) -> HostPolicy:
    """The names a host with this join URL answers to: its host, the mDNS name, loopback."""
    return HostPolicy([join_url or "", mdns_host_name()])


def check_request() -> Any:
    """``before_request`` of the routes: a foreign ``Host`` gets 403 (DNS rebinding), and a foreign ``Origin``
    too (another site's page opening a socket or posting), before any page or socket handshake."""
    from flask import abort, current_app, request

    table = current_app.extensions["quatro"]
    policy = policy_of(getattr(table, "join_url", ""))
    if not policy.host_ok(request.headers.get("Host")):
        abort(403, description="this host answers only to its own address")
    if not policy.origin_ok(request.headers.get("Origin"), request.headers.get("Host")):
        abort(403, description="pages of other sites may not use this host")
    return None


def add_headers(response: Any) -> Any:
    """``after_request`` of the routes: :data:`SECURITY_HEADERS`, and the CSP on HTML pages."""
    from flask import request

    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if response.mimetype == "text/html":
        response.headers.setdefault("Content-Security-Policy", CSP.format(ws=f"ws://{request.host}"))
    return response
