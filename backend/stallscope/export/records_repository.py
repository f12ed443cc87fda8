"""The SQL that reads one capture's stored rows back, in batches from server-side cursors.

Times come out as whole microseconds since the epoch, computed by the database: exactly what is
stored (timestamps keep microseconds), and no Python `datetime` per row.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
from sqlalchemy.orm import Session

from stallscope.db import session_connection
from stallscope.kit.errors import NotFound

Conn = psycopg.Connection[tuple[Any, ...]]
Row = tuple[Any, ...]

BATCH_ROWS = 20_000
EPOCH_US = "(extract(epoch FROM {column}) * 1000000)::bigint"

CAPTURE = """
    SELECT c.filename, h.name, c.format, c.kind, c.status, c.clock, c.meta, c.events, c.record_counts,
        c.warnings, c.dropped_lines, c.truncated, c.sample_count, c.stack_count, c.thread_count,
        c.time_start, c.time_end, c.sha256, c.size_bytes
    FROM captures c LEFT JOIN hosts h ON h.id = c.host_id
    WHERE c.id = %s
"""
USED_STACKS = """
    SELECT stack_id FROM capture_stack_totals WHERE capture_id = %(id)s
    UNION SELECT stack_id FROM events WHERE capture_id = %(id)s AND stack_id IS NOT NULL
"""
FRAMES = f"""
    SELECT DISTINCT f.id, f.kind, f.name
    FROM ({USED_STACKS}) AS used (stack_id)
    JOIN stacks s ON s.id = used.stack_id
    CROSS JOIN LATERAL unnest(s.frame_ids) AS u (frame_id)
    JOIN frames f ON f.id = u.frame_id
    ORDER BY f.id
"""
STACKS = f"""
    SELECT s.id, s.frame_ids FROM ({USED_STACKS}) AS used (stack_id) JOIN stacks s ON s.id = used.stack_id
    ORDER BY s.id
"""
SAMPLES = (
    f"SELECT {EPOCH_US.format(column='ts')}, pid, tid, comm, cpu, event, weight, stack_id "
    "FROM samples WHERE capture_id = %(id)s"
)
EVENTS = (
    f"SELECT {EPOCH_US.format(column='ts')}, duration_ns, kind, name, pid, tid, comm, cpu, state, stack_id, "
    "waker_tid, args, result, attrs FROM events WHERE capture_id = %(id)s"
)
SERIES = "SELECT id, name, labels, unit FROM metric_series WHERE capture_id = %(id)s ORDER BY id"
POINTS = (
    f"SELECT series_id, {EPOCH_US.format(column='ts')}, value FROM metrics WHERE capture_id = %(id)s "
    "ORDER BY series_id, ts"
)
"""By series, so that the importer meets them in the order their ids were given (views break ties by id)."""
DOCUMENTS = "SELECT kind, content FROM capture_documents WHERE capture_id = %(id)s"


def psycopg_connection(session: Session) -> Conn:
    """The session's own connection, inside its transaction: server-side cursors need one."""
    return session_connection(session)


def capture_row(conn: Conn, capture_id: int) -> Row:
    row = conn.execute(CAPTURE, (capture_id,)).fetchone()
    if row is None:
        raise NotFound(f"capture {capture_id} does not exist")
    return row


def _batches(conn: Conn, name: str, sql: str, capture_id: int) -> Iterator[list[Row]]:
    """The rows of `sql` a batch at a time, from a cursor on the server: memory stays one batch."""
    with conn.cursor(name=f"stallscope_records_{name}") as cursor:
        cursor.itersize = BATCH_ROWS
        cursor.execute(sql, {"id": capture_id})
        while rows := cursor.fetchmany(BATCH_ROWS):
            yield rows


def frames(conn: Conn, capture_id: int) -> Iterator[list[Row]]:
    """(id, kind, name) of every frame in a stack of the capture's samples or events."""
    return _batches(conn, "frames", FRAMES, capture_id)


def stacks(conn: Conn, capture_id: int) -> Iterator[list[Row]]:
    """(id, frame ids root first) of every stack of the capture's samples or events."""
    return _batches(conn, "stacks", STACKS, capture_id)


def samples(conn: Conn, capture_id: int) -> Iterator[list[Row]]:
    return _batches(conn, "samples", SAMPLES, capture_id)


def events(conn: Conn, capture_id: int) -> Iterator[list[Row]]:
    return _batches(conn, "events", EVENTS, capture_id)


def series(conn: Conn, capture_id: int) -> Iterator[list[Row]]:
    return _batches(conn, "series", SERIES, capture_id)


def points(conn: Conn, capture_id: int) -> Iterator[list[Row]]:
    return _batches(conn, "points", POINTS, capture_id)


def documents(conn: Conn, capture_id: int) -> Iterator[list[Row]]:
    return _batches(conn, "documents", DOCUMENTS, capture_id)
