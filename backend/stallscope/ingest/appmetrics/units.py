"""A series' unit guessed from its name's last word (`latency_ms`, `http_request_duration_seconds`).

Only suffixes that mean one thing are read; anything else has no unit rather than a wrong one.
Prometheus' `_total`/`_sum` counters keep the unit of the word before them, and `_per_second` adds
`/s` to it. Sizes in `kB`/`MB`/`GB` are read as KiB/MiB/GiB, as sysstat and /proc mean them; a name
starting with `%` (`%user`, as `sadf -d` writes) is a percentage.
"""

from __future__ import annotations

import functools
import re

_SUFFIX_UNITS: dict[str, str] = {
    "ns": "ns",
    "nsec": "ns",
    "nanos": "ns",
    "nanoseconds": "ns",
    "us": "µs",
    "µs": "µs",
    "usec": "µs",
    "micros": "µs",
    "microseconds": "µs",
    "ms": "ms",
    "msec": "ms",
    "millis": "ms",
    "milliseconds": "ms",
    "s": "s",
    "sec": "s",
    "secs": "s",
    "seconds": "s",
    "bytes": "B",
    "kib": "KiB",
    "kb": "KiB",
    "mib": "MiB",
    "mb": "MiB",
    "gib": "GiB",
    "gb": "GiB",
    "pct": "%",
    "percent": "%",
    "percentage": "%",
    "celsius": "°C",
    "hz": "Hz",
}
_COUNTER_WORDS = ("total", "sum")
_WORD = re.compile(r"[._\-\s/]+")


@functools.lru_cache(maxsize=65_536)
def unit_from_name(name: str) -> str | None:
    """`latency_ms` -> `ms`, `rx_bytes_total` -> `B`, `io_bytes_per_second` -> `B/s`; else None."""
    if name.startswith("%"):
        return "%"
    words = [w for w in _WORD.split(name.lower()) if w]
    per_second = False
    if len(words) > 2 and words[-2:] in (["per", "second"], ["per", "sec"], ["per", "s"]):
        words, per_second = words[:-2], True
    if len(words) > 1 and words[-1] in _COUNTER_WORDS:
        words = words[:-1]
    if len(words) < 2:
        return "/s" if per_second else None
    unit = _SUFFIX_UNITS.get(words[-1])
    if per_second:
        return f"{unit}/s" if unit is not None else "/s"
    return unit
