"""Run inside a private network namespace (see test_mdns_qr.py): the real launcher announces the table.

A veth pair gives the namespace a LAN-like address (10.99.0.1); multicast stays inside it.
Starts ``quatro_party.launch``, finds "Quatro Party on …" with a zeroconf browser, sends
Ctrl-C, and checks the service is withdrawn. Prints one JSON line.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

from zeroconf import ServiceBrowser, ServiceListener, Zeroconf

SERVICE = "_http._tcp.local."


def main() -> int:
    env = {**os.environ}
    proc = subprocess.Popen([sys.executable, "-m", "quatro_party.launch", "--port", "0", "--no-browser",
                             "--host-ip", "10.99.0.1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    out = ""
    assert proc.stdout is not None
    for line in proc.stdout:
        out += line
        if line.startswith("Port "):
            break
    port = int(out.split("Port ")[1].split(".")[0])
    found: dict[str, object] = {"port": port}
    seen, gone = threading.Event(), threading.Event()

    class Listener(ServiceListener):
        def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
            info = zc.get_service_info(type_, name, timeout=3000)
            if info is not None and name.startswith("Quatro Party on"):
                found.update(name=name, service_port=info.port,
                             addresses=[socket.inet_ntoa(a) for a in info.addresses],
                             path=(info.properties or {}).get(b"path", b"").decode())
                seen.set()

        def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
            pass

        def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
            if name.startswith("Quatro Party on"):
                gone.set()

    zc = Zeroconf(interfaces=["10.99.0.2"])
    browser = ServiceBrowser(zc, SERVICE, Listener())
    found["found"] = seen.wait(15)
    t = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        found["exit_code"] = proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        found["exit_code"] = "timeout"
    found["stop_seconds"] = round(time.monotonic() - t, 3)
    found["removed"] = gone.wait(5)
    browser.cancel()
    zc.close()
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
