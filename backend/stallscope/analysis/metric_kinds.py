"""What a metric series measures, so the chart draws what an engineer would read from it.

A cumulative counter drawn raw is a ramp that hides every burst; its rate per second shows them. A
latency series is a distribution: its average hides the tail, so it gets percentiles per bucket.
Everything else is a gauge, drawn as its average with the min-max band.

The decision uses, in order: the name as Prometheus names counters (`_total`, `_count`, `_sum`, or
the proc sampler's `.total`), unless the values plainly contradict it; the unit and name of a time
measurement; and last, values that never fall except for resets to near zero.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

SeriesKind = Literal["counter", "latency", "gauge"]

_COUNTER_NAME = re.compile(r"(?:_total|_count|_sum|\.total)$")
_TIME_UNITS = frozenset({"ns", "µs", "us", "ms", "s"})
_NOT_CUMULATIVE_UNITS = frozenset({"%", "°C", "Hz", "MHz"})
"""Ratios and frequencies: their values are levels, never running totals."""
_LATENCY_WORDS = re.compile(
    r"(?:latency|duration|elapsed|response_?time|wait_?time|rtt|await|"
    r"(?:^|[._\-])p(?:50|75|90|95|99|999)(?:$|[._\-])|quantile|percentile|"
    r"[._\-](?:ns|us|µs|ms|usec|msec|seconds|secs)$)",
    re.IGNORECASE,
)

RESET_FRACTION = 0.1
"""A fall counts as a counter reset when the new value is at most this share of the old one."""
MIN_STEPS_BY_VALUES = 5
"""Fewer steps than this cannot show that values never fall: too easy by chance."""
MAX_RESET_SHARE = 0.05
"""Resets are rare: more than this share of steps falling means a sawtooth gauge, not a counter."""
CONTRADICTING_SHARE = 0.1
"""A series named like a counter whose values fall (not to near zero) in more steps is a gauge."""


@dataclass(frozen=True, slots=True)
class StepStats:
    """Consecutive pairs of a series' points, summed over the range drawn."""

    points: int
    steps: int
    increases: int
    decreases: int
    resets: int
    """Decreases to at most `RESET_FRACTION` of the value before: how counters restart. A series
    named like a counter reads every decrease as a reset."""
    min_value: float | None


@dataclass(frozen=True, slots=True)
class Kinding:
    kind: SeriesKind
    reason: str


def is_rate_unit(unit: str | None) -> bool:
    return unit is not None and (unit.endswith("/s") or unit in _NOT_CUMULATIVE_UNITS)


def rate_unit(unit: str | None) -> str:
    """The unit of a counter's rate: `B` -> `B/s`, no unit -> `/s`."""
    return f"{unit}/s" if unit else "/s"


def looks_like_latency(name: str, unit: str | None) -> bool:
    """A time per event (`ms`, `latency`, `_us`, `p99`…), not a time per second (`ms/s`)."""
    if unit in _TIME_UNITS:
        return True
    if unit is not None and unit.endswith("/s"):
        return False
    return _LATENCY_WORDS.search(name) is not None


def _never_falls(stats: StepStats) -> bool:
    odd_falls = stats.decreases - stats.resets
    return (
        stats.steps >= MIN_STEPS_BY_VALUES
        and (stats.min_value is None or stats.min_value >= 0)
        and stats.increases >= 2
        and odd_falls == 0
        and stats.resets <= MAX_RESET_SHARE * stats.steps
    )


def _resets_text(resets: int) -> str:
    if resets == 0:
        return ""
    return f" ({resets} reset{'s' if resets != 1 else ''})"


def classify(name: str, unit: str | None, stats: StepStats) -> Kinding:
    """The kind of a series and, in words, why: the UI says it beside the rate/raw toggle."""
    suffix = _COUNTER_NAME.search(name)
    if suffix is not None and not is_rate_unit(unit):
        odd_falls = stats.decreases - stats.resets
        if stats.steps >= MIN_STEPS_BY_VALUES and odd_falls > CONTRADICTING_SHARE * stats.steps:
            return Kinding(
                "gauge",
                f"named like a counter ({suffix.group()}) but falls in {odd_falls} of {stats.steps} steps",
            )
        # Named a counter: every fall is a restart, as Prometheus reads it.
        return Kinding("counter", f"name ends in {suffix.group()}{_resets_text(stats.decreases)}")
    if looks_like_latency(name, unit):
        by_unit = unit in _TIME_UNITS
        return Kinding("latency", f"a time per event ({unit})" if by_unit else "a latency by its name")
    if not is_rate_unit(unit) and _never_falls(stats):
        return Kinding("counter", f"values only rise{_resets_text(stats.resets)}")
    return Kinding("gauge", "a level")
