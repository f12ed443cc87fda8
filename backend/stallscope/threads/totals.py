"""Whole-capture thread-state breakdowns, computed once after a parse and read back as they were.

The stored form is the pure result (`ThreadStates`) as JSON, top stacks by stack id, so a stored
breakdown and one computed on the fly give the same answer.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.analysis.thread_states import Latency, ThreadStates, TopStack
from stallscope.threads import repository
from stallscope.threads.repository import ThreadFilter


def to_json(t: ThreadStates) -> dict[str, Any]:
    return {
        "wall_ns": t.wall_ns,
        "states": t.state_ns,
        "other": t.other_states,
        "intervals": t.intervals,
        "latency": [t.latency.count, t.latency.p50_ns, t.latency.p90_ns, t.latency.p99_ns, t.latency.max_ns],
        "wakers": [list(w) for w in t.wakers],
        "top": {state: [top.stack, top.ns, top.share] for state, top in t.top_stacks.items()},
    }


def from_json(pid: int | None, tid: int, comm: str, d: dict[str, Any]) -> ThreadStates:
    count, p50, p90, p99, most = d["latency"]
    return ThreadStates(
        pid=pid,
        tid=tid,
        comm=comm,
        wall_ns=int(d["wall_ns"]),
        state_ns={k: int(v) for k, v in d["states"].items()},
        other_states={k: int(v) for k, v in d["other"].items()},
        intervals=int(d["intervals"]),
        latency=Latency(count, p50, p90, p99, most),
        wakers=[(w[0], w[1], int(w[2])) for w in d["wakers"]],
        top_stacks={
            state: TopStack(int(s), int(ns), float(share)) for state, (s, ns, share) in d["top"].items()
        },
    )


def store(session: Session, capture_id: int, threads: list[ThreadStates]) -> None:
    session.execute(text("DELETE FROM capture_thread_states WHERE capture_id = :id"), {"id": capture_id})
    if not threads:
        return
    from psycopg.types.json import Jsonb

    rows = [
        {
            "capture_id": capture_id,
            "pid": t.pid,
            "tid": t.tid,
            "comm": t.comm,
            "busy": t.wall_ns - t.state_ns["sleeping"] - t.state_ns["unknown"],
            "breakdown": Jsonb(to_json(t)),
        }
        for t in threads
    ]
    session.execute(
        text(
            "INSERT INTO capture_thread_states (capture_id, pid, tid, comm, busy_ns, breakdown) "
            "VALUES (:capture_id, :pid, :tid, :comm, :busy, :breakdown)"
        ),
        rows,
    )


def stored_captures(session: Session, capture_ids: list[int]) -> set[int]:
    rows = session.execute(
        text("SELECT DISTINCT capture_id FROM capture_thread_states WHERE capture_id = ANY(:ids)"),
        {"ids": capture_ids},
    )
    return {int(r[0]) for r in rows}


def load(session: Session, flt: ThreadFilter) -> dict[int, list[ThreadStates]]:
    """Stored breakdowns of the filter's captures and threads (it must have no time range)."""
    where, params = repository.where_threads(flt)
    rows = session.execute(
        text(f"SELECT capture_id, pid, tid, comm, breakdown FROM capture_thread_states WHERE {where}"), params
    )
    out: dict[int, list[ThreadStates]] = {}
    for capture_id, pid, tid, comm, breakdown in rows:
        out.setdefault(int(capture_id), []).append(from_json(pid, tid, comm, breakdown))
    return out
