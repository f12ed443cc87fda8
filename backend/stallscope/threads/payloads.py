"""Thread breakdowns and futex locks as the API sends them: stack ids resolved to frame names."""

from __future__ import annotations

from sqlalchemy.orm import Session

from stallscope.analysis.futex_waits import LockGroup, caller_frames
from stallscope.analysis.thread_states import ThreadStates
from stallscope.flame.catalog import catalog
from stallscope.threads.schemas import (
    LatencyOut,
    LockOut,
    LockWaiterOut,
    ThreadOut,
    TopStackOut,
    WakerOut,
)

StackFrames = dict[int, list[str]]
"""Stack id -> frame names, root first."""


def _frames(session: Session, stack_ids: set[int], known: StackFrames) -> StackFrames:
    missing = sorted(stack_ids.difference(known))
    if missing:
        stacks, frames = catalog.resolve(session, missing)
        known.update({s: [frames[f].name for f in ids] for s, ids in stacks.items()})
    return known


def thread_payloads(
    session: Session, tagged: list[tuple[int, ThreadStates]], hosts: dict[int, str | None]
) -> tuple[list[ThreadOut], StackFrames]:
    """The threads, and the frames of every stack they name (for the locks to reuse)."""
    stack_ids = {
        top.stack
        for _, t in tagged
        for tops in t.top_stacks.values()
        for top in tops
        if isinstance(top.stack, int)
    }
    names = _frames(session, stack_ids, {})
    out = [
        ThreadOut(
            capture_id=capture_id,
            host=hosts.get(capture_id),
            pid=t.pid,
            tid=t.tid,
            comm=t.comm,
            wall_ns=t.wall_ns,
            states=t.state_ns,
            inferred=t.inferred_ns,
            other_states=t.other_states,
            intervals=t.intervals,
            inferred_intervals=t.inferred_intervals,
            latency=LatencyOut(
                count=t.latency.count,
                p50_ns=t.latency.p50_ns,
                p90_ns=t.latency.p90_ns,
                p99_ns=t.latency.p99_ns,
                max_ns=t.latency.max_ns,
            ),
            wakers=[WakerOut(tid=tid, comm=comm, wakeups=n) for tid, comm, n in t.wakers],
            top_stacks={
                state: [
                    TopStackOut(
                        stack_id=top.stack,
                        ns=top.ns,
                        share=top.share,
                        count=top.count,
                        longest_ns=top.longest_ns,
                        frames=names.get(top.stack, []),
                    )
                    for top in tops
                    if isinstance(top.stack, int)
                ]
                for state, tops in t.top_stacks.items()
            },
        )
        for capture_id, t in tagged
    ]
    return out, names


def lock_payloads(
    session: Session, locks: list[LockGroup], hosts: dict[int, str | None], known: StackFrames
) -> list[LockOut]:
    sites = {g.lock[1] for g in locks if g.lock[0] == "site" and isinstance(g.lock[1], int)}
    names = _frames(session, sites, known)
    out = []
    for g in locks:
        kind, key = g.lock
        stack_id = key if kind == "site" and isinstance(key, int) else None
        frames = names.get(stack_id, []) if stack_id is not None else []
        out.append(
            LockOut(
                capture_id=g.scope,
                host=hosts.get(g.scope),
                pid=g.pid,
                kind="site" if kind == "site" else "address",
                address=str(key) if kind == "address" else None,
                stack_id=stack_id,
                frames=frames,
                caller=caller_frames(frames),
                waits=g.count,
                total_ns=g.total_ns,
                longest_ns=g.longest_ns,
                inferred_ns=g.inferred_ns,
                waiter_count=g.waiter_count,
                waiters=[
                    LockWaiterOut(
                        pid=w.pid,
                        tid=w.tid,
                        comm=w.comm,
                        waits=w.count,
                        total_ns=w.total_ns,
                        longest_ns=w.longest_ns,
                        inferred_ns=w.inferred_ns,
                    )
                    for w in g.waiters
                ],
            )
        )
    return out
