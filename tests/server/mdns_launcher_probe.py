"""Run inside a private network namespace (see test_mdns_qr.py): the real launcher announces the table.

A veth pair gives the namespace a LAN-like address (10.99.0.1); multicast stays inside it.
Starts ``quatro_party.launch``, finds "Quatro Party on …" with a zeroconf browser, sends
Ctrl-C, and checks the service is withdrawn. Prints one JSON line.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from zeroconf import ServiceBrowser, Zeroconf

from tests.server.mdns_listen import QuatroListener

SERVICE = "_http._tcp.local."


def main() -> int:
    env = {**os.environ}
    proc = subprocess.Popen(
        [sys.executable, "-m", "quatro_party.launch", "--port", "0", "--no-browser", "--host-ip", "10.99.0.1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    out = ""
    assert proc.stdout is not None
    for line in proc.stdout:
        out += line
        if line.startswith("Port "):
            break
    port = int(out.split("Port ")[1].split(".")[0])
    found: dict[str, object] = {"port": port}
    listener = QuatroListener(found, port_key="service_port")
    zc = Zeroconf(interfaces=["10.99.0.2"])
    browser = ServiceBrowser(zc, SERVICE, listener)
    found["found"] = listener.seen.wait(15)
    t = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        found["exit_code"] = proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        found["exit_code"] = "timeout"
    found["stop_seconds"] = round(time.monotonic() - t, 3)
    found["removed"] = listener.gone.wait(5)
    found.pop("removed_name", None)
    browser.cancel()
    zc.close()
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
