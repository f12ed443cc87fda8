"""HTTP routes for sub-second heatmaps and the streams a set of captures can show."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query

from stallscope.analysis.heatmap import HeatmapStream, ValueKind
from stallscope.auth.guard import READ
from stallscope.auth.scope import SEE_QUERY
from stallscope.deps import SessionDep
from stallscope.heatmap import service
from stallscope.heatmap.schemas import HeatmapOut, HeatmapQuery, StreamsOut
from stallscope.kit.errors import Invalid

router = APIRouter(tags=["heatmap"])

MAX_COLUMNS = 3600


def parse_capture_ids(raw: str) -> list[int]:
    try:
        return [int(part) for part in raw.split(",") if part.strip()]
    except ValueError as exc:
        raise Invalid(f"captures must be comma-separated ids, got {raw!r}") from exc


CapturesParam = Annotated[str, Query(description="Comma-separated capture ids")]


def heatmap_query(
    captures: CapturesParam,
    stream: Annotated[
        HeatmapStream | None, Query(description="Which records; default: the one with the most")
    ] = None,
    rows: Annotated[
        str, Query(description="Rows per second; must split it into whole µs (10, 20, 50, 100…)")
    ] = "50",
    value: Annotated[ValueKind, Query(description="count, or summed duration (ns)")] = "count",
    event: Annotated[str | None, Query(description="Samples: one perf event (default: busiest)")] = None,
    name: Annotated[str | None, Query(description="Event streams: one name, e.g. futex")] = None,
    state: Annotated[str | None, Query(description="Off-CPU: one scheduler state, e.g. D")] = None,
    pid: int | None = None,
    tid: int | None = None,
    comm: str | None = None,
    start: Annotated[datetime | None, Query(description="Inclusive, ISO 8601")] = None,
    end: Annotated[datetime | None, Query(description="Exclusive, ISO 8601")] = None,
    top: Annotated[int, Query(ge=0, le=100, description="Hottest cells to list")] = 10,
    max_columns: Annotated[
        int, Query(ge=1, le=MAX_COLUMNS, description="Merge seconds into wider columns beyond this")
    ] = 600,
) -> HeatmapQuery:
    try:
        row_count = int(rows)
    except ValueError as exc:
        raise Invalid(f"rows must be a whole number of rows per second (e.g. 50), got {rows!r}") from exc
    return HeatmapQuery(
        capture_ids=parse_capture_ids(captures),
        stream=stream,
        rows=row_count,
        value=value,
        event=event or None,
        name=name or None,
        state=state or None,
        pid=pid,
        tid=tid,
        comm=comm or None,
        start=start,
        end=end,
        top=top,
        max_columns=max_columns,
    )


@router.get("/api/heatmap", response_model=HeatmapOut, dependencies=[READ, SEE_QUERY])
def heatmap(session: SessionDep, q: Annotated[HeatmapQuery, Depends(heatmap_query)]) -> HeatmapOut:
    """Seconds across, offsets within each second down; cells aggregated in the database."""
    return service.heatmap(session, q)


@router.get("/api/heatmap/streams", response_model=StreamsOut, dependencies=[READ, SEE_QUERY])
def streams(session: SessionDep, captures: CapturesParam) -> StreamsOut:
    """Which streams (and events, names or states) the captures have, busiest first."""
    return service.streams(session, parse_capture_ids(captures))
