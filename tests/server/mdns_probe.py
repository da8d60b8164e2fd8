"""Run inside a private network namespace (see test_mdns.py): register, then find it again.

Prints one JSON line: what a zeroconf browser on the same machine found.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time

from zeroconf import ServiceBrowser, ServiceListener, Zeroconf

from quatro_party.server.mdns import SERVICE_TYPE, Advertiser


def main() -> int:
    port = int(sys.argv[1])
    adv = Advertiser("127.0.0.1", port, "/", name="Quatro Party on testhost", interfaces=["127.0.0.1"]).start()
    name = adv.wait(10)
    found: dict[str, object] = {"registered": name}
    seen = threading.Event()
    browser_zc = Zeroconf(interfaces=["127.0.0.1"])

    class Listener(ServiceListener):
        def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
            info = zc.get_service_info(type_, name, timeout=3000)
            if info is not None and name.startswith("Quatro Party on"):
                found.update(name=name, port=info.port,
                             addresses=[socket.inet_ntoa(a) for a in info.addresses],
                             path=(info.properties or {}).get(b"path", b"").decode())
                seen.set()

        def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
            pass

        def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
            found["removed"] = name

    browser = ServiceBrowser(browser_zc, SERVICE_TYPE, Listener())
    found["found"] = seen.wait(10)
    t = time.monotonic()
    adv.close()
    found["close_seconds"] = round(time.monotonic() - t, 3)
    time.sleep(0.5)  # let the goodbye packet reach the browser
    browser.cancel()
    browser_zc.close()
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
