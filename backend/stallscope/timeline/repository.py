"""SQL for the timeline. Each track's query reads, per capture, the coarsest rollup level that nests
in the requested buckets, or raw rows where none does (fine zooms, thread filters, captures parsed
before rollups existed); the parts are bucketed with the same function and summed.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy.orm import Session

from stallscope.analysis.off_cpu_steps import Step, StoredSpan
from stallscope.analysis.timeline_buckets import CpuRow, EventBucketRow, MetricBucketRow, MetricPointRow
from stallscope.analysis.timeline_grid import Grid, epoch_us, from_epoch_us, rollup_level
from stallscope.models.timeline_rollup import SUMMARY
from stallscope.timeline.catalog import CaptureRow, SeriesRow, TotalRow
from stallscope.timeline.rollups import BUILT
from stallscope.timeline.sql import EVENT_KINDS, OFF_CPU_STEPS, ORIGIN, TOTALS, bucket, grid_index, run

QUERY_WORK_MEM = "64MB"


def use_query_memory(session: Session) -> None:
    """Enough memory for a zoom's aggregates to hash in memory; SET LOCAL ends with the request."""
    session.connection().exec_driver_sql(f"SET LOCAL work_mem = '{QUERY_WORK_MEM}'")


# --- catalog -----------------------------------------------------------------------------------------


def captures(
    session: Session, incident_id: int, capture_ids: list[int], hosts: list[str]
) -> list[CaptureRow]:
    clauses = ["c.incident_id = %(incident)s", "c.deleted_at IS NULL"]  # not the trash
    params: dict[str, Any] = {"incident": incident_id}
    if capture_ids:
        clauses.append("c.id = ANY(%(ids)s)")
        params["ids"] = capture_ids
    if hosts:
        clauses.append("coalesce(h.name, '') = ANY(%(hosts)s)")
        params["hosts"] = hosts
    rows = run(
        session,
        "SELECT c.id, coalesce(h.name, ''), c.filename, c.kind, c.format, c.status, c.time_start, "
        "c.time_end, c.clock, c.record_counts FROM captures c LEFT JOIN hosts h ON h.id = c.host_id "
        f"WHERE {' AND '.join(clauses)} ORDER BY c.id",
        params,
    )
    return [CaptureRow(*row) for row in rows]


@dataclass(frozen=True, slots=True)
class Manifest:
    built: set[int]
    levels: dict[tuple[int, str], tuple[int, ...]]
    """(capture, source) → kept levels in µs."""

    def level(self, capture_id: int, source: str, width_us: int) -> int | None:
        return rollup_level(width_us, self.levels.get((capture_id, source), ()))


def manifest(session: Session, capture_ids: list[int]) -> Manifest:
    rows = run(
        session,
        "SELECT capture_id, key, n FROM timeline_rollups "
        f"WHERE capture_id = ANY(%(ids)s) AND source = 'manifest' AND {SUMMARY}",
        {"ids": capture_ids},
    )
    built: set[int] = set()
    levels: dict[tuple[int, str], list[int]] = defaultdict(list)
    for capture_id, key, level in rows:
        if key == BUILT:
            built.add(capture_id)
        else:
            levels[(capture_id, key)].append(int(level))
    return Manifest(built, {k: tuple(sorted(v)) for k, v in levels.items() if k[0] in built})


def totals(session: Session, capture_ids: list[int], built: set[int]) -> list[TotalRow]:
    """Whole-capture totals: stored ones for built captures, computed now for the others."""
    rows = run(
        session,
        "SELECT capture_id, source, key, name, pid, n, total, min_value, max_value FROM timeline_rollups "
        "WHERE capture_id = ANY(%(ids)s) AND source IN ('cpu', 'event', 'off-cpu', 'metric') "
        f"AND {SUMMARY}",
        {"ids": sorted(built & set(capture_ids))},
    )
    result = [TotalRow(*row) for row in rows]
    for capture_id in sorted(set(capture_ids) - built):
        for sql in TOTALS:
            for row in run(session, sql, {"id": capture_id, "kinds": list(EVENT_KINDS)}):
                result.append(TotalRow(capture_id, *row))
    return result


def series(session: Session, capture_ids: list[int]) -> list[SeriesRow]:
    rows = run(
        session,
        "SELECT id, capture_id, name, labels, unit FROM metric_series WHERE capture_id = ANY(%(ids)s) "
        "ORDER BY name, id",
        {"ids": capture_ids},
    )
    return [SeriesRow(*row) for row in rows]


# --- shared query pieces -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Filters:
    pid: int | None = None
    tid: int | None = None
    comm: str | None = None

    @property
    def any(self) -> bool:
        return self.pid is not None or self.tid is not None or self.comm is not None

    def sql(self, params: dict[str, Any]) -> str:
        """The filters on raw rows (samples, events)."""
        clauses = []
        for column in ("pid", "tid", "comm"):
            value = getattr(self, column)
            if value is not None:
                clauses.append(f" AND {column} = %(f_{column})s")
                params[f"f_{column}"] = value
        return "".join(clauses)

    def rollup_sql(self, params: dict[str, Any]) -> str:
        """The same on CPU rollup rows, which keep pid and comm (as `name`) but not tid."""
        if self.tid is not None:
            raise ValueError("rollups have no thread ids; read raw samples")
        clauses = ""
        if self.pid is not None:
            clauses += " AND pid = %(f_pid)s"
            params["f_pid"] = self.pid
        if self.comm is not None:
            clauses += " AND name = %(f_comm)s"
            params["f_comm"] = self.comm
        return clauses


def _grid_params(grid: Grid) -> dict[str, Any]:
    return {
        "lo": grid.start,
        "hi": grid.end,
        "width": timedelta(microseconds=grid.width_us),
        "origin": ORIGIN,
        "start_us": grid.start_us,
        "width_us": grid.width_us,
    }


def plan(
    manifest_: Manifest, capture_ids: list[int], source: str, width_us: int, raw_only: bool
) -> dict[int | None, list[int]]:
    """Captures grouped by the level they are read at (None: raw rows)."""
    groups: dict[int | None, list[int]] = defaultdict(list)
    for capture_id in capture_ids:
        level = None if raw_only else manifest_.level(capture_id, source, width_us)
        groups[level].append(capture_id)
    return dict(groups)


def describe(groups: dict[int | None, list[int]]) -> str:
    """How a track was read, for the status line: `rollup 1 s`, `raw`, or both."""
    names = []
    for level in sorted(groups, key=lambda lv: -1 if lv is None else lv):
        names.append("raw" if level is None else f"rollup {_level_name(level)}")
    return " + ".join(names) or "none"


def _level_name(level_us: int) -> str:
    for unit, size in (("s", 1_000_000), ("ms", 1_000), ("µs", 1)):
        if level_us >= size:
            return f"{level_us // size} {unit}"
    return f"{level_us} µs"


@dataclass(frozen=True, slots=True)
class Columns:
    """What one track's query selects from each kind of source, besides the bucket `b`.

    Rollup rows are passed through as they are, re-bucketed when their level is finer than the
    grid: every caller's outer query sums by bucket anyway, so summing inside each part first would
    sort and group the same rows twice. Raw rows are counted per bucket inside their part.
    """

    rollup: str
    """Columns of a rollup row."""
    rollup_where: str
    raw: str
    """Aggregates over raw rows, per bucket and `group_by`."""
    raw_from_where: str
    group_by: str


def _union(
    fn: str, groups: dict[int | None, list[int]], grid: Grid, params: dict[str, Any], cols: Columns
) -> str:
    """One subquery per group of captures: rollup rows at that group's level, or raw rows."""
    parts = []
    for i, (level, ids) in enumerate(sorted(groups.items(), key=lambda kv: -1 if kv[0] is None else kv[0])):
        params[f"ids_{i}"] = ids
        rollup_from = (
            f"FROM timeline_rollups WHERE capture_id = ANY(%(ids_{i})s) AND res_us = %(res_{i})s "
            f"{cols.rollup_where} AND ts >= %(lo)s AND ts < %(hi)s"
        )
        params[f"res_{i}"] = level
        if level is None:
            parts.append(
                f"SELECT {bucket(fn, 'ts')} AS b, {cols.raw} {cols.raw_from_where} "
                f"AND capture_id = ANY(%(ids_{i})s) GROUP BY {cols.group_by}"
            )
        else:
            b = "ts" if level == grid.width_us else bucket(fn, "ts")
            parts.append(f"SELECT {b} AS b, {cols.rollup} {rollup_from}")
    return " UNION ALL ".join(parts)


# --- CPU samples -------------------------------------------------------------------------------------


def cpu_buckets(
    session: Session,
    fn: str,
    groups: dict[int | None, list[int]],
    event: str,
    grid: Grid,
    filters: Filters,
    split_threads: bool,
) -> list[CpuRow]:
    """Every process (or thread) in the range, one row each, with its samples per bucket index; an
    index may appear more than once, its samples to be added up.

    Each process's buckets come back as two arrays, and ranking the processes is left to the caller:
    a CPU track is a few dozen rows to read, and the database sorts and groups its rows once.
    """
    params = {**_grid_params(grid), "event": event}
    who = "tid" if split_threads else "pid"
    rollup_filters = filters.rollup_sql(params) if any(level is not None for level in groups) else ""
    cols = Columns(
        rollup="name AS comm, pid AS who, n",
        rollup_where="AND source = 'cpu' AND key = %(event)s" + rollup_filters,
        raw=f"comm, {who} AS who, count(*) AS n",
        raw_from_where="FROM samples WHERE event = %(event)s AND ts >= %(lo)s AND ts < %(hi)s"
        + filters.sql(params),
        group_by="1, 2, 3",
    )
    # A bucket index may repeat within a process's array (finer rollup rows, several captures or
    # levels): the caller sums them.
    sql = (
        f"SELECT comm, who, array_agg({grid_index('b')}), array_agg(n::bigint) "
        f"FROM ({_union(fn, groups, grid, params, cols)}) AS cells GROUP BY comm, who"
    )
    return [CpuRow(comm, who, list(index), list(n)) for comm, who, index, n in run(session, sql, params)]


# --- events ------------------------------------------------------------------------------------------


def _event_where(kind: str, name: str | None, params: dict[str, Any]) -> str:
    params["kind"] = kind
    if name is None:
        return "kind = %(kind)s"
    params["name"] = name
    return "kind = %(kind)s AND name = %(name)s"


def event_buckets(
    session: Session,
    fn: str,
    groups: dict[int | None, list[int]],
    kind: str,
    name: str | None,
    grid: Grid,
    filters: Filters,
) -> list[EventBucketRow]:
    """Buckets holding any event."""
    params = _grid_params(grid)
    where = _event_where(kind, name, params)
    cols = Columns(
        rollup="n, max_value AS longest",
        rollup_where="AND source = 'event' AND key = %(kind)s"
        + (" AND name = %(name)s" if name is not None else ""),
        raw="count(*) AS n, max(duration_ns)::double precision AS longest",
        raw_from_where=f"FROM events WHERE {where} AND ts >= %(lo)s AND ts < %(hi)s" + filters.sql(params),
        group_by="1",
    )
    parts = _union(fn, groups, grid, params, cols)
    sql = f"SELECT {grid_index('b')}, sum(n)::bigint, max(longest) FROM ({parts}) AS parts GROUP BY b"
    return [
        EventBucketRow(int(i), int(n), int(longest) if longest is not None else None)
        for i, n, longest in run(session, sql, params)
    ]


class EventMarkRow(NamedTuple):
    """One event, sent as it is when few are in view."""

    ts_us: int
    duration_ns: int | None
    name: str
    pid: int | None
    tid: int | None
    comm: str


def event_marks(
    session: Session,
    capture_ids: list[int],
    kind: str,
    name: str | None,
    grid: Grid,
    filters: Filters,
    limit: int,
) -> list[EventMarkRow]:
    params = {**_grid_params(grid), "ids": capture_ids, "limit": limit}
    where = _event_where(kind, name, params)
    rows = run(
        session,
        f"SELECT ts, duration_ns, name, pid, tid, comm FROM events WHERE capture_id = ANY(%(ids)s) "
        f"AND {where} AND ts >= %(lo)s AND ts < %(hi)s{filters.sql(params)} ORDER BY ts LIMIT %(limit)s",
        params,
    )
    return [EventMarkRow(epoch_us(ts), dur, nm, pid, tid, comm) for ts, dur, nm, pid, tid, comm in rows]


# --- off-CPU -----------------------------------------------------------------------------------------


def off_cpu_spans(session: Session, capture_ids: list[int]) -> list[StoredSpan]:
    """Each capture's stored steps per state: the first and last edge, and the last step's values."""
    rows = run(
        session,
        f"""
        SELECT s.capture_id, s.key, (extract(epoch FROM f.ts) * 1000000)::bigint,
               (extract(epoch FROM l.ts) * 1000000)::bigint, l.n, l.total
        FROM (
            SELECT capture_id, key FROM timeline_rollups
            WHERE capture_id = ANY(%(ids)s) AND source = 'off-cpu' AND {SUMMARY}
        ) AS s
        CROSS JOIN LATERAL (
            SELECT r.ts FROM timeline_rollups r
            WHERE r.capture_id = s.capture_id AND r.source = 'off-cpu-steps' AND r.key = s.key
              AND r.res_us = 0
            ORDER BY r.ts LIMIT 1
        ) AS f
        CROSS JOIN LATERAL (
            SELECT r.ts, r.n, r.total FROM timeline_rollups r
            WHERE r.capture_id = s.capture_id AND r.source = 'off-cpu-steps' AND r.key = s.key
              AND r.res_us = 0
            ORDER BY r.ts DESC LIMIT 1
        ) AS l
        ORDER BY s.capture_id, s.key
        """,
        {"ids": capture_ids},
    )
    return [
        StoredSpan(capture_id, key, first, last, int(n), float(total))
        for capture_id, key, first, last, n, total in rows
    ]


def off_cpu_areas(session: Session, spans: list[StoredSpan], grid: Grid) -> dict[tuple[int, str, int], float]:
    """The area (thread-µs) at the grid's edges inside each span, keyed by (capture, state, edge µs).

    Only edges inside a capture's span of steps are looked up; the caller knows the area outside it
    (see `off_cpu_steps.stored_areas`). A 5 s capture on an hour of incident asks for a handful of
    edges, not one per pixel.
    """
    params = {
        **_grid_params(grid),
        "k_ids": [s.capture_id for s in spans],
        "k_keys": [s.state for s in spans],
        "k_first": [from_epoch_us(s.first_edge_us) for s in spans],
        "k_last": [from_epoch_us(s.last_edge_us) for s in spans],
    }
    inside = run(
        session,
        """
        SELECT s.capture_id, s.key, (extract(epoch FROM s.b) * 1000000)::bigint,
               coalesce(l.total + l.n * extract(epoch FROM s.b - l.ts) * 1000000, 0)::double precision
        FROM (
            SELECT k.capture_id, k.key, g.b
            FROM unnest(%(k_ids)s::integer[], %(k_keys)s::text[], %(k_first)s::timestamptz[],
                        %(k_last)s::timestamptz[]) AS k (capture_id, key, first_ts, last_ts)
            CROSS JOIN generate_series(CAST(%(lo)s AS timestamptz), CAST(%(hi)s AS timestamptz),
                                       CAST(%(width)s AS interval)) AS g (b)
            WHERE g.b >= k.first_ts AND g.b <= k.last_ts
        ) AS s
        LEFT JOIN LATERAL (
            SELECT r.ts, r.n, r.total FROM timeline_rollups r
            WHERE r.capture_id = s.capture_id AND r.source = 'off-cpu-steps' AND r.key = s.key
              AND r.res_us = 0 AND r.ts <= s.b
            ORDER BY r.ts DESC LIMIT 1
        ) AS l ON true
        """,
        params,
    )
    return {(capture_id, key, edge): float(area) for capture_id, key, edge, area in inside}


def longest_off_cpu_us(session: Session, built: list[int], unbuilt: list[int]) -> int:
    """How long before a range an interval reaching into it may start: the longest interval, in µs."""
    value = run(
        session,
        "SELECT greatest("
        "(SELECT max(max_value) FROM timeline_rollups WHERE capture_id = ANY(%(built)s) "
        f"AND source = 'off-cpu' AND {SUMMARY}), "
        "(SELECT max(duration_ns) FROM events WHERE capture_id = ANY(%(unbuilt)s) AND kind = 'off-cpu'))",
        {"built": built, "unbuilt": unbuilt},
    )[0][0]
    return int(-(-float(value or 0) // 1000)) + 1


def off_cpu_steps(
    session: Session, capture_ids: list[int], grid: Grid, scan_from: datetime, filters: Filters
) -> dict[str, list[Step]]:
    """The step function of raw intervals reaching into the grid, clipped to it (filtered views)."""
    params: dict[str, Any] = {**_grid_params(grid), "ids": capture_ids, "scan_from": scan_from}
    sql = OFF_CPU_STEPS.format(filters=filters.sql(params))
    steps: dict[str, list[Step]] = defaultdict(list)
    for state, t, n, f in run(session, f"SELECT * FROM ({sql}) AS s ORDER BY 1, 2", params):
        steps[state].append(Step(epoch_us(t), int(n), float(f)))
    return dict(steps)


# --- metrics -----------------------------------------------------------------------------------------


def metric_buckets(
    session: Session,
    fn: str,
    groups: dict[int | None, list[int]],
    series_ids: list[int],
    grid: Grid,
) -> list[MetricBucketRow]:
    """Each series' buckets holding any point."""
    params = {**_grid_params(grid), "sids": series_ids, "keys": [str(s) for s in series_ids]}
    cols = Columns(
        rollup="key::integer AS sid, n, total AS s, min_value AS lo, max_value AS hi",
        rollup_where="AND source = 'metric' AND key = ANY(%(keys)s)",
        raw="series_id AS sid, count(*) AS n, sum(value) AS s, min(value) AS lo, max(value) AS hi",
        raw_from_where="FROM metrics WHERE series_id = ANY(%(sids)s) AND ts >= %(lo)s AND ts < %(hi)s",
        group_by="1, 2",
    )
    parts = _union(fn, groups, grid, params, cols)
    sql = (
        f"SELECT sid, {grid_index('b')}, sum(n)::bigint, sum(s), min(lo), max(hi) "
        f"FROM ({parts}) AS parts GROUP BY sid, b"
    )
    return [
        MetricBucketRow(int(sid), int(i), int(n), float(s), float(lo), float(hi))
        for sid, i, n, s, lo, hi in run(session, sql, params)
    ]


def metric_points(
    session: Session, capture_ids: list[int], series_ids: list[int], grid: Grid
) -> list[MetricPointRow]:
    params = {**_grid_params(grid), "ids": capture_ids, "sids": series_ids}
    rows = run(
        session,
        "SELECT series_id, ts, value FROM metrics WHERE capture_id = ANY(%(ids)s) "
        "AND series_id = ANY(%(sids)s) AND ts >= %(lo)s AND ts < %(hi)s ORDER BY ts, series_id",
        params,
    )
    return [MetricPointRow(int(sid), epoch_us(ts), float(value)) for sid, ts, value in rows]
