"""Which columns (or JSON keys) of an anchor file hold which clock.

An anchor pairs one reading of a capture clock with a reading of CLOCK_REALTIME taken at the same
moment. People name the two sides in many ways (`monotonic_ns`, `CLOCK_MONOTONIC`, `uptime_s`,
`perf_clock`, `mono,real`, `wall`, `tod`), and the capture clock may be the kernel's monotonic clock
or perf's default clock (`local_clock`, up to a few ms ahead of it): the name says which, and the
alignment's note repeats it so nobody trusts a perf-clock anchor to the microsecond.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SOURCE_WORDS = re.compile(
    r"mono|boot|uptime|ktime|perf|local_clock|sched_clock|trace_clock|since_boot", re.IGNORECASE
)
REALTIME_WORDS = re.compile(r"real|wall|epoch|unix|utc|tod|gettimeofday|date|iso", re.IGNORECASE)
PERF_CLOCK_WORDS = re.compile(r"perf|local_clock|sched_clock", re.IGNORECASE)
TEXT_COLUMNS = frozenset(
    {"host", "hostname", "node", "note", "comment", "label", "source", "clock", "id", "seq", "n", "index"}
)
"""Columns an anchor table may carry besides its two clocks; any other column makes it a metrics
table with a time column, which the metrics importers read."""
UNIT_SUFFIX = re.compile(r"(?:_|\b)(ns|us|usec|µs|ms|msec|s|sec|secs|seconds)\)?$", re.IGNORECASE)
NS_PER_UNIT = {"ns": 1, "us": 1_000, "usec": 1_000, "µs": 1_000, "ms": 1_000_000, "msec": 1_000_000}


@dataclass(frozen=True, slots=True)
class AnchorColumns:
    """Positions of the capture-clock and realtime columns, and what their names say."""

    source: int
    realtime: int
    source_scale_ns: int | None
    """Nanoseconds per unit of the capture-clock values when the name states a unit."""
    realtime_scale_ns: int | None
    perf_clock: bool
    """The capture clock is perf's default clock, not CLOCK_MONOTONIC."""


def unit_scale_ns(name: str) -> int | None:
    """`uptime_s` → 1e9, `monotonic_ns` → 1, `mono` → None (no unit in the name)."""
    found = UNIT_SUFFIX.search(name.strip())
    if found is None:
        return None
    return NS_PER_UNIT.get(found.group(1).lower(), 1_000_000_000)


def find_anchor_columns(names: list[str]) -> AnchorColumns | None:
    """The two clock columns of a header, or None when it is not an anchor table's header."""
    source = [i for i, name in enumerate(names) if SOURCE_WORDS.search(name)]
    realtime = [i for i, name in enumerate(names) if REALTIME_WORDS.search(name) and i not in source]
    if len(source) != 1 or len(realtime) != 1:
        return None
    others = set(range(len(names))) - {source[0], realtime[0]}
    if any(names[i].strip().lower() not in TEXT_COLUMNS for i in others):
        return None
    source_name = names[source[0]]
    return AnchorColumns(
        source=source[0],
        realtime=realtime[0],
        source_scale_ns=unit_scale_ns(source_name),
        realtime_scale_ns=unit_scale_ns(names[realtime[0]]),
        perf_clock=bool(PERF_CLOCK_WORDS.search(source_name)),
    )
