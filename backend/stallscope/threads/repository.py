"""SQL for thread states: scheduler intervals streamed in time order, /proc sampler ticks counted.

Rows are streamed, not loaded: a busy capture holds a million intervals, and the accounting reads
each once. Times come out as epoch microseconds (exact in SQL's numeric), durations as stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.ingest.sched.args import FUTEX_WAIT_FRAMES

STREAM_BATCH = 20_000


@dataclass(frozen=True, slots=True)
class ThreadFilter:
    capture_ids: list[int]
    start: datetime | None = None
    end: datetime | None = None
    pid: int | None = None
    tid: int | None = None
    comm: str | None = None


def where_threads(flt: ThreadFilter) -> tuple[str, dict[str, Any]]:
    """Captures and pid/tid/comm, for any table with those columns."""
    clauses = ["capture_id = ANY(:ids)"]
    params: dict[str, Any] = {"ids": flt.capture_ids}
    for column in ("pid", "tid", "comm"):
        value = getattr(flt, column)
        if value is not None:
            clauses.append(f"{column} = :{column}")
            params[column] = value
    return " AND ".join(clauses), params


def sched_captures(session: Session, capture_ids: list[int]) -> list[int]:
    """The captures holding scheduler intervals (the parse counted them per event kind)."""
    rows = session.execute(
        text(
            "SELECT id FROM captures WHERE id = ANY(:ids) "
            "AND (coalesce((record_counts->>'events.off-cpu')::bigint, 0) "
            "+ coalesce((record_counts->>'events.on-cpu')::bigint, 0)) > 0 ORDER BY id"
        ),
        {"ids": capture_ids},
    )
    return [int(r[0]) for r in rows]


def has_thread_ticks(session: Session, capture_ids: list[int]) -> bool:
    """Whether any capture has the /proc sampler's per-thread states (a lookup, not a count)."""
    row = session.execute(
        text("SELECT 1 FROM metric_series WHERE capture_id = ANY(:ids) AND name = 'thread.state' LIMIT 1"),
        {"ids": capture_ids},
    ).first()
    return row is not None


def host_names(session: Session, capture_ids: list[int]) -> dict[int, str | None]:
    rows = session.execute(
        text(
            "SELECT c.id, h.name FROM captures c LEFT JOIN hosts h ON h.id = c.host_id WHERE c.id = ANY(:ids)"
        ),
        {"ids": capture_ids},
    )
    return {int(capture_id): name for capture_id, name in rows}


SchedRow = tuple[
    int | None,
    int,
    str,
    str,
    str | None,
    int,
    int | None,
    int | None,
    int | None,
    int | None,
    str | None,
    int | None,
    str | None,
]
"""pid, tid, comm, kind, state, start µs, duration ns, inferred duration ns, wakeup delay ns, waker tid,
waker comm, stack id, futex address."""


def sched_rows(session: Session, flt: ThreadFilter) -> Iterator[SchedRow]:
    """Intervals overlapping the filter's range; one that began before it and is still open counts."""
    where, params = where_threads(flt)
    if flt.end is not None:
        where += " AND ts < :end"
        params["end"] = flt.end
    if flt.start is not None:
        reach = (
            "coalesce(duration_ns, (attrs->>'inferred_duration_ns')::bigint, "
            "(attrs->>'wakeup_delay_ns')::bigint, 0)"
        )
        where += f" AND (ts >= :start OR ts + ({reach} / 1000) * interval '1 microsecond' >= :start)"
        params["start"] = flt.start
    sql = (
        "SELECT pid, tid, comm, kind, state, (extract(epoch FROM ts) * 1000000)::bigint, duration_ns, "
        "(attrs->>'inferred_duration_ns')::bigint, (attrs->>'wakeup_delay_ns')::bigint, waker_tid, "
        "attrs->>'waker_comm', stack_id, attrs->>'futex_uaddr' "
        f"FROM events WHERE {where} AND kind IN ('off-cpu', 'on-cpu')"
    )
    result = session.execute(text(sql).execution_options(stream_results=True, yield_per=STREAM_BATCH), params)
    for row in result:
        yield tuple(row)


def syscall_captures(session: Session, capture_ids: list[int]) -> list[int]:
    """The captures holding traced syscalls (`perf trace`), where futex calls name their lock."""
    rows = session.execute(
        text(
            "SELECT id FROM captures WHERE id = ANY(:ids) "
            "AND coalesce((record_counts->>'events.syscall')::bigint, 0) > 0 ORDER BY id"
        ),
        {"ids": capture_ids},
    )
    return [int(r[0]) for r in rows]


FutexCallRow = tuple[int, int | None, int, str, int, int, str]
"""capture id, pid, tid, comm, start µs, duration ns, arguments."""


def futex_calls(session: Session, flt: ThreadFilter) -> Iterator[FutexCallRow]:
    """Finished `futex` syscalls overlapping the filter's range, with their printed arguments."""
    where, params = where_threads(flt)
    if flt.end is not None:
        where += " AND ts < :end"
        params["end"] = flt.end
    if flt.start is not None:
        where += " AND ts + (duration_ns / 1000) * interval '1 microsecond' >= :start"
        params["start"] = flt.start
    sql = (
        "SELECT capture_id, pid, tid, comm, (extract(epoch FROM ts) * 1000000)::bigint, duration_ns, args "
        f"FROM events WHERE {where} AND kind = 'syscall' AND name = 'futex' AND duration_ns IS NOT NULL "
        "AND tid IS NOT NULL AND args LIKE 'uaddr:%'"
    )
    result = session.execute(text(sql).execution_options(stream_results=True, yield_per=STREAM_BATCH), params)
    for row in result:
        yield tuple(row)


TickRow = tuple[int | None, int, str, str, int, int, int]
"""pid, tid, comm, state letter, capture id, ticks, first tick µs."""


SAMPLER_POINTS = "FROM metric_series s JOIN metrics m ON m.series_id = s.id AND m.capture_id = s.capture_id "


def _sampler_where(flt: ThreadFilter) -> tuple[str, dict[str, Any]]:
    """The sampler's `thread.state` points of the filter's captures, threads and range."""
    clauses = ["s.capture_id = ANY(:ids)", "s.name = 'thread.state'"]
    params: dict[str, Any] = {"ids": flt.capture_ids}
    for column in ("pid", "tid", "comm"):
        value = getattr(flt, column)
        if value is not None:
            clauses.append(f"s.labels->>'{column}' = :{column}")
            params[column] = str(value)
    if flt.start is not None:
        clauses.append("m.ts >= :start")
        params["start"] = flt.start
    if flt.end is not None:
        clauses.append("m.ts < :end")
        params["end"] = flt.end
    return " AND ".join(clauses), params


def tick_counts(session: Session, flt: ThreadFilter) -> list[TickRow]:
    """Ticks per thread and state from the /proc sampler's `thread.state` series."""
    where, params = _sampler_where(flt)
    sql = (
        "SELECT s.labels->>'pid', s.labels->>'tid', s.labels->>'comm', s.labels->>'state', s.capture_id, "
        f"count(*), (extract(epoch FROM min(m.ts)) * 1000000)::bigint {SAMPLER_POINTS} "
        f"WHERE {where} GROUP BY s.id"
    )
    out: list[TickRow] = []
    for pid, tid, comm, state, capture_id, n, first_us in session.execute(text(sql), params):
        if tid is None or not str(tid).isdigit():
            continue
        known_pid = int(pid) if pid and pid.isdigit() else None
        out.append((known_pid, int(tid), comm or "?", state or "?", capture_id, n, first_us))
    return out


def tick_times(session: Session, flt: ThreadFilter) -> Iterator[tuple[str, int, int]]:
    """(state letter, capture id, tick µs) of one thread's samples, for its strip."""
    where, params = _sampler_where(flt)
    sql = (
        "SELECT s.labels->>'state', s.capture_id, (extract(epoch FROM m.ts) * 1000000)::bigint "
        f"{SAMPLER_POINTS} WHERE {where}"
    )
    for state, capture_id, t_us in session.execute(text(sql), params):
        yield state or "?", capture_id, t_us


def sampler_headers(session: Session, capture_ids: list[int]) -> dict[int, dict[str, Any]]:
    """Each /proc sampler capture's header: its interval and whether it watched chosen pids."""
    rows = session.execute(
        text(
            "SELECT capture_id, content FROM capture_documents "
            "WHERE capture_id = ANY(:ids) AND kind = 'proc-sampler-header'"
        ),
        {"ids": capture_ids},
    )
    return {capture_id: dict(content) for capture_id, content in rows}


FUTEX_WAIT_STACKS = """
    SELECT s.id FROM stacks s WHERE s.id = ANY(%(stacks)s) AND EXISTS (
        SELECT 1 FROM unnest(s.frame_ids) AS u (frame_id) JOIN frames f ON f.id = u.frame_id
        WHERE EXISTS (
            SELECT 1 FROM unnest(%(prefixes)s::text[]) AS p (prefix) WHERE starts_with(f.name, p.prefix)
        )
    )
"""


def futex_wait_stacks(conn: psycopg.Connection[tuple[Any, ...]], stack_ids: list[int]) -> set[int]:
    """Which of these stacks are futex waits (`is_futex_wait_frame` of a frame), on the parse's own
    connection: the one question the parse's thread totals ask of the stored stacks."""
    rows = conn.execute(FUTEX_WAIT_STACKS, {"stacks": stack_ids, "prefixes": list(FUTEX_WAIT_FRAMES)})
    return {int(row[0]) for row in rows}
