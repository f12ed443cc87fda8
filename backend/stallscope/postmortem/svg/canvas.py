"""What every evidence image shares: escaping, labels cut to fit, the document around the drawing.

The images are opened on their own (an image viewer, a wiki page), pasted into a postmortem or
inlined into HTML, so each is a complete SVG 1.1 file with its size, a title and no external font
or stylesheet. Element ids are never used: several images inlined into one page must not collide.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from xml.sax.saxutils import escape

FONT = "Verdana, DejaVu Sans, sans-serif"
FONT_SIZE = 11
CHAR_WIDTH = 0.62 * FONT_SIZE
"""A generous average glyph width of the font at FONT_SIZE: labels are cut to fit by this."""
ELLIPSIS = ".."


def attr(value: str) -> str:
    """A value safe inside a double-quoted attribute."""
    return escape(value, {'"': "&quot;"})


def text_of(value: str) -> str:
    """Character data with what XML 1.0 cannot hold (most control characters) replaced by '?'."""
    clean = "".join(c if c in "\t\n\r" or c >= " " else "?" for c in value)
    clean = clean.encode("utf-8", "replace").decode("utf-8")  # unpaired surrogates from captures
    return escape(clean)


def fit(label: str, width_px: float) -> str:
    """The label, cut with '..' to fit `width_px` at the images' font; '' when not even 3 characters fit."""
    room = int(width_px // CHAR_WIDTH)
    if room < 3:
        return ""
    if len(label) <= room:
        return label
    return label[: room - len(ELLIPSIS)] + ELLIPSIS


def number(value: float) -> str:
    """A coordinate with at most one decimal: enough for a screen, short in the file."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def document(width: float, height: float, title: str, body: Iterable[str]) -> bytes:
    """A standalone SVG file: XML declaration, size and viewBox, an accessible title, white ground."""
    head = (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{number(width)}" '
        f'height="{number(height)}" viewBox="0 0 {number(width)} {number(height)}" '
        f'font-family="{attr(FONT)}" font-size="{FONT_SIZE}">\n'
        f"<title>{text_of(title)}</title>\n"
        f'<rect x="0" y="0" width="{number(width)}" height="{number(height)}" fill="#ffffff"/>\n'
    )
    return (head + "\n".join(body) + "\n</svg>\n").encode("utf-8")


def label(
    x: float,
    y: float,
    value: str,
    *,
    size: int = FONT_SIZE,
    anchor: str = "start",
    fill: str = "#000",
    bold: bool = False,
) -> str:
    extra = f' text-anchor="{anchor}"' if anchor != "start" else ""
    extra += f' font-size="{size}"' if size != FONT_SIZE else ""
    extra += ' font-weight="bold"' if bold else ""
    return f'<text x="{number(x)}" y="{number(y)}"{extra} fill="{fill}">{text_of(value)}</text>'


def line(x1: float, y1: float, x2: float, y2: float, stroke: str = "#555") -> str:
    return (
        f'<line x1="{number(x1)}" y1="{number(y1)}" x2="{number(x2)}" y2="{number(y2)}" stroke="{stroke}"/>'
    )


def stable_fraction(name: str) -> float:
    """A number in [0, 1) fixed for a name, so a frame keeps its shade in every image."""
    return (
        int.from_bytes(hashlib.blake2s(name.encode("utf-8", "surrogatepass"), digest_size=2).digest()) / 65536
    )


def nice_ticks(low: float, high: float, count: int = 5, *, cover: bool = False) -> list[float]:
    """About `count` round values (1, 2 or 5 times a power of ten apart) inside [low, high]; with
    `cover`, from the round value at or below `low` to the one at or above `high` (an axis's range)."""
    span = high - low
    if span <= 0:
        return [low]
    raw = span / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    slack = 1e-9  # float noise must not add or drop a tick
    if cover:
        first, last = math.floor(low / step + slack), math.ceil(high / step - slack)
    else:
        first, last = math.ceil(low / step - slack), math.floor(high / step + slack)
    return [round(i * step, 12) for i in range(first, last + 1)]


def tick_text(value: float) -> str:
    """A tick value as short as it reads: 1.5k, 20, 0.25, 3M."""
    size = abs(value)
    for limit, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if size >= limit:
            return f"{value / limit:g}{suffix}"
    return f"{value:.6g}"
