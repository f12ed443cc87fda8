"""A capture's digest read back from the tables its parse filled: the server's side of the contract
in `analysis/findings/digest.py`, aggregated by the same keys as `digest_builder.py` does from records."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from stallscope.analysis.findings.digest import (
    CaptureDigest,
    CpuRow,
    DurationStats,
    MetricSummary,
    WaitRow,
    WakeBursts,
)
from stallscope.analysis.findings.digest_builder import thread_summary
from stallscope.findings import repository
from stallscope.findings.repository import Span
from stallscope.flame.catalog import catalog
from stallscope.kit.units import epoch_ns
from stallscope.threads.service import capture_threads


def _ns(moment: datetime | None) -> int | None:
    return None if moment is None else epoch_ns(moment)


class _Stacks:
    """Stored stack ids as the digest's own frame and stack tables."""

    def __init__(self, session: Session, stack_ids: set[int]) -> None:
        self.frames: list[tuple[str, str]] = []
        self.stacks: list[tuple[int, ...]] = []
        self._index: dict[int, int] = {}
        resolved, infos = catalog.resolve(session, sorted(stack_ids)) if stack_ids else ({}, {})
        frame_index: dict[tuple[str, str], int] = {}
        for stack_id in sorted(resolved):
            ids = []
            for frame_id in resolved[stack_id]:
                info = infos[frame_id]
                key = (info.name, info.kind)
                at = frame_index.get(key)
                if at is None:
                    at = frame_index[key] = len(self.frames)
                    self.frames.append(key)
                ids.append(at)
            self._index[stack_id] = len(self.stacks)
            self.stacks.append(tuple(ids))

    def of(self, stack_id: int | None) -> int:
        return -1 if stack_id is None else self._index.get(stack_id, -1)


def build_digest(
    session: Session, capture_id: int, span: Span | None = None, with_documents: bool = True
) -> CaptureDigest | None:
    """The capture's digest, of its whole range or of the part of it in `span`. Documents (snapshots,
    settings) have no time inside a capture: whoever cuts it in spans says which span gets them."""
    meta = repository.capture_meta(session, capture_id)
    if meta is None:
        return None
    _, filename, host, format_name, start, end = meta
    if span is not None:
        if start is not None and end is not None and end >= span.start and start < span.end:
            start, end = max(start, span.start), min(end, span.end)
        else:
            start = end = None
    cpu = repository.stack_totals(session, capture_id, span)
    waits = repository.event_groups(session, capture_id, span)
    stacks = _Stacks(session, {r[4] for r in cpu} | {r[6] for r in waits if r[6] is not None})
    source, threads = capture_threads(
        session, capture_id, span.start if span else None, span.end if span else None
    )
    return CaptureDigest(
        capture_id=capture_id,
        name=filename,
        host=host,
        format=format_name,
        start_ns=_ns(start),
        end_ns=_ns(end),
        frames=stacks.frames,
        stacks=stacks.stacks,
        cpu=[CpuRow(e, pid, tid, comm, stacks.of(s), int(w), int(n)) for e, pid, tid, comm, s, w, n in cpu],
        waits=[
            WaitRow(
                kind, name, pid, tid, comm, state, stacks.of(s), int(n), int(total), int(most), int(blocked)
            )
            for kind, name, pid, tid, comm, state, s, n, total, most, blocked in waits
        ],
        durations=[
            DurationStats(kind, name, int(n), int(total), int(p50), int(p90), int(p99), int(most))
            for kind, name, n, total, p50, p90, p99, most in repository.duration_stats(
                session, capture_id, span
            )
        ],
        thread_source=source,
        threads=[thread_summary(t) for t in threads],
        metrics=[
            MetricSummary(
                name,
                tuple(sorted((str(k), str(v)) for k, v in (labels or {}).items())),
                unit,
                int(n),
                float(low),
                float(mean),
                float(p95),
                float(high),
                float(first),
                float(last),
                _ns(first_at) or 0,
                _ns(last_at) or 0,
            )
            for name, labels, unit, n, low, mean, p95, high, first, last, first_at, last_at in (
                repository.metric_summaries(session, capture_id, span)
            )
        ],
        documents=repository.documents(session, capture_id) if with_documents else [],
        wake_bursts=[
            WakeBursts(int(tid), str(comm), int(n), int(bursts), int(woken))
            for tid, comm, n, bursts, woken in repository.wake_bursts(session, capture_id, span)
        ],
    )
