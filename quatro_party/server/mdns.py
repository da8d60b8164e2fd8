"""Announcing the table on the LAN with mDNS / DNS-SD (zeroconf), as a bonus to the QR code.

The service is ``_http._tcp.local.``, named "Quatro Party on <hostname>", with the
page path in its TXT record, so LAN browsers and apps that list HTTP services find it.
Registration probes the network for ~1.6 s (measured on a laptop), so :meth:`Advertiser.start`
runs it on a background thread; the QR code with the plain IP is what phones rely on.
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger("quatro.mdns")

SERVICE_TYPE = "_http._tcp.local."


def service_name(hostname: str | None = None) -> str:
    """``"Quatro Party on <hostname>"`` (the instance name, without the service type)."""
    host = (hostname or socket.gethostname()).split(".")[0] or "this computer"
    return f"Quatro Party on {host}"[:63]  # DNS label limit


class Advertiser:
    """Registers the service off the main path and unregisters it on :meth:`close`.

    ``interfaces`` is passed to ``Zeroconf`` (tests use ``["127.0.0.1"]`` inside a
    private network namespace). ``on_registered(name)`` is called with the final
    instance name (zeroconf renames it on a clash).
    """

    def __init__(
        self,
        ip: str,
        port: int,
        path: str = "/",
        name: str | None = None,
        interfaces: list[str] | None = None,
        on_registered: Callable[[str], None] | None = None,
    ) -> None:
        self.ip, self.port, self.path = ip, port, path
        self.name = name or service_name()
        self.interfaces = interfaces
        self.on_registered = on_registered
        self.registered_name: str | None = None
        self._zc: Any = None  # a zeroconf.Zeroconf once registering (zeroconf is imported off the main path)
        self._info: Any = None  # its zeroconf.ServiceInfo once registered
        self._lock = threading.Lock()
        self._closed = False
        self._thread: threading.Thread | None = None

    def start(self) -> Advertiser:
        self._thread = threading.Thread(target=self._register, name="quatro-mdns", daemon=True)
        self._thread.start()
        return self

    def wait(self, timeout: float | None = None) -> str | None:
        """Wait for the registration to end; the registered name, or ``None`` if it failed."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self.registered_name

    def _register(self) -> None:
        try:
            from zeroconf import IPVersion, ServiceInfo, Zeroconf

            host = socket.gethostname().split(".")[0] or "quatro"
            info = ServiceInfo(
                SERVICE_TYPE,
                f"{self.name}.{SERVICE_TYPE}",
                addresses=[socket.inet_aton(self.ip)],
                port=self.port,
                properties={"path": self.path},
                server=f"{host}.local.",
            )
            kwargs: dict[str, Any] = {"ip_version": IPVersion.V4Only}
            if self.interfaces is not None:
                kwargs["interfaces"] = self.interfaces
            zc = Zeroconf(**kwargs)
            with self._lock:
                if self._closed:
                    zc.close()
                    return
                self._zc = zc
            zc.register_service(info, allow_name_change=True)  # renames on a clash instead of failing
            with self._lock:
                self._info = info
                if self._closed:  # closed while probing: undo at once
                    self._unregister_locked()
                    return
            self.registered_name = info.name[: -len(SERVICE_TYPE) - 1]
            log.info("mDNS: registered %r on %s:%s", self.registered_name, self.ip, self.port)
            if self.on_registered:
                self.on_registered(self.registered_name)
        except Exception as exc:  # no multicast, no network: the QR code still works
            log.warning("mDNS registration failed: %s", exc)

    def _unregister_locked(self) -> None:
        zc, info, self._zc, self._info = self._zc, self._info, None, None
        if zc is None:
            return
        try:
            if info is not None:
                zc.unregister_service(info)
        except Exception as exc:  # pragma: no cover
            log.warning("mDNS unregister failed: %s", exc)
        finally:
            zc.close()

    def close(self) -> None:
        """Unregister (sends the goodbye packets) and close; safe to call twice, or mid-registration."""
        with self._lock:
            self._closed = True
            self._unregister_locked()
