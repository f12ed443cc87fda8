"""Thread-state breakdowns, strips and futex locks: stored rows fed through the pure accounting.

Scheduler intervals win when the captures have them (exact times, latencies, wakers, stacks); the
/proc sampler's ticks are the fallback, and the response says which it used. A breakdown and a strip
read the same rows into the same per-thread line (`analysis.thread_timeline`), so the bar and the strip
of a thread cannot disagree; the stored whole-capture totals are that line too, fed the same intervals
as the parse stored them (`threads/parse_step.py`).
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from stallscope.analysis.futex_waits import LockGroup, SyscallWaits, WaitRow, group_locks, thread_waits
from stallscope.analysis.strips import strip as strip_of
from stallscope.analysis.strips import tick_segments
from stallscope.analysis.thread_states import (
    FutexStack,
    SchedAccumulator,
    SchedInterval,
    ThreadStates,
    TickAccumulator,
    Window,
    busiest_first,
)
from stallscope.flame.catalog import catalog
from stallscope.ingest.sched.args import is_futex_wait_frame, read_futex
from stallscope.kit.errors import Invalid
from stallscope.kit.units import epoch_ns
from stallscope.threads import repository, totals
from stallscope.threads.payloads import lock_payloads, thread_payloads
from stallscope.threads.repository import ThreadFilter
from stallscope.threads.schemas import SegmentOut, StateSource, StripOut, ThreadsOut

DEFAULT_TICK_NS = 50_000_000
"""The collector's default sampling rate (20 Hz), for sampler captures without a header."""
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
NO_PIDS_NOTE = (
    "Process ids are unknown: these scheduler captures print thread ids only (perf script's default "
    "header). `perf script -F +pid,+ip,+sym,+symoff,+dso` prints pid/tid."
)
SITE_LOCKS_NOTE = (
    "Futex waits are grouped by blocking stack (a call site): these scheduler captures do not name the "
    "futex. Record `-e syscalls:sys_enter_futex` beside the sched events to group them by address."
)


def _ns(moment: datetime | None) -> int | None:
    return None if moment is None else epoch_ns(moment)


def _at(ns: int) -> datetime:
    return EPOCH + timedelta(microseconds=ns // 1000)


def _window(flt: ThreadFilter) -> Window:
    return Window(_ns(flt.start), _ns(flt.end))


def _intervals(rows: Iterable[repository.SchedRow]) -> Iterator[SchedInterval]:
    """Stored rows as the accounting's input (times in the database are microseconds)."""
    for (
        pid,
        tid,
        comm,
        kind,
        state,
        start_us,
        duration,
        inferred,
        delay,
        waker_tid,
        waker_comm,
        stack,
        futex,
    ) in rows:
        yield SchedInterval(
            on_cpu=kind == "on-cpu",
            pid=pid,
            tid=tid,
            comm=comm,
            start_ns=start_us * 1000,
            duration_ns=duration,
            inferred_ns=inferred,
            state=state,
            wakeup_delay_ns=delay,
            waker=(waker_tid, waker_comm or "?") if waker_tid is not None else None,
            stack=stack,
            futex=futex,
        )


def _accumulate(session: Session, flt: ThreadFilter) -> SchedAccumulator:
    acc = SchedAccumulator(_window(flt))
    for interval in _intervals(repository.sched_rows(session, flt)):
        acc.add(interval)
    return acc


def futex_stacks(session: Session, stacks: Iterable[Hashable]) -> FutexStack:
    """Which of these stored stacks are futex waits (by their frames' names)."""
    ids = sorted({s for s in stacks if isinstance(s, int)})
    resolved, frames = catalog.resolve(session, ids) if ids else ({}, {})
    waits = {
        s for s, frame_ids in resolved.items() if any(is_futex_wait_frame(frames[f].name) for f in frame_ids)
    }
    return lambda stack: stack in waits


def _sched_one(session: Session, flt: ThreadFilter) -> list[ThreadStates]:
    """One capture's intervals through the accounting (threads of different hosts never merge)."""
    acc = _accumulate(session, flt)
    return acc.result(futex_stacks(session, acc.stacks()))


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


def capture_threads(
    session: Session, capture_id: int, start: datetime | None = None, end: datetime | None = None
) -> tuple[StateSource, list[ThreadStates]]:
    """One capture's thread states over its whole range or [start, end), as the threads view shows
    them (findings read these)."""
    source, used = source_of(session, [capture_id])
    if source == "sched":
        return source, _sched(session, ThreadFilter(used, start, end), used).get(capture_id, [])
    if source == "proc-sampler":
        return source, _ticks(session, ThreadFilter([capture_id], start, end), []).get(capture_id, [])
    return source, []


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
        # Named as the console names the field: the API parameter's name means nothing to its user.
        raise Invalid(f"the thread name filter is not a valid regular expression: {exc}") from exc


def _syscall_waits(session: Session, flt: ThreadFilter, matcher: re.Pattern[str] | None) -> list[WaitRow]:
    """Futex waits traced as syscalls (`perf trace`), by address, in the selection's captures."""
    captures = repository.syscall_captures(session, flt.capture_ids)
    if not captures:
        return []
    waits = SyscallWaits(_window(flt))
    for capture_id, pid, tid, comm, start_us, duration, args in repository.futex_calls(
        session, replace(flt, capture_ids=captures)
    ):
        call = read_futex(args)
        if call is not None and call.waits and (matcher is None or matcher.search(comm)):
            waits.add(capture_id, pid, tid, comm, hex(call.uaddr), start_us * 1000, duration)
    return waits.rows()


def breakdown(session: Session, flt: ThreadFilter, comm_regex: str | None, limit: int) -> ThreadsOut:
    matcher = _comm_filter(comm_regex)
    notes: list[str] = []
    source, used = source_of(session, flt.capture_ids)
    by_capture: dict[int, list[ThreadStates]] = {}
    if source == "sched":
        by_capture = _sched(session, flt, used)
    elif source == "proc-sampler":
        by_capture = _ticks(session, flt, notes)
    tagged = [
        (capture_id, t)
        for capture_id, threads in by_capture.items()
        for t in threads
        if matcher is None or matcher.search(t.comm)
    ]
    order = {id(t): i for i, t in enumerate(busiest_first(t for _, t in tagged))}
    tagged.sort(key=lambda pair: order[id(pair[1])])
    waits = [row for capture_id, t in tagged for row in thread_waits(capture_id, [t])]
    waits += _syscall_waits(session, flt, matcher)
    locks = group_locks(waits)
    notes += _notes(source, tagged, locks)
    hosts = repository.host_names(session, sorted(set(by_capture) | {g.scope for g in locks}))
    threads_out, stack_frames = thread_payloads(session, tagged[:limit], hosts)
    return ThreadsOut(
        source=source,
        start=flt.start,
        end=flt.end,
        threads=threads_out,
        total_threads=len(tagged),
        locks=lock_payloads(session, locks, hosts, stack_frames),
        notes=notes,
    )


def _notes(source: StateSource, tagged: list[tuple[int, ThreadStates]], locks: list[LockGroup]) -> list[str]:
    notes = []
    if source == "none" and not locks:
        notes.append(
            "These captures hold no scheduler intervals and no /proc sampler thread states: upload a "
            "scheduler capture (perf sched events, or the collector's --offcpu) or a sampler capture."
        )
    if source == "sched" and tagged and all(t.pid is None for _, t in tagged):
        notes.append(NO_PIDS_NOTE)
    if any(g.lock[0] == "site" for g in locks) and not any(g.lock[0] == "address" for g in locks):
        notes.append(SITE_LOCKS_NOTE)
    return notes


def strip(session: Session, flt: ThreadFilter, buckets: int) -> StripOut:
    tid = flt.tid
    if tid is None:
        raise Invalid("a strip needs a thread: pass tid")
    source, used = source_of(session, flt.capture_ids)
    window = _window(flt)
    if source == "sched":
        flt = replace(flt, capture_ids=used)
        acc = _accumulate(session, flt)
        segments = strip_of(acc.pieces(tid, flt.comm), buckets)
    elif source == "proc-sampler":
        headers = repository.sampler_headers(session, flt.capture_ids)
        ticks = []
        for state, capture_id, t_us in repository.tick_times(session, flt):
            interval_ms = headers.get(capture_id, {}).get("interval_ms")
            interval_ns = (
                int(interval_ms * 1_000_000) if isinstance(interval_ms, int | float) else DEFAULT_TICK_NS
            )
            ticks.append((t_us * 1000, interval_ns, state))
        segments = strip_of(tick_segments(ticks, window), buckets)
    else:
        segments = []
    return StripOut(
        source=source,
        tid=tid,
        segments=[
            SegmentOut(start=_at(s.start_ns), end=_at(s.end_ns), state=s.state, inferred=s.inferred)
            for s in segments
        ],
    )
