"""QR codes: of the join URL, for the big screen and the terminal; of a seat link, for the phone that moves."""

from __future__ import annotations

import io
from functools import lru_cache

import qrcode
import qrcode.image.svg


def png_of(url: str) -> bytes:
    """A PNG of ``url`` (big modules and a quiet zone, so a phone reads it from across the room), made anew each
    time: what a secret (a seat link) is drawn with, so that no cache keeps it once it has been used."""
    img = qrcode.make(url, box_size=10, border=4)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


@lru_cache(maxsize=8)
def qr_png(url: str) -> bytes:
    """:func:`png_of`, cached: the join URL's, asked for by every page that shows it."""
    return png_of(url)


@lru_cache(maxsize=8)
def qr_svg(url: str) -> bytes:
    """An SVG of ``url`` (scales to any TV without blur)."""
    img = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=4)
    buf = io.BytesIO()
    img.save(buf)
    return buf.getvalue()


#: Black on white, given outright (256-colour indices 16 and 231, which themes leave alone), then back to the
#: terminal's own colours: a QR drawn in the theme's colours comes out inverted on a light theme (macOS Terminal's
#: default) or a dark one, and many phones do not read an inverted code.
BLACK_ON_WHITE, PLAIN = "\x1b[38;5;16;48;5;231m", "\x1b[0m"

#: Two modules stacked in one character cell (terminal cells are about twice as tall as wide): what the cell
#: draws in its foreground colour, by (top, bottom).
HALF_BLOCKS = {(True, True): "\u2588", (True, False): "\u2580", (False, True): "\u2584", (False, False): " "}


def qr_terminal(url: str, colour: bool = True) -> str:
    """``url`` as a QR code drawn with half-block characters for the launcher's console, one line per two rows of
    modules, with a quiet zone of two modules.

    ``colour``: dark modules in black on a white ground, whatever the terminal's theme (it scans on dark and light
    themes alike). Without colour (an output that takes no escape codes) the theme's colours are all there is:
    the light modules are drawn, which reads right on a dark theme, the usual one where colour is missing (the
    Windows console)."""
    code = qrcode.QRCode(border=2)
    code.add_data(url)
    code.make(fit=True)
    dark = code.get_matrix()  # True: a dark module; the quiet zone included
    if len(dark) % 2:
        dark.append([False] * len(dark[0]))  # below the quiet zone: light
    lines = []
    for top, bottom in zip(dark[::2], dark[1::2]):
        cells = "".join(HALF_BLOCKS[(t, b) if colour else (not t, not b)] for t, b in zip(top, bottom))
        lines.append(f"{BLACK_ON_WHITE}{cells}{PLAIN}" if colour else cells)
    return "\n".join(lines)
