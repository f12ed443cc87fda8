"""A capture digest built from parsed records: what the CLI runs the detectors on.

Aggregates exactly as a parse stores and the server's digest reads back (`findings/digests.py`):
samples by (event, pid, tid, comm, stack) as the per-capture stack totals, timed events by (kind,
name, pid, tid, comm, state, stack), metric series by (name, labels), documents whole. Times are
aligned to UTC by the capture's clock mapping, as at storage.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from stallscope.analysis.findings.digest import (
    DURATION_KINDS,
    CaptureDigest,
    CpuRow,
    DurationStats,
    MetricSummary,
    ThreadSummary,
    WaitRow,
    WakeBursts,
    count_bursts,
    is_host_series,
    percentile_disc,
)
from stallscope.analysis.thread_account import ThreadAccount
from stallscope.analysis.thread_states import ThreadStates
from stallscope.ingest.model import Document, MetricPoint, MetricRow, Record, Sample, Stack, TimedEvent

ToUtc = Callable[[int], int]
"""The capture's clock mapping: a time on the capture's own clock to epoch nanoseconds."""


@dataclass(slots=True)
class _Series:
    unit: str | None
    values: list[float] = field(default_factory=list)
    first_ns: int = 0
    last_ns: int = 0
    first: float = 0.0
    last: float = 0.0


class DigestBuilder:
    """Feed every record of one capture, then take `result()`."""

    def __init__(self, name: str, host: str, format_name: str, to_utc: ToUtc | None) -> None:
        self._digest = CaptureDigest(None, name, host, format_name, None, None)
        self._to_utc = to_utc
        self._frames: dict[tuple[str, str], int] = {}
        self._stacks: dict[Stack, int] = {}
        self._stack_frames: list[tuple[int, ...]] = []
        self._cpu: dict[tuple[str, int | None, int | None, str, int], list[int]] = {}
        self._waits: dict[tuple[str, str, int | None, int | None, str, str | None, int], list[int]] = {}
        self._durations: dict[tuple[str, str], list[int]] = {}
        self._series: dict[tuple[str, tuple[tuple[str, str], ...]], _Series] = {}
        self._threads = ThreadAccount()
        self._wakes: dict[int, tuple[str, list[int], set[int]]] = {}
        self._start: int | None = None
        self._end: int | None = None

    def add(self, record: Record) -> None:
        if isinstance(record, Sample):
            self._sample(record)
        elif isinstance(record, TimedEvent):
            self._event(record)
            self._threads.add(record)
        elif isinstance(record, MetricRow):
            for point in record.points():  # once: a dense row's points are the costly part
                self._point(point)
                self._threads.add(point)
        elif isinstance(record, MetricPoint):
            self._point(record)
            self._threads.add(record)
        elif isinstance(record, Document):
            self._digest.documents.append((record.kind, dict(record.content)))
            self._threads.add(record)

    def result(self) -> CaptureDigest:
        d = self._digest
        d.start_ns, d.end_ns = self._start, self._end
        d.frames = list(self._frames)
        d.stacks = self._stack_frames
        d.cpu = [CpuRow(*key, weight, samples) for key, (weight, samples) in self._cpu.items()]
        d.waits = [
            WaitRow(*key, count, total, most, blocked)
            for key, (count, total, most, blocked) in self._waits.items()
        ]
        d.durations = [
            _duration_stats(kind, name, sorted(values)) for (kind, name), values in self._durations.items()
        ]
        d.metrics = [_metric_summary(name, labels, s) for (name, labels), s in self._series.items()]
        d.wake_bursts = [
            WakeBursts(tid, comm, len(times), count_bursts(sorted(times)), len(woken))
            for tid, (comm, times, woken) in self._wakes.items()
        ]
        accounting = self._threads.result()
        d.thread_source = accounting.source
        d.threads = [thread_summary(t) for t in accounting.threads]
        return d

    def _utc(self, t: int | None) -> int | None:
        if t is None:
            return None
        at = self._to_utc(t) if self._to_utc else t
        self._start = at if self._start is None or at < self._start else self._start
        self._end = at if self._end is None or at > self._end else self._end
        return at

    def _stack(self, stack: Stack) -> int:
        index = self._stacks.get(stack)
        if index is None:
            frames = self._frames
            ids = []
            for frame in stack:
                key = (frame.name, frame.kind.value)
                fid = frames.get(key)
                if fid is None:
                    fid = frames[key] = len(frames)
                ids.append(fid)
            index = self._stacks[stack] = len(self._stack_frames)
            self._stack_frames.append(tuple(ids))
        return index

    def _sample(self, s: Sample) -> None:
        self._utc(s.time_ns)
        key = (s.event, s.pid, s.tid, s.comm, self._stack(s.stack))
        totals = self._cpu.get(key)
        if totals is None:
            self._cpu[key] = [s.weight, 1]
        else:
            totals[0] += s.weight
            totals[1] += 1

    def _event(self, e: TimedEvent) -> None:
        start = self._utc(e.start_ns)
        kind = e.kind.value
        if start is not None:
            self._wake(e, start)
        stack = self._stack(e.stack) if e.stack else -1
        key = (kind, e.name, e.pid, e.tid, e.comm, e.state, stack)
        totals = self._waits.get(key)
        duration = e.duration_ns
        if totals is None:
            totals = self._waits[key] = [0, 0, 0, 0]
        if duration is not None:
            delay = e.attrs.get("wakeup_delay_ns")
            totals[0] += 1
            totals[1] += duration
            totals[2] = max(totals[2], duration)
            totals[3] += delay if isinstance(delay, int) and 0 <= delay <= duration else duration
            if kind in DURATION_KINDS:
                self._durations.setdefault((kind, e.name), []).append(duration)

    def _wake(self, e: TimedEvent, start_utc_ns: int) -> None:
        """An off-CPU interval ended by another thread's wake-up: when (in whole microseconds, as
        stored: the start's microsecond plus the delay's) and by whom."""
        delay = e.attrs.get("wakeup_delay_ns")
        if e.waker_tid in (None, 0) or e.waker_tid == e.tid or not isinstance(delay, int):
            return
        assert e.waker_tid is not None
        start_us = start_utc_ns // 1000
        comm = str(e.attrs.get("waker_comm") or "?")
        known = self._wakes.get(e.waker_tid)
        if known is None:
            known = self._wakes[e.waker_tid] = (comm, [], set())
        elif comm < known[0]:  # the same name whichever order the server reads them in
            known = self._wakes[e.waker_tid] = (comm, known[1], known[2])
        known[1].append(start_us + delay // 1000)
        known[2].add(e.tid or 0)

    def _point(self, p: MetricPoint) -> None:
        at = self._utc(p.time_ns)
        assert at is not None
        if not is_host_series(p.name, p.labels):
            return
        key = (p.name, tuple(sorted(p.labels)))
        series = self._series.get(key)
        if series is None:
            series = self._series[key] = _Series(p.unit, first_ns=at, first=p.value, last_ns=at, last=p.value)
        series.values.append(p.value)
        if at < series.first_ns:
            series.first_ns, series.first = at, p.value
        if at >= series.last_ns:
            series.last_ns, series.last = at, p.value


def thread_summary(t: ThreadStates) -> ThreadSummary:
    """The accounting's result as the digest keeps it (no stacks: those are in the wait rows)."""
    latency = t.latency
    return ThreadSummary(
        pid=t.pid,
        tid=t.tid,
        comm=t.comm,
        wall_ns=t.wall_ns,
        state_ns=dict(t.state_ns),
        intervals=t.intervals,
        latency=(latency.count, latency.p50_ns, latency.p90_ns, latency.p99_ns, latency.max_ns),
        wakers=[(tid, comm, n) for tid, comm, n in t.wakers],
        locks=[
            (str(w.lock[1]) if w.lock[0] == "address" else "site", w.count, w.total_ns, w.longest_ns)
            for w in t.lock_waits
        ],
    )


def _duration_stats(kind: str, name: str, ordered: list[int]) -> DurationStats:
    return DurationStats(
        kind,
        name,
        len(ordered),
        sum(ordered),
        percentile_disc(ordered, 0.5),
        percentile_disc(ordered, 0.9),
        percentile_disc(ordered, 0.99),
        ordered[-1],
    )


def _metric_summary(name: str, labels: tuple[tuple[str, str], ...], s: _Series) -> MetricSummary:
    ordered = sorted(s.values)
    return MetricSummary(
        name=name,
        labels=labels,
        unit=s.unit,
        count=len(ordered),
        minimum=ordered[0],
        mean=sum(ordered) / len(ordered),
        p95=percentile_disc(ordered, 0.95),
        maximum=ordered[-1],
        first=s.first,
        last=s.last,
        first_ns=s.first_ns,
        last_ns=s.last_ns,
    )
