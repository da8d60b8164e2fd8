"""Run inside a private network namespace (see test_mdns.py): register, then find it again.

Prints one JSON line: what a zeroconf browser on the same machine found.
"""

from __future__ import annotations

import json
import sys
import time

from zeroconf import ServiceBrowser, Zeroconf

from quatro_party.server.mdns import SERVICE_TYPE, Advertiser
from tests.server.mdns_listen import QuatroListener


def main() -> int:
    port = int(sys.argv[1])
    adv = Advertiser("127.0.0.1", port, "/", name="Quatro Party on testhost", interfaces=["127.0.0.1"]).start()
    name = adv.wait(10)
    found: dict[str, object] = {"registered": name}
    browser_zc = Zeroconf(interfaces=["127.0.0.1"])

    listener = QuatroListener(found)
    browser = ServiceBrowser(browser_zc, SERVICE_TYPE, listener)
    found["found"] = listener.seen.wait(10)
    t = time.monotonic()
    adv.close()
    found["close_seconds"] = round(time.monotonic() - t, 3)
    listener.gone.wait(0.5)  # let the goodbye packet reach the browser
    found["removed"] = found.pop("removed_name", None)
    browser.cancel()
    browser_zc.close()
    print(json.dumps(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
