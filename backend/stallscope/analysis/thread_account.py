"""Thread states from parsed records, fed one record at a time: the offline commands' accounting.

The server reads the same intervals back from its tables (`threads/service.py`); here they come
straight from an importer, so `stallscope threads` and `stallscope findings` can share one pass over
a file with whatever else reads it. Pure: no database, no files.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from stallscope.analysis.futex_waits import LockGroup, SyscallWaits, group_locks, thread_waits
from stallscope.analysis.thread_states import SchedAccumulator, SchedInterval, ThreadStates, TickAccumulator
from stallscope.ingest.model import (
    Document,
    EventKind,
    MetricPoint,
    MetricRow,
    Record,
    TimedEvent,
    metric_points,
)
from stallscope.ingest.sched.args import is_futex_wait_frame, read_futex

DEFAULT_TICK_NS = 50_000_000
"""The /proc sampler's interval when its header does not say (20 Hz)."""


@dataclass(slots=True)
class ThreadAccounting:
    source: str
    """`sched` (scheduler intervals), `proc-sampler` (ticks) or `none`."""
    threads: list[ThreadStates]
    locks: list[LockGroup]


class ThreadAccount:
    """Scheduler intervals (preferred) or /proc sampler ticks through the server's accounting."""

    def __init__(self) -> None:
        self._sched = SchedAccumulator()
        self._ticks = TickAccumulator(DEFAULT_TICK_NS)
        self._futex_calls = SyscallWaits()
        self._saw_sched = False
        self._saw_ticks = False

    def add(self, record: Record) -> None:
        if isinstance(record, TimedEvent):
            if record.start_ns is None:
                return
            if record.kind in (EventKind.ON_CPU, EventKind.OFF_CPU):
                self._saw_sched = True
                self._sched.add(sched_interval(record))
            elif record.kind is EventKind.SYSCALL and record.name == "futex" and record.args:
                self._futex_call(record)
        elif isinstance(record, MetricPoint | MetricRow):
            for point in metric_points(record):
                if point.name == "thread.state":
                    self._tick(point)
        elif isinstance(record, Document) and record.kind == "proc-sampler-header":
            interval_ms = record.content.get("interval_ms")
            if isinstance(interval_ms, int | float) and interval_ms > 0:
                self._ticks.interval_ns = int(interval_ms * 1_000_000)

    def result(self, matcher: re.Pattern[str] | None = None) -> ThreadAccounting:
        source, threads = "none", []
        if self._saw_sched:
            source, threads = "sched", self._sched.result(is_futex_stack)
        elif self._saw_ticks:
            source, threads = "proc-sampler", self._ticks.result()
        threads = [t for t in threads if matcher is None or matcher.search(t.comm)]
        rows = thread_waits(0, threads) + [
            r for r in self._futex_calls.rows() if matcher is None or matcher.search(r[3])
        ]
        return ThreadAccounting(source, threads, group_locks(rows))

    def _futex_call(self, record: TimedEvent) -> None:
        call = read_futex(record.args or "")
        if call is None or not call.waits or record.duration_ns is None or not record.tid:
            return
        assert record.start_ns is not None
        self._futex_calls.add(
            0, record.pid, record.tid, record.comm, hex(call.uaddr), record.start_ns, record.duration_ns
        )

    def _tick(self, point: MetricPoint) -> None:
        labels = dict(point.labels)
        if not labels.get("tid", "").isdigit():
            return
        self._saw_ticks = True
        pid = int(labels["pid"]) if labels.get("pid", "").isdigit() else None
        self._ticks.add(
            (pid, int(labels["tid"]), labels.get("comm", "?")), point.time_ns, labels.get("state", "?")
        )


def sched_interval(record: TimedEvent) -> SchedInterval:
    """A parsed OFF_CPU or ON_CPU record as the accounting's input, the way the API reads rows."""
    attrs = record.attrs
    delay = attrs.get("wakeup_delay_ns")
    inferred = attrs.get("inferred_duration_ns")
    futex = attrs.get("futex_uaddr")
    waker_comm = attrs.get("waker_comm")
    assert record.start_ns is not None
    return SchedInterval(
        on_cpu=record.kind is EventKind.ON_CPU,
        pid=record.pid,
        tid=record.tid or 0,
        comm=record.comm,
        start_ns=record.start_ns,
        duration_ns=record.duration_ns,
        inferred_ns=inferred if isinstance(inferred, int) else None,
        state=record.state,
        wakeup_delay_ns=delay if isinstance(delay, int) else None,
        waker=(record.waker_tid, str(waker_comm or "?")) if record.waker_tid is not None else None,
        stack=record.stack or None,
        futex=futex if isinstance(futex, str) else None,
    )


def is_futex_stack(stack: Hashable) -> bool:
    """Whether a parsed blocking stack (a tuple of frames) is a futex wait."""
    return isinstance(stack, tuple) and any(is_futex_wait_frame(frame_name(f)) for f in stack)


def frame_name(frame: Any) -> str:
    return getattr(frame, "name", str(frame))
