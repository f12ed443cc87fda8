"""HTTP routes for metric series and points."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, Query

from stallscope.deps import SessionDep
from stallscope.flame.router import parse_capture_ids
from stallscope.metrics import repository
from stallscope.metrics.schemas import SeriesOut, SeriesPoints

router = APIRouter(prefix="/api/metrics", tags=["metrics"])

MIN_BUCKET = timedelta(microseconds=1)


@router.get("/series")
def list_series(
    session: SessionDep, captures: Annotated[str, Query(description="Comma-separated capture ids")]
) -> list[SeriesOut]:
    return repository.list_series(session, parse_capture_ids(captures))


@router.get("/series/{series_id}/points")
def series_points(
    series_id: int,
    session: SessionDep,
    start: datetime | None = None,
    end: datetime | None = None,
    buckets: Annotated[int, Query(ge=1, le=10_000, description="About one per pixel")] = 600,
) -> SeriesPoints:
    """Points averaged into about `buckets` buckets (with min and max, so spikes survive)."""
    first, last = repository.series_span(session, series_id)
    start = start or first
    end = end or last
    if start is None or end is None:
        return SeriesPoints(series_id=series_id, bucket_ns=0, points=[])
    bucket = max((end - start) / buckets, MIN_BUCKET)
    points = repository.bucketed_points(session, series_id, start, end, bucket)
    return SeriesPoints(
        series_id=series_id, bucket_ns=bucket // timedelta(microseconds=1) * 1000, points=points
    )
