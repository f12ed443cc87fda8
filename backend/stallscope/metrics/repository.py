"""SQL for metrics; buckets come from `date_bin`, which PostgreSQL and TimescaleDB share.

Every query names the capture as well as the series: `metrics` is indexed by (capture, time) only.
Non-finite values (Prometheus' NaN and ±Inf) are skipped: they cannot be averaged or drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.analysis.metric_buckets import BucketSums
from stallscope.analysis.metric_kinds import RESET_FRACTION
from stallscope.metrics.schemas import SeriesOut

FINITE = "value > '-Infinity'::float8 AND value < 'Infinity'::float8"
"""PostgreSQL orders NaN above +Infinity, so this drops NaN too."""


def incident_capture_ids(session: Session, incident_id: int) -> list[int] | None:
    """Every capture of the incident, or None when there is no such incident (the trash is not)."""
    found = session.execute(
        text("SELECT 1 FROM incidents WHERE id = :id AND deleted_at IS NULL"), {"id": incident_id}
    )
    if found.first() is None:
        return None
    rows = session.execute(
        text("SELECT id FROM captures WHERE incident_id = :id AND deleted_at IS NULL ORDER BY id"),
        {"id": incident_id},
    )
    return [int(row[0]) for row in rows]


def list_series(session: Session, capture_ids: list[int]) -> list[SeriesOut]:
    rows = session.execute(
        text(
            "WITH agg AS (SELECT series_id, count(*) AS points, min(ts) AS first, max(ts) AS last "
            "FROM metrics WHERE capture_id = ANY(:ids) GROUP BY series_id) "
            "SELECT s.id, s.capture_id, s.name, s.labels, s.unit, coalesce(agg.points, 0) AS points, "
            "agg.first, agg.last, h.name AS host, c.filename AS capture_filename, "
            "min(agg.first) OVER (PARTITION BY s.capture_id) AS capture_start "
            "FROM metric_series s JOIN captures c ON c.id = s.capture_id "
            "LEFT JOIN hosts h ON h.id = c.host_id LEFT JOIN agg ON agg.series_id = s.id "
            "WHERE s.capture_id = ANY(:ids) ORDER BY s.name, s.labels::text, h.name NULLS LAST, s.capture_id"
        ),
        {"ids": capture_ids},
    ).mappings()
    return [SeriesOut(**row) for row in rows]


@dataclass(frozen=True, slots=True)
class SeriesRef:
    capture_id: int
    name: str
    unit: str | None
    capture_start: datetime | None
    """The capture's first record: no point of the series is earlier."""


def series_ref(session: Session, series_id: int) -> SeriesRef | None:
    row = session.execute(
        text(
            "SELECT s.capture_id, s.name, s.unit, c.time_start FROM metric_series s "
            "JOIN captures c ON c.id = s.capture_id WHERE s.id = :id"
        ),
        {"id": series_id},
    ).first()
    if row is None:
        return None
    return SeriesRef(int(row[0]), str(row[1]), row[2], row[3])


def series_span(session: Session, capture_id: int, series_id: int) -> tuple[datetime | None, datetime | None]:
    row = session.execute(
        text("SELECT min(ts), max(ts) FROM metrics WHERE capture_id = :cid AND series_id = :sid"),
        {"cid": capture_id, "sid": series_id},
    ).one()
    return row[0], row[1]


_RANGE = "capture_id = :cid AND series_id = :sid AND ts >= :start AND ts <= :end AND " + FINITE
_BUCKET = "least(date_bin(:bucket, ts, :start), :last)"

_PRIOR_POINT = f"""
    (SELECT ts, value FROM metrics
     WHERE capture_id = :cid AND series_id = :sid AND ts < :start AND {FINITE}
     ORDER BY ts DESC LIMIT 1)
    UNION ALL
"""

_WITH_STEPS = """
WITH pts AS ({prior}
    SELECT ts, value FROM metrics WHERE {range}
), stepped AS (
    SELECT ts, value, lag(value) OVER w AS prev,
           (extract(epoch FROM ts - lag(ts) OVER w))::float8 AS dt
    FROM pts WINDOW w AS (ORDER BY ts)
), steps AS (
    SELECT ts, value, prev, dt,
           CASE WHEN dt > 0 THEN CASE WHEN value < prev THEN value ELSE value - prev END END AS inc
    FROM stepped WHERE ts >= :start
)
SELECT {bucket} AS b, count(*), avg(value), min(value), max(value),
       count(inc),
       count(*) FILTER (WHERE inc IS NOT NULL AND value > prev),
       count(*) FILTER (WHERE inc IS NOT NULL AND value < prev),
       count(*) FILTER (WHERE inc IS NOT NULL AND value < prev AND value <= prev * :reset),
       coalesce(sum(inc), 0), coalesce(sum(dt) FILTER (WHERE inc IS NOT NULL), 0),
       min(inc / dt), max(inc / dt){percentiles}
FROM steps GROUP BY 1 ORDER BY 1
"""

_VALUES_ONLY = """
SELECT {bucket} AS b, count(*), avg(value), min(value), max(value),
       0, 0, 0, 0, 0.0::float8, 0.0::float8, NULL::float8, NULL::float8{percentiles}
FROM metrics WHERE {range} GROUP BY 1 ORDER BY 1
"""

_PERCENTILES = ", percentile_cont(ARRAY[0.5, 0.9, 0.99]) WITHIN GROUP (ORDER BY value)"

STEPS_WORK_MEM = "64MB"
"""For the sort under the steps' window: at the default 4 MB a 1M-point series sorts on disk."""


def bucket_sums(
    session: Session,
    capture_id: int,
    series_id: int,
    start: datetime,
    end: datetime,
    bucket: timedelta,
    buckets: int,
    *,
    steps: bool,
    prior: bool,
    percentiles: bool,
) -> list[BucketSums]:
    """One scan of the range into `buckets` buckets laid from `start` (the last one closed, so a
    point at `end` is in it): each bucket's values and, with `steps`, the steps into its points,
    from the last point before `start` too when `prior` (so the first bucket has a rate)."""
    template = _WITH_STEPS if steps else _VALUES_ONLY
    sql = template.format(
        prior=_PRIOR_POINT if prior else "",
        range=_RANGE,
        bucket=_BUCKET,
        percentiles=_PERCENTILES if percentiles else "",
    )
    if steps:
        session.execute(text(f"SET LOCAL work_mem = '{STEPS_WORK_MEM}'"))
    rows = session.execute(
        text(sql),
        {
            "cid": capture_id,
            "sid": series_id,
            "start": start,
            "end": end,
            "bucket": bucket,
            "last": start + bucket * (buckets - 1),
            "reset": RESET_FRACTION,
        },
    )
    out: list[BucketSums] = []
    for row in rows:
        p50 = p90 = p99 = None
        if percentiles:
            p50, p90, p99 = row[13]
        out.append(
            BucketSums(
                ts=row[0],
                points=int(row[1]),
                avg=float(row[2]),
                min=float(row[3]),
                max=float(row[4]),
                steps=int(row[5]),
                increases=int(row[6]),
                decreases=int(row[7]),
                resets=int(row[8]),
                increase=float(row[9]),
                seconds=float(row[10]),
                rate_min=None if row[11] is None else float(row[11]),
                rate_max=None if row[12] is None else float(row[12]),
                p50=p50,
                p90=p90,
                p99=p99,
            )
        )
    return out
