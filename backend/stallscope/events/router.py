"""HTTP routes for events."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query

from stallscope.auth.guard import READ
from stallscope.auth.scope import SEE_QUERY
from stallscope.deps import SessionDep
from stallscope.events import repository
from stallscope.events.schemas import EventPage, EventSort
from stallscope.flame.router import parse_capture_ids

router = APIRouter(prefix="/api/events", tags=["events"])


@router.get("", dependencies=[READ, SEE_QUERY])
def list_events(
    session: SessionDep,
    captures: Annotated[str, Query(description="Comma-separated capture ids")],
    kind: str | None = None,
    name: str | None = None,
    tid: int | None = None,
    start: datetime | None = None,
    end: datetime | None = None,
    sort: EventSort = "duration",
    descending: bool = True,
    limit: Annotated[int, Query(ge=1, le=10_000)] = 200,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> EventPage:
    """Events of the chosen captures, slowest first by default (what an on-call engineer looks for)."""
    total, events = repository.list_events(
        session, parse_capture_ids(captures), kind, name, tid, start, end, sort, descending, limit, offset
    )
    return EventPage(total=total, events=events)
