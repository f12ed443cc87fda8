"""Off-CPU time per bucket from a step function of how many threads are off-CPU (pure).

The database returns, per scheduler state, either the area under that step function at every
bucket edge (stored steps, looked up per edge) or the steps themselves (raw intervals of a filtered
view); either way a bucket's off-CPU time is the difference of the area at its two edges.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import NamedTuple


class Step(NamedTuple):
    """From `edge_us` on, `threads` threads are off-CPU in one state."""

    edge_us: int
    threads: int
    area_thread_us: float
    """The area under the step function before the edge, in thread-µs."""


class StoredSpan(NamedTuple):
    """Where one capture's stored steps of one state begin and end, and the last step's values.

    After its last step the function keeps growing by the threads still off-CPU then (intervals
    that never closed), so edges past the span need no look-up.
    """

    capture_id: int
    state: str
    first_edge_us: int
    last_edge_us: int
    last_threads: int
    last_area_thread_us: float


def areas_at(steps: Sequence[Step], edges_us: Sequence[int]) -> list[float]:
    """The area (thread-µs) under the step function up to each edge; 0 before the first step."""
    times = [step.edge_us for step in steps]
    areas = []
    for edge in edges_us:
        i = bisect_right(times, edge) - 1
        if i < 0:
            areas.append(0.0)
        else:
            step = steps[i]
            areas.append(step.area_thread_us + step.threads * (edge - step.edge_us))
    return areas


def stored_areas(
    spans: Sequence[StoredSpan], looked_up: Mapping[tuple[int, str, int], float], edges_us: Sequence[int]
) -> dict[str, list[float]]:
    """The area at every edge per state, summed over captures, from their stored steps.

    `looked_up` holds the area at the edges inside each span, keyed by (capture, state, edge µs):
    before a capture's first step its area is 0, after its last one it is extrapolated, so a short
    capture on a long range needs only a handful of look-ups.
    """
    out: dict[str, list[float]] = defaultdict(lambda: [0.0] * len(edges_us))
    for span in spans:
        summed = out[span.state]
        for i, edge in enumerate(edges_us):
            if edge < span.first_edge_us:
                continue
            if edge > span.last_edge_us:
                summed[i] += span.last_area_thread_us + float(span.last_threads) * (edge - span.last_edge_us)
            else:
                summed[i] += looked_up.get((span.capture_id, span.state, edge), 0.0)
    return dict(out)


def bucket_ns(areas: Sequence[float]) -> list[float]:
    """Thread-nanoseconds in each bucket, from the areas at its edges (one more edge than buckets)."""
    return [max(0.0, (b - a) * 1000.0) for a, b in pairwise(areas)]


def add_into(target: list[float], values: Sequence[float]) -> None:
    """Add `values` to `target` element by element (several sources of one state's time)."""
    for i, v in enumerate(values[: len(target)]):
        target[i] += v
