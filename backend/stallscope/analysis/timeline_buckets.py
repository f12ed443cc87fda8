"""The timeline's per-bucket series, merged from the rows its queries return (pure: no DB, no HTTP).

A track's query reads each capture at its own rollup level, or raw, so one bucket may come back in
several rows (finer rollup rows, several captures, several levels): everything here adds them up
into one value per bucket of the request's grid. Rows whose bucket index falls outside the grid are
dropped, as the grid is what the chart draws.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

OTHER_COMM = "other"


class CpuRow(NamedTuple):
    """One process's (or thread's) samples in the range: `samples[k]` fell in `bucket_indexes[k]`.

    An index may appear more than once; its samples add up.
    """

    comm: str
    who: int | None
    """The pid, or the tid when CPU is split by thread."""
    bucket_indexes: list[int]
    samples: list[int]


@dataclass(frozen=True, slots=True)
class CpuSeries:
    """Samples per bucket of one process (or of all the others, `other`)."""

    comm: str
    who: int | None
    other: bool
    total_samples: int
    samples: list[int]


def top_and_rest(rows: Sequence[CpuRow], top: int, count: int) -> list[CpuSeries]:
    """The `top` processes with the most samples in the range, each on its own, and one `other` series
    summing the rest, in the order they are drawn: busiest first, `other` last.

    Ties are broken by name, then id, so a zoom never reshuffles equal processes.
    """
    ranked = sorted(rows, key=lambda r: (-sum(r.samples), r.comm, r.who if r.who is not None else -1))
    out: list[CpuSeries] = []
    rest = [0] * count
    for rank, row in enumerate(ranked):
        counts = [0] * count if rank < top else rest
        for i, n in zip(row.bucket_indexes, row.samples, strict=True):
            if 0 <= i < count:
                counts[i] += n
        if rank < top:
            out.append(CpuSeries(row.comm, row.who, False, sum(counts), counts))
    if len(ranked) > top:
        out.append(CpuSeries(OTHER_COMM, None, True, sum(rest), rest))
    out.sort(key=lambda s: (s.other, -s.total_samples, s.comm, s.who if s.who is not None else -1))
    return out


class EventBucketRow(NamedTuple):
    bucket_index: int
    events: int
    longest_ns: int | None
    """None when no event of the bucket finished (no duration recorded)."""


@dataclass(frozen=True, slots=True)
class EventSeries:
    events: list[int]
    longest_ns: list[int | None]


def event_series(rows: Iterable[EventBucketRow], count: int) -> EventSeries:
    """Events per bucket and the longest of them."""
    events = [0] * count
    longest: list[int | None] = [None] * count
    for row in rows:
        i = row.bucket_index
        if 0 <= i < count:
            events[i] += row.events
            current = longest[i]
            if row.longest_ns is not None:
                longest[i] = row.longest_ns if current is None else max(row.longest_ns, current)
    return EventSeries(events, longest)


class MetricBucketRow(NamedTuple):
    """One series' points in one bucket, summed."""

    series_id: int
    bucket_index: int
    points: int
    value_sum: float
    value_min: float
    value_max: float


class MetricPointRow(NamedTuple):
    series_id: int
    ts_us: int
    value: float


@dataclass(frozen=True, slots=True)
class MetricSeries:
    """Points per bucket and their min, average and max (None where a bucket has no point)."""

    points: list[int]
    value_min: list[float | None]
    value_avg: list[float | None]
    value_max: list[float | None]


SeriesRow = TypeVar("SeriesRow", MetricBucketRow, MetricPointRow)


def by_series(rows: Iterable[SeriesRow]) -> dict[int, list[SeriesRow]]:
    """Rows grouped by series, in the order they came."""
    grouped: dict[int, list[SeriesRow]] = defaultdict(list)
    for row in rows:
        grouped[row.series_id].append(row)
    return grouped


def is_sparse(
    grouped: Mapping[int, Sequence[MetricBucketRow]], series_ids: Iterable[int], count: int
) -> bool:
    """No more points in the range than buckets: such a track is sent point by point, which keeps
    a sparse series' shape (a sawtooth) that min/avg/max per bucket would flatten."""
    return sum(row.points for sid in series_ids for row in grouped.get(sid, ())) <= count


def metric_series(
    grouped: Mapping[int, Sequence[MetricBucketRow]], series_ids: Iterable[int], count: int
) -> MetricSeries:
    """One track's buckets from its series (the same metric and labels in several captures)."""
    points = [0] * count
    sums = [0.0] * count
    mins: list[float | None] = [None] * count
    maxs: list[float | None] = [None] * count
    for sid in series_ids:
        for row in grouped.get(sid, ()):
            i = row.bucket_index
            if not 0 <= i < count:
                continue
            points[i] += row.points
            sums[i] += row.value_sum
            low, high = mins[i], maxs[i]
            mins[i] = row.value_min if low is None else min(row.value_min, low)
            maxs[i] = row.value_max if high is None else max(row.value_max, high)
    avgs = [sums[i] / points[i] if points[i] else None for i in range(count)]
    return MetricSeries(points, mins, avgs, maxs)


def merged_points(
    grouped: Mapping[int, Sequence[MetricPointRow]], series_ids: Iterable[int]
) -> list[tuple[int, float]]:
    """A track's raw points from its series, in time order (ties by value), as (µs, value)."""
    return sorted((row.ts_us, row.value) for sid in series_ids for row in grouped.get(sid, ()))
