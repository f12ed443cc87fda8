"""Whole-capture thread-state breakdowns, computed once by the parse and read back as they were.

The stored form is the pure result (`ThreadStates`) as JSON, top stacks and lock sites by stack id,
so a stored breakdown and one computed on the fly give the same answer. It is versioned: rows of an
older accounting are not read (the view computes those captures from their intervals instead, and a
re-parse stores them again).
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.types.json import Jsonb
from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.analysis.thread_states import STATES, Latency, LockWait, ThreadStates, TopStack
from stallscope.threads import repository
from stallscope.threads.repository import ThreadFilter

Conn = psycopg.Connection[tuple[Any, ...]]

VERSION = 2
"""1: one top stack per state, unclosed waits unknown. 2: inferred waits, top stacks, futex locks."""


def to_json(t: ThreadStates) -> dict[str, Any]:
    return {
        "v": VERSION,
        "wall_ns": t.wall_ns,
        "states": t.state_ns,
        "inferred": t.inferred_ns,
        "other": t.other_states,
        "intervals": t.intervals,
        "inferred_intervals": t.inferred_intervals,
        "latency": [t.latency.count, t.latency.p50_ns, t.latency.p90_ns, t.latency.p99_ns, t.latency.max_ns],
        "wakers": [list(w) for w in t.wakers],
        "top": {
            state: [[top.stack, top.ns, top.share, top.count, top.longest_ns] for top in tops]
            for state, tops in t.top_stacks.items()
        },
        "locks": [
            [w.lock[0], w.lock[1], w.count, w.total_ns, w.longest_ns, w.inferred_ns] for w in t.lock_waits
        ],
    }


def from_json(pid: int | None, tid: int, comm: str, d: dict[str, Any]) -> ThreadStates:
    count, p50, p90, p99, most = d["latency"]
    inferred = dict.fromkeys(STATES, 0)
    inferred.update({k: int(v) for k, v in d["inferred"].items()})
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
            state: [
                TopStack(int(s), int(ns), float(share), int(n), int(longest))
                for s, ns, share, n, longest in tops
            ]
            for state, tops in d["top"].items()
        },
        inferred_ns=inferred,
        inferred_intervals=int(d["inferred_intervals"]),
        lock_waits=[
            LockWait((kind, key), int(n), int(total), int(longest), int(inf))
            for kind, key, n, total, longest, inf in d["locks"]
        ],
    )


INSERT_ROWS = (
    "INSERT INTO capture_thread_states (capture_id, pid, tid, comm, busy_ns, breakdown) "
    "VALUES (%s, %s, %s, %s, %s, %s)"
)


def store(conn: Conn, capture_id: int, threads: list[ThreadStates]) -> None:
    """Replace the capture's stored breakdowns (the parse's connection, in its transaction)."""
    conn.execute("DELETE FROM capture_thread_states WHERE capture_id = %s", (capture_id,))
    if not threads:
        return
    rows = [
        (
            capture_id,
            t.pid,
            t.tid,
            t.comm,
            t.wall_ns - t.state_ns["sleeping"] - t.state_ns["unknown"],
            Jsonb(to_json(t)),
        )
        for t in threads
    ]
    with conn.cursor() as cursor:
        cursor.executemany(INSERT_ROWS, rows)


CURRENT = "(breakdown->>'v')::int = :version"


def stored_captures(session: Session, capture_ids: list[int]) -> set[int]:
    """Captures whose stored breakdowns are of this accounting (older ones are computed afresh)."""
    rows = session.execute(
        text(
            "SELECT DISTINCT capture_id FROM capture_thread_states "
            f"WHERE capture_id = ANY(:ids) AND {CURRENT}"
        ),
        {"ids": capture_ids, "version": VERSION},
    )
    return {int(r[0]) for r in rows}


def load(session: Session, flt: ThreadFilter) -> dict[int, list[ThreadStates]]:
    """Stored breakdowns of the filter's captures and threads (it must have no time range)."""
    where, params = repository.where_threads(flt)
    params["version"] = VERSION
    rows = session.execute(
        text(
            "SELECT capture_id, pid, tid, comm, breakdown FROM capture_thread_states "
            f"WHERE {where} AND {CURRENT}"
        ),
        params,
    )
    out: dict[int, list[ThreadStates]] = {}
    for capture_id, pid, tid, comm, breakdown in rows:
        out.setdefault(int(capture_id), []).append(from_json(pid, tid, comm, breakdown))
    return out
