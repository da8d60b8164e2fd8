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


def qr_terminal(url: str) -> str:
    """``url`` as a QR code drawn with text blocks, for the launcher's console."""
    code = qrcode.QRCode(border=2)
    code.add_data(url)
    code.make(fit=True)
    buf = io.StringIO()
    code.print_ascii(out=buf, invert=True)
    return buf.getvalue()
