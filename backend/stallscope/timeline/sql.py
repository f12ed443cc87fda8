"""SQL shared by the rollup refresh (at ingest) and the timeline queries, for both back ends.

Every statement is written once. The only thing that differs between plain PostgreSQL and
TimescaleDB is the bucketing function's name, `date_bin` or `time_bucket`, which take the same
(width, time, origin) arguments and draw the same epoch-aligned grid. Parameters use psycopg's
`%(name)s` style: the refresh runs on the parse job's psycopg connection, and the queries hand the
same text to it through SQLAlchemy's `exec_driver_sql`.
"""

from __future__ import annotations

from typing import Any

import psycopg
from sqlalchemy.orm import Session

from stallscope.analysis.timeline_grid import EPOCH
from stallscope.timeseries import has_timescaledb, has_timescaledb_session

Conn = psycopg.Connection[tuple[Any, ...]]

ORIGIN = EPOCH
EVENT_KINDS = ("syscall", "fault", "function", "tracepoint")
"""Event kinds drawn as latency tracks; off-CPU intervals get their own track, on-CPU ones none."""


def bucket_function(timescaledb: bool) -> str:
    return "time_bucket" if timescaledb else "date_bin"


def bucket_function_conn(conn: Conn) -> str:
    return bucket_function(has_timescaledb(conn))


def bucket_function_session(session: Session) -> str:
    return bucket_function(has_timescaledb_session(session))


def bucket(fn: str, column: str, width: str = "width") -> str:
    """`fn(width, column, origin)` with explicit types, so TimescaleDB picks its origin overload."""
    return f"{fn}(CAST(%({width})s AS interval), {column}, CAST(%(origin)s AS timestamptz))"


def grid_index(column: str) -> str:
    """Which of the request's buckets the bucket starting at `column` is, as an integer.

    The database does this arithmetic: turning thousands of bucket timestamps into Python datetimes
    and back into microseconds cost more than the query that found them. Bucket starts are multiples
    of the width from the epoch, as the grid's start is, so the division is exact.
    """
    return f"(((extract(epoch FROM {column}) * 1000000)::bigint - %(start_us)s) / %(width_us)s)::integer"


def run(session: Session, sql: str, params: dict[str, Any]) -> list[Any]:
    """Run psycopg-style SQL on a session's connection (same text as the refresh runs)."""
    return list(session.connection().exec_driver_sql(sql, params).all())


# --- whole-capture totals (res_us = 0) ---------------------------------------------------------------

CPU_TOTALS = """
    SELECT 'cpu', event, comm, pid, sum(samples)::bigint, sum(weight)::double precision,
           NULL::double precision, NULL::double precision
    FROM capture_stack_totals WHERE capture_id = %(id)s GROUP BY event, comm, pid
"""

EVENT_TOTALS = """
    SELECT 'event', kind, name, NULL::integer, count(*), coalesce(sum(duration_ns), 0)::double precision,
           NULL::double precision, max(duration_ns)::double precision
    FROM events WHERE capture_id = %(id)s AND kind = ANY(%(kinds)s) GROUP BY kind, name
"""

OFF_CPU_TOTALS = """
    SELECT 'off-cpu', coalesce(state, '?'), '', NULL::integer, count(*),
           coalesce(sum(duration_ns), 0)::double precision,
           (count(*) - count(duration_ns))::double precision, max(duration_ns)::double precision
    FROM events WHERE capture_id = %(id)s AND kind = 'off-cpu' GROUP BY 2
"""

METRIC_TOTALS = """
    SELECT 'metric', series_id::text, '', NULL::integer, count(*), sum(value), min(value), max(value)
    FROM metrics WHERE capture_id = %(id)s GROUP BY series_id
"""

TOTALS = (CPU_TOTALS, EVENT_TOTALS, OFF_CPU_TOTALS, METRIC_TOTALS)
"""Each yields (source, key, name, pid, n, total, min, max) for one capture."""


# --- bucketed levels ---------------------------------------------------------------------------------


def raw_level(fn: str, source: str) -> str:
    """One capture's raw rows of `source` bucketed at %(width)s: (key, b, name, pid, n, total, lo, hi)."""
    if source == "cpu":
        return f"""
            SELECT event, {bucket(fn, "ts")} AS b, comm, pid, count(*), sum(weight)::double precision,
                   NULL::double precision, NULL::double precision
            FROM samples WHERE capture_id = %(id)s GROUP BY event, b, comm, pid
        """
    if source == "event":
        return f"""
            SELECT kind, {bucket(fn, "ts")} AS b, name, NULL::integer, count(*),
                   coalesce(sum(duration_ns), 0)::double precision, NULL::double precision,
                   max(duration_ns)::double precision
            FROM events WHERE capture_id = %(id)s AND kind = ANY(%(kinds)s) GROUP BY kind, b, name
        """
    if source == "metric":
        return f"""
            SELECT series_id::text, {bucket(fn, "ts")} AS b, '', NULL::integer, count(*), sum(value),
                   min(value), max(value)
            FROM metrics WHERE capture_id = %(id)s GROUP BY series_id, b
        """
    raise ValueError(f"no bucketed level for {source!r}")


PEAK_RATE_FROM = {
    "cpu": "samples WHERE capture_id = %(id)s",
    "event": "events WHERE capture_id = %(id)s AND kind = ANY(%(kinds)s)",
    "metric": "metrics WHERE capture_id = %(id)s",
}


def peak_per_second(fn: str, source: str) -> str:
    """The rows of a source's busiest second (%(second)s must be a one-second interval)."""
    per_second = f"SELECT count(*) AS n FROM {PEAK_RATE_FROM[source]} GROUP BY {bucket(fn, 'ts', 'second')}"
    return f"SELECT coalesce(max(n), 0) FROM ({per_second}) AS c"


def coarser_level(fn: str, table: str) -> str:
    """A finer level (a table of raw_level's columns) re-bucketed at %(width)s."""
    return f"""
        SELECT key, {bucket(fn, "b")} AS b2, name, pid, sum(n)::bigint, sum(total), min(lo), max(hi)
        FROM {table} GROUP BY key, b2, name, pid
    """


# --- off-CPU time as a step function -----------------------------------------------------------------

OFF_CPU_STEPS = """
    WITH intervals AS (
        SELECT coalesce(state, '?') AS state,
               greatest(ts, CAST(%(lo)s AS timestamptz)) AS t0,
               least(ts + interval '1 microsecond' * round(duration_ns / 1000.0),
                     CAST(%(hi)s AS timestamptz)) AS t1
        FROM events
        WHERE capture_id = ANY(%(ids)s) AND kind = 'off-cpu' AND duration_ns > 0
          AND ts < CAST(%(hi)s AS timestamptz) AND ts >= CAST(%(scan_from)s AS timestamptz) {filters}
    ), edges AS (
        SELECT state, t, sum(d) AS d FROM (
            SELECT state, t0 AS t, 1 AS d FROM intervals WHERE t1 > t0
            UNION ALL
            SELECT state, t1, -1 FROM intervals WHERE t1 > t0
        ) AS e GROUP BY state, t
    ), steps AS (
        SELECT state, t, sum(d) OVER w AS n, lead(t) OVER w AS t_next
        FROM edges WINDOW w AS (PARTITION BY state ORDER BY t)
    ), areas AS (
        SELECT state, t, n, coalesce(n * extract(epoch FROM t_next - t) * 1000000, 0) AS area FROM steps
    )
    SELECT state, t, n::bigint, (sum(area) OVER (PARTITION BY state ORDER BY t) - area)::double precision
    FROM areas
"""
"""How many threads are off-CPU in each state from each edge on, and the thread-µs before the edge.

`(state, t, n, f)`: from time t, n threads are off-CPU in this state; f is the area under that
step function from the first edge up to t. The off-CPU time of any bucket [a, b) is then F(b) - F(a)
with F(x) = f + n·(x - t) at the last edge t ≤ x: a lookup per bucket edge, however dense the
intervals. Intervals are clipped to [%(lo)s, %(hi)s); unclosed ones (no duration) are never given
one. Times are microseconds, as stored.
"""
