"""One thread's state over time as a strip of segments (a swimlane), at most one per pixel or so.

Segments come from the same reading of scheduler intervals as the breakdown (thread_states.py):
blocked until the wakeup, runnable after it, running between switch-in and switch-out. Where more
segments fall in one bucket than can be drawn, the bucket shows the state that filled most of it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from stallscope.analysis.thread_states import (
    RUNNABLE,
    RUNNING,
    SLEEPING,
    UNINTERRUPTIBLE,
    Window,
    state_category,
    tick_category,
)


@dataclass(frozen=True, slots=True)
class Segment:
    start_ns: int
    end_ns: int
    state: str


class StripBuilder:
    """Feed one thread's intervals (any order); `segments(buckets)` gives the strip."""

    def __init__(self, window: Window) -> None:
        self.window = window
        self._segments: list[Segment] = []

    def _add(self, start: int, end: int, state: str) -> None:
        lo, hi = self.window.clip(start, end)
        if hi > lo:
            self._segments.append(Segment(lo, hi, state))

    def on_cpu(self, start_ns: int, duration_ns: int | None) -> None:
        if duration_ns is not None:
            self._add(start_ns, start_ns + duration_ns, RUNNING)

    def off_cpu(
        self, start_ns: int, duration_ns: int | None, state: str | None, wakeup_delay_ns: int | None
    ) -> None:
        category = state_category(state)
        end = start_ns + duration_ns if duration_ns is not None else None
        if category in (SLEEPING, UNINTERRUPTIBLE) and wakeup_delay_ns is not None:
            woken = start_ns + wakeup_delay_ns
            if end is None or woken <= end:
                self._add(start_ns, woken, category)
                if end is not None:
                    self._add(woken, end, RUNNABLE)
                return
        if end is not None:
            self._add(start_ns, end, category)

    def tick(self, time_ns: int, interval_ns: int, letter: str) -> None:
        self._add(time_ns, time_ns + interval_ns, tick_category(letter))

    def segments(self, buckets: int) -> list[Segment]:
        ordered = sorted(self._segments, key=lambda s: s.start_ns)
        if len(ordered) <= buckets or not ordered:
            return _merge(ordered)
        start = self.window.start_ns if self.window.start_ns is not None else ordered[0].start_ns
        end = self.window.end_ns if self.window.end_ns is not None else max(s.end_ns for s in ordered)
        width = max(1, -(-(end - start) // buckets))
        filled: dict[int, Counter[str]] = {}
        for seg in ordered:
            first, last = (seg.start_ns - start) // width, (seg.end_ns - 1 - start) // width
            for b in range(first, last + 1):
                lo, hi = max(seg.start_ns, start + b * width), min(seg.end_ns, start + (b + 1) * width)
                filled.setdefault(b, Counter())[seg.state] += hi - lo
        dominant = [
            Segment(start + b * width, min(end, start + (b + 1) * width), states.most_common(1)[0][0])
            for b, states in sorted(filled.items())
        ]
        return _merge(dominant)


def _merge(segments: list[Segment]) -> list[Segment]:
    """Join touching segments of the same state, so a long sleep is one segment."""
    out: list[Segment] = []
    for seg in segments:
        if out and out[-1].state == seg.state and out[-1].end_ns >= seg.start_ns:
            last = out[-1]
            out[-1] = Segment(last.start_ns, max(last.end_ns, seg.end_ns), seg.state)
        else:
            out.append(seg)
    return out
