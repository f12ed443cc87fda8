"""The two storage back ends of the samples table, behind one small interface.

With TimescaleDB the migration made `samples` a hypertable and `sample_rollup_1s` a continuous
aggregate; without it both queries read the plain table. Callers ask `has_timescaledb` once and
pick a relation name; the SQL they run is otherwise identical (`date_bin` exists in both).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import psycopg
from sqlalchemy import text
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

ROLLUP_VIEW = "sample_rollup_1s"
ROLLUP_BUCKET = timedelta(seconds=1)

_cache: dict[str, bool] = {}


def has_timescaledb_session(session: Session) -> bool:
    url = str(session.get_bind().engine.url)
    if url not in _cache:
        row = session.execute(text("SELECT 1 FROM pg_extension WHERE extname = 'timescaledb'")).first()
        _cache[url] = row is not None
    return _cache[url]


def has_timescaledb(conn: psycopg.Connection[tuple[Any, ...]]) -> bool:
    row = conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'timescaledb'").fetchone()
    return row is not None


def refresh_sample_rollup(conn: psycopg.Connection[tuple[Any, ...]], start: datetime, end: datetime) -> None:
    """Materialise the per-second aggregate over a freshly loaded window (autocommit connection).

    The policy alone would never reach it: perf's boot-relative times land in 1970, far behind any
    refresh window measured from now().
    """
    if not has_timescaledb(conn):
        return
    window_start = start - ROLLUP_BUCKET
    window_end = end + 2 * ROLLUP_BUCKET
    conn.execute(f"CALL refresh_continuous_aggregate('{ROLLUP_VIEW}', %s, %s)", (window_start, window_end))
