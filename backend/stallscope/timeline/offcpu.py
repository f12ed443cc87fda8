"""Off-CPU time per bucket from a step function of how many threads are off-CPU (pure).

The database returns, per scheduler state, either the area under that step function at every
bucket edge (stored steps, looked up per edge) or the steps themselves (raw intervals of a filtered
view); either way a bucket's off-CPU time is the difference of the area at its two edges.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import pairwise

Step = tuple[int, int, float]
"""(edge µs, threads off-CPU from the edge on, thread-µs before the edge)"""


def areas_at(steps: Sequence[Step], edges_us: Sequence[int]) -> list[float]:
    """The area (thread-µs) under the step function up to each edge; 0 before the first step."""
    times = [t for t, _, _ in steps]
    areas = []
    for edge in edges_us:
        i = bisect_right(times, edge) - 1
        if i < 0:
            areas.append(0.0)
        else:
            t, n, area = steps[i]
            areas.append(area + n * (edge - t))
    return areas


def bucket_ns(areas: Sequence[float]) -> list[float]:
    """Thread-nanoseconds in each bucket, from the areas at its edges (one more edge than buckets)."""
    return [max(0.0, (b - a) * 1000.0) for a, b in pairwise(areas)]
