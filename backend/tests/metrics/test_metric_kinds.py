"""Which series are counters, latencies or gauges, from names, units and the shape of the values."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest

from stallscope.analysis.metric_buckets import BucketSums, rate_points, step_stats
from stallscope.analysis.metric_kinds import StepStats, classify, looks_like_latency, rate_unit


def stats(values: list[float]) -> StepStats:
    """Step statistics of consecutive values, as the repository's query counts them."""
    pairs = list(itertools.pairwise(values))
    return StepStats(
        points=len(values),
        steps=len(pairs),
        increases=sum(b > a for a, b in pairs),
        decreases=sum(b < a for a, b in pairs),
        resets=sum(b < a and b <= a * 0.1 for a, b in pairs),
        min_value=min(values) if values else None,
    )


RISING = [float(v) for v in range(0, 200, 10)]
SAWTOOTH = [1000.0, 800.0, 600.0, 400.0] * 5


@pytest.mark.parametrize(
    ("name", "unit", "values", "kind"),
    [
        ("http_requests_total", None, RISING, "counter"),
        ("http_request_duration_seconds_count", None, RISING, "counter"),
        ("http_request_duration_seconds_sum", "s", RISING, "counter"),
        ("pressure.io.some.total", "µs", RISING, "counter"),
        ("rx_bytes", "B", RISING, "counter"),
        ("rx_bytes", "B", [*RISING, 3.0, 13.0, 23.0], "counter"),  # one reset among 22 steps
        ("request_latency_ms", "ms", RISING, "latency"),  # a rising latency is still a latency
        ("db_query_duration", None, SAWTOOTH, "latency"),
        ("api.p99", None, SAWTOOTH, "latency"),
        ("disk.await", "ms", SAWTOOTH, "latency"),
        ("mem_free_mib", "MiB", SAWTOOTH, "gauge"),
        ("cpu.user", "%", RISING, "gauge"),  # a ratio never accumulates
        ("disk.read_bytes", "B/s", RISING, "gauge"),  # already a rate
        ("disk.busy_ms", "ms/s", SAWTOOTH, "gauge"),  # time per second is not a latency
        ("queue_count", None, SAWTOOTH, "gauge"),  # named like a counter, falls all the time
        ("heap_used", "B", [10.0, 20.0, 30.0, 40.0, 15.0, 25.0, 35.0, 45.0, 16.0], "gauge"),  # GC, not resets
        ("connections", None, [3.0, 3.0, 4.0], "gauge"),  # too few steps to tell
    ],
)
def test_kinds(name: str, unit: str | None, values: list[float], kind: str) -> None:
    assert classify(name, unit, stats(values)).kind == kind


def test_reasons_say_why() -> None:
    falls_once = stats([0.0, 5.0, 1.0, 4.0])
    assert classify("errors_total", None, falls_once).reason == "name ends in _total (1 reset)"
    assert classify("rx_bytes", "B", stats(RISING)).reason == "values only rise"
    assert classify("queue_count", None, stats(SAWTOOTH)).reason == (
        "named like a counter (_count) but falls in 15 of 19 steps"
    )


def test_units() -> None:
    assert rate_unit("B") == "B/s"
    assert rate_unit(None) == "/s"
    assert looks_like_latency("anything", "µs")
    assert not looks_like_latency("disk.io_ms", "ms/s")
    assert not looks_like_latency("temperature", "°C")


def bucket(seconds: float, increase: float, steps: int, lo: float | None, hi: float | None) -> BucketSums:
    t = datetime(2026, 1, 1, tzinfo=UTC)
    return BucketSums(t, steps, 0.0, 0.0, 0.0, steps, steps, 0, 0, increase, seconds, lo, hi)


def test_a_bucket_rate_is_its_increase_over_its_step_time() -> None:
    # A scrape every 15 s: one step in the bucket spans 15 s, so the rate is not inflated by the bucket.
    (point,) = rate_points([bucket(15.0, 300.0, 1, 20.0, 20.0)])
    assert (point.avg, point.min, point.max, point.count) == (20.0, 20.0, 20.0, 1)
    # A bucket holding only the series' first point has no step: a gap, never a zero.
    assert rate_points([bucket(0.0, 0.0, 0, None, None)]) == []


def test_step_stats_add_up_over_buckets() -> None:
    totals = step_stats([bucket(10.0, 1.0, 2, 0.1, 0.1), bucket(10.0, 1.0, 3, 0.1, 0.1)])
    assert (totals.points, totals.steps, totals.increases) == (5, 5, 5)
