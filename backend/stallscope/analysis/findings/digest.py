"""A capture boiled down to what detectors read: the input contract of the findings engine.

One digest per capture, built two ways that must agree: on the server from the tables a parse
filled (`findings/digests.py`), and in the CLI straight from the parsed records
(`digest_builder.py`). Both aggregate the same records by the same keys, so a detector sees the
same numbers wherever it runs. Small enough to keep as JSON beside the capture (aggregates, not
samples), which is what makes findings quick after a parse. The tables that grow with a capture's
distinct stacks (the stacks themselves, the CPU and wait rows) are kept packed (`stack_table.py`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from stallscope.analysis.findings.cpu_table import CpuRow as CpuRow
from stallscope.analysis.findings.cpu_table import CpuTable
from stallscope.analysis.findings.stack_table import StackTable, pack_rows, unpack_rows

VERSION = 4
"""Bumped when the digest's meaning or form changes; stored digests of another version are not read
(they are built again from the capture's tables). 2: blocked time apart from the wake-up delay.
3: wake-up bursts. 4: stacks, CPU rows (as columns) and wait rows packed."""

FrameName = tuple[str, str]
"""(name, kind): kind as stored (`kernel`, `user`, `jit`, `inline`, `unknown`)."""
StackNames = tuple[str, ...]
"""A stack's frame names, root (outermost caller) first."""

DURATION_KINDS = ("syscall", "fault", "function", "tracepoint")
"""Event kinds summarised by name with percentiles (off-CPU time is summarised per thread)."""


@dataclass(slots=True)
class WaitRow:
    """Timed events of one kind, name, thread, state and stack; unclosed ones are not summed."""

    kind: str
    name: str
    pid: int | None
    tid: int | None
    comm: str
    state: str | None
    stack: int
    """Index into `stacks`; -1 when the event had none."""
    count: int
    total_ns: int
    max_ns: int
    blocked_ns: int = 0
    """Of `total_ns`, the time until the recorded wake-up (all of it when none was recorded): off the
    CPU and not yet runnable. The rest (woken, waiting for a CPU) is what the thread accounting calls
    runnable, so shares of a thread's time taken from this add up with the threads view's."""


@dataclass(slots=True)
class DurationStats:
    """Closed events of one kind and name: how many, and their duration percentiles (nearest rank)."""

    kind: str
    name: str
    count: int
    total_ns: int
    p50_ns: int
    p90_ns: int
    p99_ns: int
    max_ns: int


@dataclass(slots=True)
class ThreadSummary:
    """A thread's whole-capture scheduler accounting (the threads view's numbers)."""

    pid: int | None
    tid: int
    comm: str
    wall_ns: int
    state_ns: dict[str, int]
    intervals: int
    latency: tuple[int, int | None, int | None, int | None, int | None]
    """(waits, p50, p90, p99, max) of the time from wake-up to running, in ns."""
    wakers: list[tuple[int | None, str, int]]
    locks: list[tuple[str, int, int, int]]
    """(lock, waits, total_ns, longest_ns): futex waits by address (`0x…`) or `site`."""

    def share(self, state: str) -> float:
        return self.state_ns.get(state, 0) / self.wall_ns if self.wall_ns else 0.0


@dataclass(slots=True)
class MetricSummary:
    """One series over the capture: its spread and its ends (counters are read by their ends)."""

    name: str
    labels: tuple[tuple[str, str], ...]
    unit: str | None
    count: int
    minimum: float
    mean: float
    p95: float
    maximum: float
    first: float
    last: float
    first_ns: int
    last_ns: int


BURST_GAP_US = 100
"""Wake-ups by one waker closer together than this belong to one burst (one broadcast)."""


@dataclass(slots=True)
class WakeBursts:
    """One waker's wake-ups of other threads, grouped into bursts: a broadcast wakes a burst of
    many, a signal a burst of one. Times are whole microseconds, as stored."""

    waker_tid: int
    waker_comm: str
    wakeups: int
    bursts: int
    woken_threads: int


@dataclass(slots=True)
class CaptureDigest:
    capture_id: int | None
    name: str
    host: str
    format: str
    start_ns: int | None
    end_ns: int | None
    frames: list[FrameName] = field(default_factory=list)
    stacks: Sequence[tuple[int, ...]] = field(default_factory=list)
    """Frame indexes, root first: a list, or a `StackTable` (the server's, and one read from JSON)."""
    cpu: Sequence[CpuRow] = field(default_factory=list)
    """A list, or a `CpuTable` (the server's, and one read from JSON)."""
    waits: list[WaitRow] = field(default_factory=list)
    durations: list[DurationStats] = field(default_factory=list)
    thread_source: str = "none"
    """`sched` (scheduler intervals), `proc-sampler` (ticks) or `none`."""
    threads: list[ThreadSummary] = field(default_factory=list)
    metrics: list[MetricSummary] = field(default_factory=list)
    documents: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    wake_bursts: list[WakeBursts] = field(default_factory=list)

    def stack_names(self, index: int) -> StackNames:
        if index < 0:
            return ()
        frames = self.frames
        return tuple(frames[i][0] for i in self.stacks[index])

    def as_json(self) -> dict[str, Any]:
        return {
            "v": VERSION,
            "capture_id": self.capture_id,
            "name": self.name,
            "host": self.host,
            "format": self.format,
            "start_ns": self.start_ns,
            "end_ns": self.end_ns,
            "frames": [list(f) for f in self.frames],
            "stacks": StackTable.of(self.stacks).as_json(),
            "cpu": CpuTable.of(self.cpu).as_json(),
            "waits": pack_rows([_wait_row(w) for w in self.waits]),
            "durations": [
                [d.kind, d.name, d.count, d.total_ns, d.p50_ns, d.p90_ns, d.p99_ns, d.max_ns]
                for d in self.durations
            ],
            "thread_source": self.thread_source,
            "threads": [
                [
                    t.pid,
                    t.tid,
                    t.comm,
                    t.wall_ns,
                    t.state_ns,
                    t.intervals,
                    list(t.latency),
                    [list(w) for w in t.wakers],
                    [list(lk) for lk in t.locks],
                ]
                for t in self.threads
            ],
            "metrics": [
                [
                    m.name,
                    [list(label) for label in m.labels],
                    m.unit,
                    m.count,
                    m.minimum,
                    m.mean,
                    m.p95,
                    m.maximum,
                    m.first,
                    m.last,
                    m.first_ns,
                    m.last_ns,
                ]
                for m in self.metrics
            ],
            "documents": [[kind, content] for kind, content in self.documents],
            "wake_bursts": [
                [b.waker_tid, b.waker_comm, b.wakeups, b.bursts, b.woken_threads] for b in self.wake_bursts
            ],
        }


def _wait_row(w: WaitRow) -> list[Any]:
    return [
        w.kind,
        w.name,
        w.pid,
        w.tid,
        w.comm,
        w.state,
        w.stack,
        w.count,
        w.total_ns,
        w.max_ns,
        w.blocked_ns,
    ]


def digest_from_json(d: dict[str, Any]) -> CaptureDigest:
    """The inverse of `as_json`; raises ValueError for a digest of another version."""
    if d.get("v") != VERSION:
        raise ValueError(f"digest version {d.get('v')!r}, expected {VERSION}")
    return CaptureDigest(
        capture_id=d["capture_id"],
        name=d["name"],
        host=d["host"],
        format=d["format"],
        start_ns=d["start_ns"],
        end_ns=d["end_ns"],
        frames=[(f[0], f[1]) for f in d["frames"]],
        stacks=StackTable.from_json(d["stacks"]),
        cpu=CpuTable.from_json(d["cpu"]),
        waits=[WaitRow(*w) for w in unpack_rows(d["waits"])],
        durations=[DurationStats(*x) for x in d["durations"]],
        thread_source=d["thread_source"],
        threads=[
            ThreadSummary(
                pid=t[0],
                tid=t[1],
                comm=t[2],
                wall_ns=t[3],
                state_ns=dict(t[4]),
                intervals=t[5],
                latency=(t[6][0], t[6][1], t[6][2], t[6][3], t[6][4]),
                wakers=[(w[0], w[1], w[2]) for w in t[7]],
                locks=[(lk[0], lk[1], lk[2], lk[3]) for lk in t[8]],
            )
            for t in d["threads"]
        ],
        metrics=[MetricSummary(m[0], tuple((a, b) for a, b in m[1]), *m[2:]) for m in d["metrics"]],
        documents=[(kind, content) for kind, content in d["documents"]],
        wake_bursts=[WakeBursts(*b) for b in d["wake_bursts"]],
    )


def is_host_series(name: str, labels: Sequence[tuple[str, str]]) -> bool:
    """Whether a metric series is kept in a digest: per-thread series (the sampler's thread states,
    a label `tid`) are left to the thread accounting, or a busy host's digest would hold thousands."""
    return name != "thread.state" and not any(key == "tid" for key, _ in labels)


def percentile_disc(ordered: Sequence[int] | Sequence[float], fraction: float) -> Any:
    """The first value whose cumulative share reaches `fraction`: SQL's `percentile_disc`, so the
    server (which asks PostgreSQL) and the CLI (which sorts in Python) agree to the nanosecond."""
    if not ordered:
        raise ValueError("no values")
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def count_bursts(wake_us: list[int]) -> int:
    """Bursts in one waker's wake-up times (sorted): a gap over `BURST_GAP_US` starts a new one."""
    bursts, last = 0, None
    for t in wake_us:
        if last is None or t - last > BURST_GAP_US:
            bursts += 1
        last = t
    return bursts
