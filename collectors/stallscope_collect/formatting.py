"""How messages write errors, sizes and durations, and how flags read sizes."""

from __future__ import annotations

import argparse
import re


def describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def fmt_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{int(n)} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024.0
    return f"{n:.1f} TiB"  # pragma: no cover


def parse_size(text: str) -> int:
    """`256M`, `2G`, `1048576` -> bytes."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", text.lower())
    if not m:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (examples: 512M, 2G)")
    scale = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}[m.group(2)]
    return int(float(m.group(1)) * scale)


def fmt_seconds(value: float) -> str:
    return (f"{value:.3f}").rstrip("0").rstrip(".")


def tail_lines(text: str, lines: int = 4) -> str:
    """The last few non-blank lines of a tool's message, on one line."""
    kept = [ln for ln in text.strip().splitlines() if ln.strip()]
    return " / ".join(kept[-lines:])
