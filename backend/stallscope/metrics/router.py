"""HTTP routes for metric series and points."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query

from stallscope.auth.guard import READ
from stallscope.auth.scope import SEE_QUERY, SEE_SERIES
from stallscope.deps import SessionDep
from stallscope.flame.router import parse_capture_ids
from stallscope.metrics import service
from stallscope.metrics.schemas import SeriesOut, SeriesPoints

router = APIRouter(prefix="/api/metrics", tags=["metrics"])


@router.get("/series", dependencies=[READ, SEE_QUERY])
def list_series(
    session: SessionDep,
    captures: Annotated[str | None, Query(description="Comma-separated capture ids")] = None,
    incident: Annotated[
        int | None, Query(description="Without captures: every capture of this incident")
    ] = None,
) -> list[SeriesOut]:
    """Each series with its host, capture and span; the captures named, else the incident's."""
    return service.list_series(session, parse_capture_ids(captures or ""), incident)


@router.get("/series/{series_id}/points", dependencies=[READ, SEE_SERIES])
def series_points(
    series_id: int,
    session: SessionDep,
    start: Annotated[datetime | None, Query(description="Inclusive, ISO 8601; the grid starts here")] = None,
    end: Annotated[datetime | None, Query(description="Inclusive, ISO 8601")] = None,
    buckets: Annotated[int, Query(ge=1, le=10_000, description="About one per pixel")] = 600,
    rate: Annotated[
        bool | None,
        Query(description="Draw the increase per second (default: for counters only)"),
    ] = None,
) -> SeriesPoints:
    """Points in about `buckets` buckets: average, min and max (so spikes survive), p50/p90/p99 for
    latencies, and a counter's rate per second (resets read as restarts from zero) by default."""
    return service.series_points(session, series_id, start, end, buckets, rate)
