"""What a profile's weights are measured in, so the UI never labels nanoseconds as samples, and how
a time or a weight is written for people: one policy for the views and the command line."""

from __future__ import annotations

import re
from datetime import UTC, datetime

CLOCK_EVENTS = frozenset({"cpu-clock", "task-clock"})
OFF_CPU_UNIT = "us"
"""Off-CPU views weigh blocked time in microseconds, as Brendan Gregg's off-CPU flame graphs do."""
TIME_UNITS_NS = {"ns": 1, "us": 1_000}
"""Weight units that are time, in nanoseconds each."""


def weight_unit(event: str, has_period: bool) -> str:
    """`ns` for clock events (their period is nanoseconds), `events` for counted periods."""
    if not has_period:
        return "samples"
    if event in CLOCK_EVENTS:
        return "ns"
    return "events"


def view_unit(source: str, event_unit: str) -> str:
    """The unit a stack view's weights are in: off-CPU time, else the unit of the event shown."""
    return OFF_CPU_UNIT if source == "off-cpu" else event_unit


def is_time_unit(unit: str) -> bool:
    """Whether weights in `unit` are durations (a heatmap can sum them, a person reads them as time)."""
    return unit in TIME_UNITS_NS


_DURATION_STEPS = ((1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "µs"))


def duration_text(ns: float) -> str:
    """'1.23 s', '45.6 ms', '789 µs', '12 ns': three significant digits (all of them from 1,000 s
    on), in the largest unit the value reaches, signed when negative."""
    size = abs(ns)
    sign = "-" if ns < 0 else ""
    if size < 1_000_000_000_000:  # rounded first, so 999.5 µs reads 1.00 ms, not 1,000 µs
        size = float(f"{size:.3g}")
    for step, suffix in _DURATION_STEPS:
        if size >= step:
            return f"{sign}{_three_digits(size / step)} {suffix}"
    return f"{sign}{size:.0f} ns"


def _three_digits(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def weight_text(value: float, unit: str) -> str:
    """A weight as people read it: durations with `duration_text`, counts with thousands separators
    and their unit ('1,204 samples')."""
    if is_time_unit(unit):
        return duration_text(value * TIME_UNITS_NS[unit])
    return f"{value:,.0f} {unit}" if value == int(value) else f"{value:,.1f} {unit}"


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


def parse_wall_clock_ns(text: str) -> int:
    """An ISO 8601 time ('2026-11-25T14:02:10.5Z'; without a zone it is UTC) → epoch ns.

    ValueError for anything else, and for times before 2000: no capture being investigated today
    started then, and such a value is nearly always seconds since boot typed in the wrong field.
    """
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError as exc:
        raise ValueError(f"not an ISO 8601 time: {text!r} (try '2026-11-25T14:02:10Z')") from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if moment.year < 2000:
        raise ValueError(f"{text!r} is before the year 2000: give the capture's wall-clock start")
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1_000


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def epoch_ns(moment: datetime) -> int:
    """A stored instant as epoch nanoseconds, exactly (no float on the way: µs are what is stored)."""
    delta = moment - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1000


def utc_iso(moment: datetime) -> str:
    """An instant as the console writes it in URLs, files and answers meant for people and other
    tools: UTC, always six fraction digits, `Z` (the front end's `isoFromEpochUs`). A naive instant
    is taken as UTC, as stored times are."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
