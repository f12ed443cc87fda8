"""Build a capture's timeline rollups from its stored rows, inside the parse's own transaction.

The parse job calls `refresh_timeline_rollups` after the capture's rows are written and before it
commits, so rollups and rows change together: a re-parse (or a clock shift, which re-parses)
replaces both at once, and a failed parse rolls both back. Levels are kept only where they shrink
what a query reads at least twofold; a manifest row per kept level tells queries which to use.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from typing import Any

from stallscope.models.timeline_rollup import SUMMARY
from stallscope.timeline.sql import (
    EVENT_KINDS,
    OFF_CPU_STEPS,
    ORIGIN,
    TOTALS,
    Conn,
    bucket_function_conn,
    coarser_level,
    peak_per_second,
    raw_level,
)

log = logging.getLogger(__name__)

LEVELS_US: tuple[int, ...] = (*(m * 10**e for e in range(3, 9) for m in (1, 2, 5)), 10**9)
"""Candidate bucket widths, 1 ms to 1000 s: every nice width (1/2/5 x 10^n) from 1 ms up, so a zoom at
any of them reads a level of exactly its width, about one row per pixel and process."""
SOURCES = ("cpu", "event", "metric")
KEEP_RATIO = 2
RAW_BUDGET_ROWS = 30_000
"""Raw rows one capture's track may aggregate for a full-width view instead of reading a level (about
15 ms). A request pays it once per capture on screen: ten hosts' CPU tracks at the zoom just below
the finest level read ten times this. Measured on ten 1M-sample hosts (2k samples/s): a 20 s zoom
took 140 ms with 50 ms as the finest level (from a 100k budget) and 90 ms with 10 ms; the level
costs about 2 s more per 1M samples at parse time and 0.2 rollup rows per sample."""
MAX_WIDTH_PX = 2000
WORK_MEM = "256MB"
BUILT = "built"
"""Manifest key written last: the capture's rollups are complete."""

INSERT = (
    "INSERT INTO timeline_rollups (capture_id, source, key, res_us, ts, name, pid, n, total, "
    "min_value, max_value) "
)


def refresh_timeline_rollups(conn: Conn, capture_id: int) -> None:
    """Replace every rollup row of a capture with ones built from its current rows."""
    started = time.monotonic()
    # Hash aggregates of a few million groups stay in memory instead of spilling to disk;
    # SET LOCAL ends with the parse's transaction.
    conn.execute(f"SET LOCAL work_mem = '{WORK_MEM}'")
    conn.execute("DELETE FROM timeline_rollups WHERE capture_id = %s", (capture_id,))
    params: dict[str, Any] = {"id": capture_id, "kinds": list(EVENT_KINDS), "origin": ORIGIN}
    for totals in TOTALS:
        conn.execute(
            INSERT + "SELECT %(id)s, source, key, 0, %(origin)s, name, pid, n, total, lo, hi "
            f"FROM ({totals}) AS t (source, key, name, pid, n, total, lo, hi)",
            params,
        )
    fn = bucket_function_conn(conn)
    for source in SOURCES:
        _build_levels(conn, fn, capture_id, source, params)
    _build_off_cpu_steps(conn, capture_id)
    _manifest(conn, capture_id, BUILT, 0, 0)
    log.info("timeline rollups of capture %s built in %.2f s", capture_id, time.monotonic() - started)


def _raw_rows(conn: Conn, capture_id: int, source: str) -> int:
    row = conn.execute(
        "SELECT coalesce(sum(n), 0) FROM timeline_rollups "
        f"WHERE capture_id = %s AND source = %s AND {SUMMARY}",
        (capture_id, source),
    ).fetchone()
    return int(row[0]) if row else 0


def kept_levels(raw_rows: int, level_rows: dict[int, int]) -> list[int]:
    """Levels worth storing, finest first.

    A query at a level's width that finds it missing reads the coarsest kept level dividing it (or raw
    rows); the level is kept when it has at most 1/KEEP_RATIO of that fallback's rows.
    """
    kept: list[int] = []
    for level in sorted(level_rows):
        fallback = max((k for k in kept if level % k == 0), default=None)
        fallback_rows = raw_rows if fallback is None else level_rows[fallback]
        if level_rows[level] * KEEP_RATIO <= fallback_rows:
            kept.append(level)
    return kept


def finest_useful_level(peak_per_second: int) -> int:
    """The finest level worth building: below it, a full-width view at the busiest second's density
    reads fewer than RAW_BUDGET_ROWS raw rows anyway. 1 or 5 x 10^n, so it divides every coarser
    level and it alone is built from raw rows."""
    if peak_per_second <= 0:
        return LEVELS_US[-1]
    width_us = RAW_BUDGET_ROWS * 1_000_000 / (peak_per_second * MAX_WIDTH_PX)
    for level in LEVELS_US:
        if level >= width_us and str(level)[0] in "15":
            return level
    return LEVELS_US[-1]


def _build_levels(conn: Conn, fn: str, capture_id: int, source: str, params: dict[str, Any]) -> None:
    """Bucket the raw rows once at the finest useful level, each coarser level from the coarsest
    built level dividing it, then keep the levels that pay for themselves."""
    raw_rows = _raw_rows(conn, capture_id, source)
    if raw_rows == 0:
        return
    peak = conn.execute(peak_per_second(fn, source), {**params, "second": timedelta(seconds=1)}).fetchone()
    first = finest_useful_level(int(peak[0]) if peak else 0)
    counts: dict[int, int] = {}
    for level in (lv for lv in LEVELS_US if lv >= first):
        finer = max((f for f in counts if level % f == 0), default=None)
        select = raw_level(fn, source) if finer is None else coarser_level(fn, _level_table(finer))
        cursor = conn.execute(
            f"CREATE TEMPORARY TABLE {_level_table(level)} ON COMMIT DROP AS "
            f"SELECT * FROM ({select}) AS l (key, b, name, pid, n, total, lo, hi)",
            {**params, "width": timedelta(microseconds=level)},
        )
        counts[level] = cursor.rowcount
    kept = kept_levels(raw_rows, counts)
    for level in kept:
        # In index order: appending to the btree beats inserting all over it.
        conn.execute(
            INSERT + "SELECT %(id)s, %(source)s, key, %(res)s, b, name, pid, n, total, lo, hi "
            f"FROM {_level_table(level)} ORDER BY key, b",
            {"id": capture_id, "source": source, "res": level},
        )
        _manifest(conn, capture_id, source, level, counts[level])
    for level in counts:
        conn.execute(f"DROP TABLE {_level_table(level)}")


def _level_table(level_us: int) -> str:
    return f"timeline_level_{level_us}"


def _build_off_cpu_steps(conn: Conn, capture_id: int) -> None:
    conn.execute(
        INSERT + "SELECT %(id)s, 'off-cpu-steps', state, 0, t, '', NULL, n, f, NULL, NULL "
        f"FROM ({OFF_CPU_STEPS.format(filters='')}) AS s (state, t, n, f)",
        {
            "id": capture_id,
            "ids": [capture_id],
            "lo": "-infinity",
            "hi": "infinity",
            "scan_from": "-infinity",
        },
    )


def _manifest(conn: Conn, capture_id: int, key: str, level: int, rows: int) -> None:
    """A kept level (res_us 0, like every row read per request, so the summary index finds it)."""
    conn.execute(
        INSERT + "VALUES (%s, 'manifest', %s, 0, %s, '', NULL, %s, %s, NULL, NULL)",
        (capture_id, key, ORIGIN, level, rows),
    )
