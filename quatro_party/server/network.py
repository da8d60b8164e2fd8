"""Finding the address phones should use: the LAN IPv4 of this machine.

Phones cannot all resolve ``.local`` names (Android before 12, private-DNS and VPN apps), so the QR code carries
``http://<LAN IP>:<port>/``. A laptop may have several addresses (Wi-Fi, VPN,
Docker bridges): :func:`candidates` lists them, best guess first, and the
launcher lets the host pick one with ``--host-ip``.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

#: Adapter names that are rarely the party Wi-Fi (VPNs, containers, VMs).
_VIRTUAL_HINTS = (
    "docker",
    "br-",
    "veth",
    "virbr",
    "vmnet",
    "vboxnet",
    "tun",
    "tap",
    "wg",
    "zt",
    "tailscale",
    "utun",
    "hyper-v",
    "vethernet",
    "loopback",
)


@dataclass(frozen=True)
class Address:
    """One IPv4 address of this machine and the adapter it belongs to."""

    ip: str
    adapter: str
    default_route: bool = False

    @property
    def loopback(self) -> bool:
        return ipaddress.ip_address(self.ip).is_loopback

    @property
    def likely_virtual(self) -> bool:
        name = self.adapter.lower()
        return any(h in name for h in _VIRTUAL_HINTS)


def default_route_ip() -> str | None:
    """The address of the interface holding the default route, or ``None``.

    A UDP socket "connected" to an outside address sends nothing but makes the OS
    pick the outgoing interface; that may be a VPN, hence :func:`candidates`.
    """
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real, and no packet is sent
        ip = s.getsockname()[0]
        return None if ip.startswith("0.") else ip
    except OSError:
        return None
    finally:
        s.close()


def candidates() -> list[Address]:
    """Every IPv4 address of this machine, best guess for "the party Wi-Fi" first, loopback last."""
    found: dict[str, Address] = {}
    route = default_route_ip()
    try:
        import ifaddr

        for adapter in ifaddr.get_adapters():
            for ip in adapter.ips:
                if isinstance(ip.ip, str) and not ip.ip.startswith("169.254."):
                    name = adapter.nice_name or adapter.name
                    found.setdefault(ip.ip, Address(ip.ip, str(name), ip.ip == route))
    except Exception:  # ifaddr missing or failing: the default-route guess is still useful
        pass
    if route and route not in found:
        found[route] = Address(route, "?", True)
    found.setdefault("127.0.0.1", Address("127.0.0.1", "loopback"))

    def rank(a: Address) -> tuple[int, int, int, int]:
        private = ipaddress.ip_address(a.ip).is_private
        return (a.loopback, not a.default_route, a.likely_virtual, not private)

    return sorted(found.values(), key=rank)


def lan_ip() -> str:
    """The best guess for the LAN address; ``127.0.0.1`` only when the machine has nothing else."""
    return candidates()[0].ip
