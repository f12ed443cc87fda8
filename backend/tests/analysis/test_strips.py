"""A thread's state strip: segments in order, merged, and reduced to one state per bucket."""

from __future__ import annotations

from stallscope.analysis.strips import Segment, StripBuilder
from stallscope.analysis.thread_states import Window

MS = 1_000_000


def test_blocked_then_runnable_then_running_in_order() -> None:
    strip = StripBuilder(Window())
    strip.on_cpu(40 * MS, 10 * MS)
    strip.off_cpu(10 * MS, 30 * MS, "S", 25 * MS)
    strip.on_cpu(0, 10 * MS)
    assert strip.segments(1000) == [
        Segment(0, 10 * MS, "running"),
        Segment(10 * MS, 35 * MS, "sleeping"),
        Segment(35 * MS, 40 * MS, "runnable"),
        Segment(40 * MS, 50 * MS, "running"),
    ]


def test_touching_segments_of_one_state_merge_and_the_window_clips() -> None:
    strip = StripBuilder(Window(5 * MS, 25 * MS))
    strip.off_cpu(0, 10 * MS, "D", None)
    strip.off_cpu(10 * MS, 20 * MS, "D", None)
    assert strip.segments(1000) == [Segment(5 * MS, 25 * MS, "uninterruptible")]


def test_more_segments_than_buckets_keep_the_dominant_state_per_bucket() -> None:
    strip = StripBuilder(Window(0, 100 * MS))
    for i in range(100):  # 0.9 ms running, 0.1 ms runnable, every millisecond
        strip.on_cpu(i * MS, 900_000)
        strip.off_cpu(i * MS + 900_000, 100_000, "R", None)
    strip.off_cpu(50 * MS, 50 * MS, "S", None)  # overlaps: a lost switch would look like this
    segments = strip.segments(10)
    assert segments[0] == Segment(0, 50 * MS, "running")
    assert segments[-1].state in ("running", "sleeping")
    assert len(segments) <= 10


def test_proc_ticks_read_r_as_running() -> None:
    strip = StripBuilder(Window())
    strip.tick(0, 50 * MS, "R")
    strip.tick(50 * MS, 50 * MS, "D")
    assert [s.state for s in strip.segments(100)] == ["running", "uninterruptible"]
