"""A zeroconf listener shared by the mDNS probes: it records the "Quatro Party on …" service it sees."""

from __future__ import annotations

import socket
import threading
from typing import Any

from zeroconf import ServiceListener, Zeroconf


class QuatroListener(ServiceListener):
    """Fills ``found`` (name, port under ``port_key``, addresses, TXT path) and sets ``seen``; sets ``gone``
    and ``found["removed"]`` when the service is withdrawn."""

    def __init__(self, found: dict[str, Any], port_key: str = "port") -> None:
        self.found = found
        self.port_key = port_key
        self.seen = threading.Event()
        self.gone = threading.Event()

    def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        info = zc.get_service_info(type_, name, timeout=3000)
        if info is not None and name.startswith("Quatro Party on"):
            self.found.update(
                {
                    "name": name,
                    self.port_key: info.port,
                    "addresses": [socket.inet_ntoa(a) for a in info.addresses],
                    "path": (info.properties or {}).get(b"path", b"").decode(),
                }
            )
            self.seen.set()

    def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        pass

    def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        if name.startswith("Quatro Party on"):
            self.found.setdefault("removed_name", name)
            self.gone.set()
