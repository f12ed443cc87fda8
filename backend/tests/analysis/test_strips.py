"""A thread's state strip: drawn from the line its breakdown sums, so the two always agree."""

from __future__ import annotations

import itertools
from collections import Counter

from stallscope.analysis.strips import Segment, strip, tick_segments
from stallscope.analysis.thread_states import SchedAccumulator, Window

MS = 1_000_000
W = (1, 1, "w")


def strip_of(acc: SchedAccumulator, buckets: int = 1000) -> list[Segment]:
    return strip(acc.pieces(1), buckets)


def times(segments: list[Segment]) -> Counter[str]:
    out: Counter[str] = Counter()
    for s in segments:
        out[s.state] += s.end_ns - s.start_ns
    return out


def test_blocked_then_runnable_then_running_in_order() -> None:
    acc = SchedAccumulator()
    acc.on_cpu(W, 40 * MS, 10 * MS)
    acc.off_cpu(W, 10 * MS, 30 * MS, "S", 25 * MS)
    acc.on_cpu(W, 0, 10 * MS)
    assert strip_of(acc) == [
        Segment(0, 10 * MS, "running"),
        Segment(10 * MS, 35 * MS, "sleeping"),
        Segment(35 * MS, 40 * MS, "runnable"),
        Segment(40 * MS, 50 * MS, "running"),
    ]


def test_touching_segments_of_one_state_merge_and_the_window_clips() -> None:
    acc = SchedAccumulator(Window(5 * MS, 25 * MS))
    acc.off_cpu(W, 0, 10 * MS, "D", None)
    acc.off_cpu(W, 10 * MS, 20 * MS, "D", None)
    assert strip_of(acc) == [Segment(5 * MS, 25 * MS, "uninterruptible")]


def test_unknown_stretches_are_drawn_and_inferred_ones_marked() -> None:
    acc = SchedAccumulator()
    acc.off_cpu(W, 0, None, "D", None, inferred_ns=10 * MS)  # bounded by a sighting at 10 ms
    acc.on_cpu(W, 10 * MS, 5 * MS)
    acc.off_cpu(W, 15 * MS, None, "S", 2 * MS)  # woken at 17 ms, then nothing until 30 ms
    acc.on_cpu(W, 30 * MS, 5 * MS)
    assert strip_of(acc) == [
        Segment(0, 10 * MS, "uninterruptible", inferred=True),
        Segment(10 * MS, 15 * MS, "running"),
        Segment(15 * MS, 17 * MS, "sleeping"),
        Segment(17 * MS, 30 * MS, "unknown"),
        Segment(30 * MS, 35 * MS, "running"),
    ]


def test_a_crowded_strip_keeps_every_states_time_exactly() -> None:
    """Flickering between D, unknown and running faster than a bucket: each bucket is split by state.

    Drawing each bucket's dominant state instead read 100% D here, beside a breakdown of 45% D.
    """
    acc = SchedAccumulator(Window(0, 100 * MS))
    for i in range(100):  # every millisecond: 0.45 ms in D, 0.05 running, 0.5 unknown
        t = i * MS
        acc.off_cpu(W, t, None, "D", 450_000)
        acc.on_cpu(W, t + 450_000, 50_000)
        acc.off_cpu(W, t + 500_000, None, "S", None)
    (thread,) = acc.result()
    segments = strip_of(acc, buckets=10)
    assert len(segments) <= 10 * 3
    assert times(segments) == {state: ns for state, ns in thread.state_ns.items() if ns}
    assert thread.state_ns["uninterruptible"] == 45 * MS
    assert all(a.end_ns == b.start_ns for a, b in itertools.pairwise(segments))


def test_proc_ticks_read_r_as_running() -> None:
    segments = tick_segments([(50 * MS, 50 * MS, "D"), (0, 50 * MS, "R")], Window())
    assert [s.state for s in strip(segments, 100)] == ["running", "uninterruptible"]
