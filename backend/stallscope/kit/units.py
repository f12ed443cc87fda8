"""What a profile's weights are measured in, so the UI never labels nanoseconds as samples."""

from __future__ import annotations

import re

CLOCK_EVENTS = frozenset({"cpu-clock", "task-clock"})


def weight_unit(event: str, has_period: bool) -> str:
    """`ns` for clock events (their period is nanoseconds), `events` for counted periods."""
    if not has_period:
        return "samples"
    if event in CLOCK_EVENTS:
        return "ns"
    return "events"


_DURATION_UNITS_NS = {
    "ns": 1,
    "us": 1_000,
    "µs": 1_000,
    "ms": 1_000_000,
    "s": 1_000_000_000,
    "m": 60_000_000_000,
    "min": 60_000_000_000,
    "h": 3_600_000_000_000,
}
_DURATION = re.compile(r"^\s*([+-]?)\s*(\d+(?:\.\d*)?|\.\d+)\s*(ns|us|µs|ms|s|min|m|h)?\s*$")


def parse_duration_ns(text: str) -> int:
    """'+2.5 s', '-300ms', '1h' → nanoseconds; a bare number is seconds. ValueError otherwise."""
    match = _DURATION.match(text)
    if match is None:
        raise ValueError(f"not a duration: {text!r} (try '+2.5s', '-300ms', '1h')")
    sign, number, unit = match.groups()
    value = round(float(number) * _DURATION_UNITS_NS[unit or "s"])
    return -value if sign == "-" else value
