"""SQL for metrics; buckets come from `date_bin`, which PostgreSQL and TimescaleDB share."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.metrics.schemas import PointOut, SeriesOut

BUCKET_ORIGIN = datetime.fromisoformat("1970-01-01T00:00:00+00:00")


def list_series(session: Session, capture_ids: list[int]) -> list[SeriesOut]:
    rows = session.execute(
        text(
            "SELECT s.id, s.capture_id, s.name, s.labels, s.unit, count(m.ts) AS points, "
            "min(m.ts) AS first, max(m.ts) AS last FROM metric_series s "
            "LEFT JOIN metrics m ON m.series_id = s.id AND m.capture_id = s.capture_id "
            "WHERE s.capture_id = ANY(:ids) GROUP BY s.id ORDER BY s.name, s.labels::text"
        ),
        {"ids": capture_ids},
    ).mappings()
    return [SeriesOut(**row) for row in rows]


def series_span(session: Session, series_id: int) -> tuple[datetime | None, datetime | None]:
    row = session.execute(
        text("SELECT min(ts), max(ts) FROM metrics WHERE series_id = :id"), {"id": series_id}
    ).one()
    return row[0], row[1]


def bucketed_points(
    session: Session, series_id: int, start: datetime, end: datetime, bucket: timedelta
) -> list[PointOut]:
    rows = session.execute(
        text(
            "SELECT date_bin(:bucket, ts, :origin) AS ts, avg(value) AS avg, min(value) AS min, "
            "max(value) AS max, count(*) AS count FROM metrics "
            "WHERE series_id = :id AND ts >= :start AND ts <= :end GROUP BY 1 ORDER BY 1"
        ),
        {"bucket": bucket, "origin": BUCKET_ORIGIN, "id": series_id, "start": start, "end": end},
    ).mappings()
    return [PointOut(**row) for row in rows]
