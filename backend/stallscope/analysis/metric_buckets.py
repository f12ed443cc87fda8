"""Per-bucket aggregates of one metric series turned into what the chart draws.

The database sums each bucket (values, and the steps from each point's predecessor); this turns the
sums into points: the values as they are, or a counter's rate per second. A counter's increase over
a step is the difference of its values, or the new value itself where the value fell (a reset: the
counter restarted from zero), as Prometheus' `rate()` reads counters. A bucket's rate is its summed
increase over its summed step time, so it is right whatever the bucket width: a scrape every 15 s
drawn in 1 s buckets is not inflated fifteenfold, and min/max are the slowest and fastest step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from stallscope.analysis.metric_kinds import StepStats


@dataclass(frozen=True, slots=True)
class BucketSums:
    """One bucket of one series, as the repository's query sums it."""

    ts: datetime
    points: int
    avg: float
    min: float
    max: float
    steps: int
    """Points in the bucket with an earlier point (in or before it), stepped to over time > 0."""
    increases: int
    decreases: int
    resets: int
    increase: float
    """The counter's increase over those steps, resets read as restarts from zero."""
    seconds: float
    """Time those steps span."""
    rate_min: float | None
    rate_max: float | None
    p50: float | None = None
    p90: float | None = None
    p99: float | None = None


@dataclass(frozen=True, slots=True)
class DrawnPoint:
    ts: datetime
    avg: float
    min: float
    max: float
    count: int
    p50: float | None = None
    p90: float | None = None
    p99: float | None = None


def step_stats(buckets: Sequence[BucketSums]) -> StepStats:
    """The steps of the whole range, for deciding what kind of series it is."""
    lows = [b.min for b in buckets]
    return StepStats(
        points=sum(b.points for b in buckets),
        steps=sum(b.steps for b in buckets),
        increases=sum(b.increases for b in buckets),
        decreases=sum(b.decreases for b in buckets),
        resets=sum(b.resets for b in buckets),
        min_value=min(lows) if lows else None,
    )


def value_points(buckets: Sequence[BucketSums]) -> list[DrawnPoint]:
    """The values as stored: average, min and max per bucket, and the percentiles when summed."""
    return [DrawnPoint(b.ts, b.avg, b.min, b.max, b.points, b.p50, b.p90, b.p99) for b in buckets]


def rate_points(buckets: Sequence[BucketSums]) -> list[DrawnPoint]:
    """Per second: a bucket's increase over the time its steps span; buckets without a step are gaps."""
    drawn: list[DrawnPoint] = []
    for b in buckets:
        if b.steps == 0 or b.seconds <= 0 or b.rate_min is None or b.rate_max is None:
            continue
        drawn.append(DrawnPoint(b.ts, b.increase / b.seconds, b.rate_min, b.rate_max, b.steps))
    return drawn
