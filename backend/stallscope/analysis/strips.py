"""One thread's state over time as a strip of segments (a swimlane), a few per pixel at most.

A scheduler strip is drawn from the thread's laid-out line (`thread_timeline`), the very line its
breakdown sums: unknown stretches are segments too, and inferred ones are marked. Where more pieces
fall in one bucket than can be drawn, the bucket shows each state it holds as one segment sized to
that state's time, in the order the states first appear: the strip's time in each state is the
breakdown's, to the nanosecond, at any zoom. (A strip that left unknown stretches out and drew only
each bucket's dominant state read 97% D beside a bar that said 45% D and 52% unknown.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from stallscope.analysis.thread_states import Window, tick_category
from stallscope.analysis.thread_timeline import Piece


@dataclass(frozen=True, slots=True)
class Segment:
    start_ns: int
    end_ns: int
    state: str
    inferred: bool = False


def strip(pieces: Sequence[Piece | Segment], buckets: int) -> list[Segment]:
    """At most about `buckets` times the states present, from non-overlapping pieces in time order."""
    segments = [Segment(p.start_ns, p.end_ns, p.state, p.inferred) for p in pieces if p.end_ns > p.start_ns]
    if len(segments) <= buckets:
        return _merge(segments)
    lo, hi = segments[0].start_ns, max(s.end_ns for s in segments)
    width = max(1, -(-(hi - lo) // buckets))
    filled: dict[int, dict[tuple[str, bool], int]] = {}
    first_start: dict[int, int] = {}
    for seg in segments:
        first, last = (seg.start_ns - lo) // width, (seg.end_ns - 1 - lo) // width
        for b in range(first, last + 1):
            start = max(seg.start_ns, lo + b * width)
            end = min(seg.end_ns, lo + (b + 1) * width)
            states = filled.setdefault(b, {})
            key = (seg.state, seg.inferred)
            states[key] = states.get(key, 0) + end - start
            first_start.setdefault(b, start)
    out: list[Segment] = []
    for b in sorted(filled):
        cursor = first_start[b]
        for (state, inferred), ns in filled[b].items():  # insertion order: first appearance
            out.append(Segment(cursor, cursor + ns, state, inferred))
            cursor += ns
    return _merge(out)


def tick_segments(ticks: Iterable[tuple[int, int, str]], window: Window) -> list[Segment]:
    """(time, interval, letter) of /proc sampler ticks as segments, clipped, overlaps cut."""
    out: list[Segment] = []
    covered: int | None = None
    for time_ns, interval_ns, letter in sorted(ticks):
        start, end = window.clip(time_ns, time_ns + interval_ns)
        if covered is not None and start < covered:
            start = covered
        if end > start:
            out.append(Segment(start, end, tick_category(letter)))
            covered = end
    return out


def _merge(segments: list[Segment]) -> list[Segment]:
    """Join touching segments of the same state, so a long sleep is one segment."""
    out: list[Segment] = []
    for seg in segments:
        if (
            out
            and (out[-1].state, out[-1].inferred) == (seg.state, seg.inferred)
            and out[-1].end_ns >= seg.start_ns
        ):
            last = out[-1]
            out[-1] = Segment(last.start_ns, max(last.end_ns, seg.end_ns), seg.state, seg.inferred)
        else:
            out.append(seg)
    return out
