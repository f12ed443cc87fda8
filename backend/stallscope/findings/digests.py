"""A capture's digest read back from the tables its parse filled: the server's side of the contract
in `analysis/findings/digest.py`, aggregated by the same keys as `digest_builder.py` does from records.

Its stacks are read off the call-site tree the parse stored (else in one query) and kept as arrays
(`StackTable`), not through the process-wide frame catalog: a deep capture's tens of thousands of
stacks would only push out what views cached."""

from __future__ import annotations

from datetime import datetime

import numpy as np
from sqlalchemy.orm import Session

from stallscope.analysis.callsites import PROCESS_LEVEL, CallsiteTree
from stallscope.analysis.findings.cpu_table import CpuTable
from stallscope.analysis.findings.digest import (
    CaptureDigest,
    DurationStats,
    FrameName,
    MetricSummary,
    WaitRow,
    WakeBursts,
)
from stallscope.analysis.findings.digest_builder import thread_summary
from stallscope.analysis.findings.stack_table import Int32s, Int64s, StackTable
from stallscope.findings import repository
from stallscope.findings.repository import Span
from stallscope.kit.units import epoch_ns
from stallscope.threads.service import capture_threads


def _ns(moment: datetime | None) -> int | None:
    return None if moment is None else epoch_ns(moment)


class _Stacks:
    """Stored stacks as the digest's own frame and stack tables: frames numbered in the order the
    stacks (by id) name them first, root first, one per (name, kind)."""

    def __init__(self, session: Session, capture_id: int, stack_ids: set[int]) -> None:
        self.frames: list[FrameName] = []
        self.table = StackTable(np.zeros(0, dtype=np.int32), np.zeros(1, dtype=np.int64))
        self._index: dict[int, int] = {}
        self._ids = np.zeros(0, dtype=np.int64)
        if not stack_ids:
            return
        ids, lengths, frame_ids = _stack_frames(session, capture_id, sorted(stack_ids))
        in_order = _first_seen(frame_ids)
        names = repository.frame_names(session, in_order.tolist())
        numbered: dict[FrameName, int] = {}
        index_of_frame = np.zeros(int(in_order.max(initial=-1)) + 1, dtype=np.int32)
        index_of_frame[in_order] = np.fromiter(
            (numbered.setdefault(names[f], len(numbered)) for f in in_order.tolist()),
            dtype=np.int32,
            count=len(in_order),
        )
        self.frames = list(numbered)
        offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        self.table = StackTable(index_of_frame[frame_ids], offsets)
        self._index = dict(zip(ids.tolist(), range(len(ids)), strict=True))
        self._ids = ids

    def of(self, stack_id: int | None) -> int:
        return -1 if stack_id is None else self._index.get(stack_id, -1)

    def indexes_of(self, stack_ids: Int64s) -> Int64s:
        """`of` of many stored stack ids at once."""
        if not len(self._ids):
            return np.full(len(stack_ids), -1, dtype=np.int64)
        at = np.minimum(np.searchsorted(self._ids, stack_ids), len(self._ids) - 1)
        found: Int64s = np.where(self._ids[at] == stack_ids, at, -1)
        return found


def _stack_frames(session: Session, capture_id: int, stack_ids: list[int]) -> tuple[Int64s, Int64s, Int32s]:
    """(stacks found, ascending; their lengths; their frame ids, root first, concatenated), from the
    call-site tree the parse stored just before (every stack's frames were read once for it: a
    deep capture's take a third of a second to read again), else from the stacks table."""
    tree = repository.stored_callsite_tree(session, capture_id)
    found = None if tree is None else stack_frames_from_tree(tree, np.array(stack_ids, dtype=np.int64))
    return found if found is not None else repository.stack_frames(session, stack_ids)


def stack_frames_from_tree(tree: CallsiteTree, stack_ids: Int64s) -> tuple[Int64s, Int64s, Int32s] | None:
    """`repository.stack_frames` read off a capture's call-site tree: each stack's path from its
    leaf up to its process node, walked for all stacks at once. None when the tree lacks a stack."""
    pair_stacks = tree.pair_stacks()  # ascending: pairs are sorted by stack, then process
    if not len(pair_stacks):
        return None
    first_pair = np.minimum(np.searchsorted(pair_stacks, stack_ids), len(pair_stacks) - 1)
    if not np.array_equal(pair_stacks[first_pair], stack_ids):
        return None
    node = tree.pair_leaf[first_pair].astype(np.int64)
    lengths = np.searchsorted(tree.level_starts, node, side="right") - 1 - PROCESS_LEVEL
    last = np.cumsum(lengths) - 1
    frames = np.zeros(int(lengths.sum()), dtype=np.int32)
    for step in range(int(lengths.max(initial=0))):
        deeper = np.flatnonzero(lengths > step)
        frames[last[deeper] - step] = tree.key[node[deeper]]
        node[deeper] = tree.parent[node[deeper]]
    return stack_ids, lengths.astype(np.int64), frames


def _first_seen(frame_ids: Int32s) -> Int32s:
    """The distinct frame ids in the order they first occur (frame ids are dense: a table of first
    positions is linear, where sorting millions of them took a sixth of a second)."""
    if not len(frame_ids):
        return frame_ids
    first = np.full(int(frame_ids.max()) + 1, len(frame_ids), dtype=np.int64)
    np.minimum.at(first, frame_ids, np.arange(len(frame_ids), dtype=np.int64))
    present = np.flatnonzero(first < len(frame_ids))
    in_order: Int32s = present[np.argsort(first[present])].astype(np.int32)
    return in_order


def _cpu_table(totals: repository.StackTotals, stacks: _Stacks) -> CpuTable:
    events: dict[str, int] = {}
    comms: dict[str, int] = {}
    event = [events.setdefault(e, len(events)) for e in totals.event]
    comm = [comms.setdefault(c, len(comms)) for c in totals.comm]
    return CpuTable(
        events=list(events),
        event=np.array(event, dtype=np.int64).reshape(len(event)),
        pid=totals.pid,
        tid=totals.tid,
        comms=list(comms),
        comm=np.array(comm, dtype=np.int64).reshape(len(comm)),
        stack=stacks.indexes_of(totals.stack_id),
        weight=totals.weight,
        samples=totals.samples,
    )


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
    stack_ids = set(cpu.stack_id.tolist()) | {r[6] for r in waits if r[6] is not None}
    stacks = _Stacks(session, capture_id, stack_ids)
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
        stacks=stacks.table,
        cpu=_cpu_table(cpu, stacks),
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
