"""HTTP routes for the correlated timeline: the tracks an incident offers, and bucketed data for some."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query

from stallscope.analysis.timeline_grid import epoch_us
from stallscope.auth.guard import READ
from stallscope.auth.scope import SEE_QUERY
from stallscope.deps import SessionDep
from stallscope.flame.router import parse_capture_ids
from stallscope.kit.errors import Invalid
from stallscope.timeline import service
from stallscope.timeline.repository import Filters
from stallscope.timeline.schemas import TimelineOut, TracksOut
from stallscope.timeline.track_ids import split_ids

router = APIRouter(tags=["timeline"])

MAX_WIDTH_PX = 10_000
MAX_TRACKS = 100
MIN_TIME = datetime.fromisoformat("1900-01-01T00:00:00+00:00")
MAX_TIME = datetime.fromisoformat("2200-01-01T00:00:00+00:00")


def selection(
    incident: Annotated[int, Query(description="Incident id")],
    captures: Annotated[str | None, Query(description="Comma-separated capture ids; default all")] = None,
    hosts: Annotated[str | None, Query(description="Comma-separated host names; default all")] = None,
) -> service.Selection:
    host_names = [h.strip() for h in (hosts or "").split(",") if h.strip()]
    return service.Selection(incident, parse_capture_ids(captures or ""), host_names)


def _aware(name: str, value: datetime | None) -> datetime | None:
    if value is None:
        return None
    if value.tzinfo is None:
        raise Invalid(f"{name} needs a time zone (e.g. 2026-11-21T08:03:00.000001Z)")
    if not MIN_TIME <= value <= MAX_TIME:
        raise Invalid(f"{name} {value.isoformat()} is outside 1900-2200")
    return value


SelectionDep = Annotated[service.Selection, Depends(selection)]


@router.get("/api/timeline/tracks", dependencies=[READ, SEE_QUERY])
def list_tracks(session: SessionDep, sel: SelectionDep) -> TracksOut:
    """Every track the selected captures offer, grouped by host, with ids for `/api/timeline?tracks=`."""
    return service.list_tracks(session, sel)


@router.get("/api/timeline", dependencies=[READ, SEE_QUERY])
def timeline(
    session: SessionDep,
    sel: SelectionDep,
    tracks: Annotated[str, Query(description="Comma-separated track ids from /api/timeline/tracks")] = "",
    start: Annotated[datetime | None, Query(description="Inclusive, ISO 8601 with a zone")] = None,
    end: Annotated[datetime | None, Query(description="Exclusive, ISO 8601 with a zone")] = None,
    width: Annotated[int, Query(ge=1, le=MAX_WIDTH_PX, description="Plot width in pixels")] = 1000,
    pid: int | None = None,
    tid: int | None = None,
    comm: str | None = None,
    top: Annotated[int, Query(ge=1, le=50, description="CPU: processes drawn apart")] = service.DEFAULT_TOP,
    split: Annotated[service.Split, Query(description="CPU: stack by process or by thread")] = "process",
) -> TimelineOut:
    """Each chosen track bucketed at about one bucket per pixel (a 1/2/5 x 10^n µs width)."""
    ids = split_ids(tracks)
    if len(ids) > MAX_TRACKS:
        raise Invalid(f"at most {MAX_TRACKS} tracks per request, got {len(ids)}")
    first, last = _aware("start", start), _aware("end", end)
    if first is not None and last is not None and epoch_us(last) <= epoch_us(first):
        raise Invalid("end must be after start")
    query = service.TimelineQuery(
        selection=sel,
        track_ids=ids,
        start=first,
        end=last,
        width_px=width,
        filters=Filters(pid=pid, tid=tid, comm=comm or None),
        top=top,
        split=split,
    )
    return service.timeline(session, query)
