"""The two storage back ends of the samples table, behind one small interface.

With TimescaleDB the migration made `samples` a hypertable and `sample_rollup_1s` a continuous
aggregate; without it both queries read the plain table. Callers ask `has_timescaledb` once and
pick a relation name; the SQL they run is otherwise identical (`date_bin` exists in both).
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from typing import Any

import psycopg
from sqlalchemy import text
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

Conn = psycopg.Connection[tuple[Any, ...]]

ROLLUP_VIEW = "sample_rollup_1s"
ROLLUP_BUCKET = timedelta(seconds=1)
REFRESH_RETRY_S = 120.0
"""How long a parse keeps retrying a refresh that overlaps another (the hourly policy, another parse)."""

_cache: dict[str, bool] = {}


def has_timescaledb_session(session: Session) -> bool:
    url = str(session.get_bind().engine.url)
    if url not in _cache:
        row = session.execute(text("SELECT 1 FROM pg_extension WHERE extname = 'timescaledb'")).first()
        _cache[url] = row is not None
    return _cache[url]


def has_timescaledb(conn: Conn) -> bool:
    row = conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'timescaledb'").fetchone()
    return row is not None


def refresh_sample_rollup(conn: Conn, capture_id: int) -> None:
    """Re-materialise the per-second aggregate wherever a capture's samples are or were (autocommit).

    Call it after every parse attempt, successful or not. The window comes from the database, not the
    parser: it spans the capture's samples now (untimed samples included, which sit at the clock
    origin) and the buckets the aggregate still holds from before (a failed re-parse deletes every
    sample, and those buckets must empty too).

    The policy alone would never reach it: perf's boot-relative times land in 1970, far behind any
    refresh window measured from now().
    """
    if not has_timescaledb(conn):
        return
    parsed = conn.execute("SELECT parsed_at FROM captures WHERE id = %s", (capture_id,)).fetchone()
    parsed_at = parsed[0] if parsed else None
    row = conn.execute(
        "SELECT min(lo), max(hi) FROM ("
        " SELECT min(ts) AS lo, max(ts) AS hi FROM samples WHERE capture_id = %(id)s"
        f" UNION ALL SELECT min(bucket), max(bucket) FROM {ROLLUP_VIEW} WHERE capture_id = %(id)s"
        ") AS extent",
        {"id": capture_id},
    ).fetchone()
    if row is None or row[0] is None:
        _mark_complete(conn, capture_id, parsed_at)  # no samples, none left behind: nothing to do
        return
    start, end = row
    if _refresh(conn, start - ROLLUP_BUCKET, end + 2 * ROLLUP_BUCKET):
        # As for samples after a load: without fresh statistics the flame query over the rollup
        # sorts its rows on disk instead of hashing them (measured 167 ms against 34 ms, 156k rows).
        table = conn.execute(
            "SELECT format('%%I.%%I', materialization_hypertable_schema, materialization_hypertable_name) "
            "FROM timescaledb_information.continuous_aggregates WHERE view_name = %s",
            (ROLLUP_VIEW,),
        ).fetchone()
        if table is not None:
            conn.execute(f"ANALYZE {table[0]}")
        _mark_complete(conn, capture_id, parsed_at)


def _mark_complete(conn: Conn, capture_id: int, parsed_at: datetime | None) -> None:
    """What a flame graph checks before reading the rollup: complete for the parse of `parsed_at`.

    Read before the refresh began, so a parse committed meanwhile is never marked by a refresh that
    may have missed its samples; that parse's own refresh marks it.
    """
    if parsed_at is None:
        return
    conn.execute(
        "INSERT INTO sample_rollup_captures (capture_id, parsed_at) "
        "SELECT id, %(parsed_at)s FROM captures WHERE id = %(id)s "
        "ON CONFLICT (capture_id) DO UPDATE SET parsed_at = excluded.parsed_at, refreshed_at = now()",
        {"id": capture_id, "parsed_at": parsed_at},
    )


def _refresh(conn: Conn, start: datetime, end: datetime) -> bool:
    """CALL the refresh, waiting out overlapping ones: TimescaleDB refuses those at once (55P03)."""
    deadline = time.monotonic() + REFRESH_RETRY_S
    delay = 0.05
    while True:
        try:
            conn.execute(f"CALL refresh_continuous_aggregate('{ROLLUP_VIEW}', %s, %s)", (start, end))
            return True
        except psycopg.errors.LockNotAvailable:
            if time.monotonic() + delay > deadline:
                # Flame graphs read raw samples until the rollup is complete, so this costs speed only.
                log.warning(
                    "%s: [%s, %s) not refreshed, another refresh held it for %.0f s; "
                    "the refresh policy will materialise it",
                    ROLLUP_VIEW,
                    start,
                    end,
                    REFRESH_RETRY_S,
                )
                return False
            log.info("%s: [%s, %s) waits for a concurrent refresh", ROLLUP_VIEW, start, end)
            time.sleep(delay)
            delay = min(delay * 2, 2.0)
