"""Screenshots: the same pixels as Playwright's ``page.screenshot()``, in less time. The layout sweeps take
hundreds of them, and the other tests about three hundred a run, each kept for a person to look at.

Playwright asks Chromium for its best PNG compression; Chromium's ``optimizeForSpeed`` encodes the same pixels
with a faster zlib level (files about 1.5× larger). Measured on this project's 2-core machine, busy, median of 5
(Playwright's screenshot → this one): 1366×768 680 → 360 ms, 3840×2160 4.6 → 1.7 s, 1920×1080 at device pixel
ratio 2 4.4 → 1.1 s. The images were compared pixel by pixel: identical at every one of those sizes. In processor
time (the browser's processes and Playwright's driver, idle machine, mean of 12): a 1920×1080 TV 0.28 → 0.09 CPU-s,
a 390×844 phone at ratio 2 0.26 → 0.09, its pixels identical.

Chromium captures at the device pixel ratio its DevTools session emulates, so the session given to
:class:`Camera` emulates exactly what Playwright set for the page (viewport, screen, ratio, orientation) before
each picture: the page sees nothing change.
"""

from __future__ import annotations

import base64
import os
import weakref
from pathlib import Path
from typing import Any

#: Whether the sweeps keep every picture. They take hundreds (every state at every size), which cost about 40 % of
#: the sweeps' time (the TV's English sweep and the phone's four-seat one: 94 s with them, 57 s without, median of 2
#: pairs, farm-bench on this 2-core machine): by default a sweep keeps only the pictures of a state and size whose
#: check failed. ``QUATRO_SWEEP_SHOTS=1`` keeps them all, to look at.
SWEEP_SHOTS = os.environ.get("QUATRO_SWEEP_SHOTS", "") not in ("", "0")


class Camera:
    """Takes screenshots of one page, whose context has ``device_scale_factor`` and ``is_mobile`` as given here."""

    def __init__(self, page: Any, device_scale_factor: float = 1, mobile: bool = False) -> None:
        self.page = page
        self.scale = device_scale_factor
        self.mobile = mobile
        self.session = page.context.new_cdp_session(page)

    def shoot(self, path: Path | str, failed: bool = False) -> None:
        """The page's viewport as a PNG at ``path``: when its check ``failed``, or when every picture is wanted
        (:data:`SWEEP_SHOTS`)."""
        if failed or SWEEP_SHOTS:
            self.take(path)

    def take(self, path: Path | str) -> None:
        """The page's viewport as a PNG at ``path``."""
        size = self.page.viewport_size
        sideways = size["width"] > size["height"]
        orientation = {"angle": 90, "type": "landscapePrimary"} if sideways else {"angle": 0, "type": "portraitPrimary"}
        self.session.send(
            "Emulation.setDeviceMetricsOverride",
            {
                "mobile": self.mobile,
                "width": size["width"],
                "height": size["height"],
                "screenWidth": size["width"],
                "screenHeight": size["height"],
                "deviceScaleFactor": self.scale,
                "screenOrientation": orientation if self.mobile else {"angle": 0, "type": "landscapePrimary"},
            },
        )
        shot = self.session.send(
            "Page.captureScreenshot",
            {
                "format": "png",
                "optimizeForSpeed": True,
                "captureBeyondViewport": False,
                "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1},
            },
        )
        Path(path).write_bytes(base64.b64decode(shot["data"]))


_CAMERAS: weakref.WeakKeyDictionary[Any, Camera] = weakref.WeakKeyDictionary()
#: What each browser context emulates, (device pixel ratio, mobile), as the session's ``new_context`` made it.
_DEVICES: weakref.WeakKeyDictionary[Any, tuple[float, bool]] = weakref.WeakKeyDictionary()


def remember_device(context: Any, device_scale_factor: float | None, mobile: bool | None) -> None:
    """Note what ``context`` emulates (Playwright's own defaults where ``None``), for :func:`camera_of`."""
    _DEVICES[context] = (device_scale_factor or 1, bool(mobile))


def camera_of(page: Any) -> Camera:
    """The :class:`Camera` of ``page`` (made on first use, with what its context emulates). The page's context must
    come from the ``chromium`` fixture."""
    camera = _CAMERAS.get(page)
    if camera is None:
        camera = _CAMERAS[page] = Camera(page, *_DEVICES[page.context])
    return camera


def snap(page: Any, path: Path | str) -> Path:
    """``page``'s viewport as a PNG at ``path``, as ``page.screenshot(path=…)`` takes it, through the page's
    :class:`Camera`; returns ``path``."""
    camera_of(page).take(path)
    return Path(path)
