"""Team colours told apart by everybody: under simulated deuteranopia, protanopia and tritanopia (Machado, Oliveira
and Fernandes 2009, severity 1.0) every pair of the four team colours of ``web/common/theme.css`` stays at least
20 apart in CIEDE2000, on top of the shapes and names. Also with normal colour vision, and each colour is at least
WCAG AA (4.5:1) on the plates' dark ink.

(It reads the page's stylesheet, so it lives beside the screen's browser tests; it drives no browser.)
"""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import pytest

THEME = Path(__file__).resolve().parents[2] / "web" / "common" / "theme.css"
PLATE_INK = "#08131d"  # the score chips' and plates' background

#: Machado et al. (2009), severity 1.0, applied to linear RGB.
MACHADO = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
}


def team_colours() -> list[str]:
    css = THEME.read_text(encoding="utf-8")
    found = dict(re.findall(r"--team-(\d):\s*(#[0-9a-fA-F]{6})", css))
    return [found[str(t)] for t in range(4)]


def linear(hex_colour: str) -> list[float]:
    out = []
    for i in (1, 3, 5):
        c = int(hex_colour[i : i + 2], 16) / 255
        out.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return out


def simulate(rgb: list[float], kind: str | None) -> list[float]:
    if kind is None:
        return rgb
    m = MACHADO[kind]
    return [min(1.0, max(0.0, sum(m[r][j] * rgb[j] for j in range(3)))) for r in range(3)]


def lab(rgb: list[float]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of a linear sRGB colour."""
    r, g, b = rgb
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(c1: tuple[float, float, float], c2: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference (Sharma, Wu and Dalal 2005), kL = kC = kH = 1."""
    l1, a1, b1 = c1
    l2, a2, b2 = c2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar**7 / (cbar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dlp, dcp = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    else:
        dhp = h2p - h1p
        if dhp > 180:
            dhp -= 360
        elif dhp < -180:
            dhp += 360
    dhp_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    else:
        hbar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbar - 30))
        + 0.24 * math.cos(math.radians(2 * hbar))
        + 0.32 * math.cos(math.radians(3 * hbar + 6))
        - 0.20 * math.cos(math.radians(4 * hbar - 63))
    )
    dtheta = 30 * math.exp(-(((hbar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbarp**7 / (cbarp**7 + 25**7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp_big / sh) ** 2 + rt * (dcp / sc) * (dhp_big / sh))


def test_ciede2000_matches_the_published_test_pairs():
    """The formula itself, on pairs from Sharma et al.'s table (so a slip in it cannot pass the test below)."""
    assert ciede2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50.0, 2.5, 0.0), (73.0, 25.0, -18.0)) == pytest.approx(27.1492, abs=1e-4)
    assert ciede2000((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514)) == pytest.approx(0.9082, abs=1e-4)


@pytest.mark.parametrize("vision", [None, "deuteranopia", "protanopia", "tritanopia"])
def test_team_colours_stay_apart_under_colour_vision_deficiency(vision):
    colours = team_colours()
    labs = [lab(simulate(linear(c), vision)) for c in colours]
    close = {
        (colours[i], colours[j]): round(ciede2000(labs[i], labs[j]), 1)
        for i, j in itertools.combinations(range(4), 2)
        if ciede2000(labs[i], labs[j]) < 20
    }
    assert close == {}, f"team colours too close under {vision or 'normal vision'}: {close}"


def test_team_colours_are_readable_on_the_plates():
    def luminance(c: str) -> float:
        r, g, b = linear(c)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    ink = luminance(PLATE_INK)
    ratios = {c: round((luminance(c) + 0.05) / (ink + 0.05), 2) for c in team_colours()}
    assert all(r >= 4.5 for r in ratios.values()), ratios
