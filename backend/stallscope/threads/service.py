"""Thread-state breakdowns and strips: stored rows fed through the pure accounting.

Scheduler intervals win when the captures have them (exact times, latencies, wakers, stacks); the
/proc sampler's ticks are the fallback, and the response says which it used.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from stallscope.analysis.strips import StripBuilder
from stallscope.analysis.thread_states import (
    SchedAccumulator,
    ThreadStates,
    TickAccumulator,
    Window,
    busiest_first,
)
from stallscope.flame.catalog import catalog
from stallscope.kit.errors import Invalid
from stallscope.threads import repository, totals
from stallscope.threads.repository import ThreadFilter
from stallscope.threads.schemas import (
    LatencyOut,
    SegmentOut,
    StateSource,
    StripOut,
    ThreadOut,
    ThreadsOut,
    TopStackOut,
    WakerOut,
)

DEFAULT_TICK_NS = 50_000_000
"""The collector's default sampling rate (20 Hz), for sampler captures without a header."""
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _ns(moment: datetime | None) -> int | None:
    if moment is None:
        return None
    delta = moment - EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1000


def _at(ns: int) -> datetime:
    return EPOCH + timedelta(microseconds=ns // 1000)


def _window(flt: ThreadFilter) -> Window:
    return Window(_ns(flt.start), _ns(flt.end))


def _sched_one(session: Session, flt: ThreadFilter) -> list[ThreadStates]:
    """One capture's intervals through the accounting (threads of different hosts never merge)."""
    acc = SchedAccumulator(_window(flt))
    for (
        pid,
        tid,
        comm,
        kind,
        state,
        start_us,
        duration,
        delay,
        waker_tid,
        waker_comm,
        stack,
    ) in repository.sched_rows(session, flt):
        key = (pid, tid, comm)
        if kind == "on-cpu":
            acc.on_cpu(key, start_us * 1000, duration)
        else:
            waker = (waker_tid, waker_comm or "?") if waker_tid is not None else None
            acc.off_cpu(key, start_us * 1000, duration, state, delay, waker, stack)
    return acc.result()


def _sched(session: Session, flt: ThreadFilter, capture_ids: list[int]) -> dict[int, list[ThreadStates]]:
    """Per capture: stored whole-capture totals when the view has no time range, else the intervals."""
    stored: dict[int, list[ThreadStates]] = {}
    if flt.start is None and flt.end is None:
        have = totals.stored_captures(session, capture_ids)
        if have:
            stored = totals.load(session, replace(flt, capture_ids=sorted(have)))
            stored.update({capture_id: [] for capture_id in have if capture_id not in stored})
    for capture_id in capture_ids:
        if capture_id not in stored:
            stored[capture_id] = _sched_one(session, replace(flt, capture_ids=[capture_id]))
    return stored


def store_capture_totals(session: Session, capture_id: int) -> int:
    """After a parse: keep the capture's whole-range breakdown; returns the threads stored."""
    if not repository.sched_captures(session, [capture_id]):
        totals.store(session, capture_id, [])
        return 0
    threads = _sched_one(session, ThreadFilter([capture_id]))
    totals.store(session, capture_id, threads)
    return len(threads)


def _ticks(session: Session, flt: ThreadFilter, notes: list[str]) -> dict[int, list[ThreadStates]]:
    headers = repository.sampler_headers(session, flt.capture_ids)
    accumulators: dict[int, TickAccumulator] = {}
    for pid, tid, comm, state, capture_id, ticks, first_us in repository.tick_counts(session, flt):
        interval_ms = headers.get(capture_id, {}).get("interval_ms")
        interval_ns = int(interval_ms * 1_000_000) if isinstance(interval_ms, int | float) else None
        acc = accumulators.setdefault(capture_id, TickAccumulator(DEFAULT_TICK_NS))
        acc.add((pid, tid, comm), first_us * 1000, state, ticks, interval_ns)
    if any(not header.get("target_pids") for header in headers.values()):
        notes.append(
            "Some sampler captures watched every process (--all): those record only threads that were "
            "not sleeping, so their shares leave sleep out."
        )
    notes.append(
        "From the /proc sampler: a state per tick, so times are ticks times the interval, and R means "
        "running or waiting for a CPU (the sampler cannot tell them apart). Record scheduler events "
        "(--offcpu) for exact times, scheduler latency, wakers and stacks."
    )
    return {capture_id: acc.result() for capture_id, acc in accumulators.items()}


def source_of(session: Session, capture_ids: list[int]) -> tuple[StateSource, list[int]]:
    """Scheduler intervals when any capture has them (and those captures), else the sampler's ticks."""
    sched = repository.sched_captures(session, capture_ids)
    if sched:
        return "sched", sched
    if repository.has_thread_ticks(session, capture_ids):
        return "proc-sampler", capture_ids
    return "none", []


def _comm_filter(pattern: str | None) -> re.Pattern[str] | None:
    if not pattern:
        return None
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise Invalid(f"comm_regex is not a valid regular expression: {exc}") from exc


def breakdown(session: Session, flt: ThreadFilter, comm_regex: str | None, limit: int) -> ThreadsOut:
    matcher = _comm_filter(comm_regex)
    notes: list[str] = []
    source, used = source_of(session, flt.capture_ids)
    by_capture: dict[int, list[ThreadStates]] = {}
    if source == "sched":
        by_capture = _sched(session, flt, used)
    elif source == "proc-sampler":
        by_capture = _ticks(session, flt, notes)
    else:
        notes.append(
            "These captures hold no scheduler intervals and no /proc sampler thread states: upload a "
            "scheduler capture (perf sched events, or the collector's --offcpu) or a sampler capture."
        )
    tagged = [
        (capture_id, t)
        for capture_id, threads in by_capture.items()
        for t in threads
        if matcher is None or matcher.search(t.comm)
    ]
    order = {id(t): i for i, t in enumerate(busiest_first(t for _, t in tagged))}
    tagged.sort(key=lambda pair: order[id(pair[1])])
    hosts = repository.host_names(session, sorted(by_capture))
    return ThreadsOut(
        source=source,
        start=flt.start,
        end=flt.end,
        threads=_thread_payloads(session, tagged[:limit], hosts),
        total_threads=len(tagged),
        notes=notes,
    )


def _thread_payloads(
    session: Session, tagged: list[tuple[int, ThreadStates]], hosts: dict[int, str | None]
) -> list[ThreadOut]:
    threads = [t for _, t in tagged]
    stack_ids = {
        int(top.stack) for t in threads for top in t.top_stacks.values() if isinstance(top.stack, int)
    }
    stacks, frames = catalog.resolve(session, sorted(stack_ids)) if stack_ids else ({}, {})
    return [
        ThreadOut(
            capture_id=capture_id,
            host=hosts.get(capture_id),
            pid=t.pid,
            tid=t.tid,
            comm=t.comm,
            wall_ns=t.wall_ns,
            states=t.state_ns,
            other_states=t.other_states,
            intervals=t.intervals,
            latency=LatencyOut(
                count=t.latency.count,
                p50_ns=t.latency.p50_ns,
                p90_ns=t.latency.p90_ns,
                p99_ns=t.latency.p99_ns,
                max_ns=t.latency.max_ns,
            ),
            wakers=[WakerOut(tid=tid, comm=comm, wakeups=n) for tid, comm, n in t.wakers],
            top_stacks={
                state: TopStackOut(
                    stack_id=int(top.stack),
                    ns=top.ns,
                    share=top.share,
                    frames=[frames[f].name for f in stacks.get(int(top.stack), [])],
                )
                for state, top in t.top_stacks.items()
                if isinstance(top.stack, int)
            },
        )
        for capture_id, t in tagged
    ]


def strip(session: Session, flt: ThreadFilter, buckets: int) -> StripOut:
    if flt.tid is None:
        raise Invalid("a strip needs a thread: pass tid")
    source, used = source_of(session, flt.capture_ids)
    if source == "sched":
        flt = replace(flt, capture_ids=used)
    builder = StripBuilder(_window(flt))
    if source == "sched":
        _feed_strip(builder, repository.sched_rows(session, flt))
    elif source == "proc-sampler":
        headers = repository.sampler_headers(session, flt.capture_ids)
        for state, capture_id, t_us in repository.tick_times(session, flt):
            interval_ms = headers.get(capture_id, {}).get("interval_ms")
            interval_ns = (
                int(interval_ms * 1_000_000) if isinstance(interval_ms, int | float) else DEFAULT_TICK_NS
            )
            builder.tick(t_us * 1000, interval_ns, state)
    segments = [
        SegmentOut(start=_at(s.start_ns), end=_at(s.end_ns), state=s.state) for s in builder.segments(buckets)
    ]
    return StripOut(source=source, tid=flt.tid, segments=segments)


def _feed_strip(builder: StripBuilder, rows: Iterable[repository.SchedRow]) -> None:
    for _pid, _tid, _comm, kind, state, start_us, duration, delay, *_ in rows:
        if kind == "on-cpu":
            builder.on_cpu(start_us * 1000, duration)
        else:
            builder.off_cpu(start_us * 1000, duration, state, delay)
