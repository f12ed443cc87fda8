"""HTTP routes for thread-state breakdowns and per-thread state strips."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query

from stallscope.auth.guard import READ
from stallscope.auth.scope import SEE_QUERY
from stallscope.deps import SessionDep
from stallscope.flame.router import parse_capture_ids
from stallscope.threads import service
from stallscope.threads.repository import ThreadFilter
from stallscope.threads.schemas import StripOut, ThreadsOut

router = APIRouter(tags=["threads"])

MAX_THREADS = 5000


@router.get("/api/threads", response_model=ThreadsOut, dependencies=[READ, SEE_QUERY])
def thread_states(
    session: SessionDep,
    captures: Annotated[str, Query(description="Comma-separated capture ids")],
    start: Annotated[datetime | None, Query(description="Inclusive, ISO 8601")] = None,
    end: Annotated[datetime | None, Query(description="Exclusive, ISO 8601")] = None,
    pid: int | None = None,
    tid: int | None = None,
    comm: str | None = None,
    comm_regex: Annotated[str | None, Query(description="Keep threads whose name matches")] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_THREADS)] = 500,
) -> ThreadsOut:
    """Per thread: time and share Running, Runnable, Sleeping, Uninterruptible, other and unknown,
    with inferred time, top blocking stacks per state, and futex waits grouped by lock."""
    flt = ThreadFilter(parse_capture_ids(captures), start, end, pid, tid, comm or None)
    return service.breakdown(session, flt, comm_regex, limit)


@router.get("/api/threads/strip", response_model=StripOut, dependencies=[READ, SEE_QUERY])
def thread_strip(
    session: SessionDep,
    captures: Annotated[str, Query(description="Comma-separated capture ids")],
    tid: int,
    comm: Annotated[str | None, Query(description="The thread's name, when its tid had several")] = None,
    start: Annotated[datetime | None, Query(description="Inclusive, ISO 8601")] = None,
    end: Annotated[datetime | None, Query(description="Exclusive, ISO 8601")] = None,
    buckets: Annotated[int, Query(ge=10, le=10_000, description="About the strip's width in pixels")] = 1000,
) -> StripOut:
    """One thread's state over time, a few segments per bucket at most; its times are its breakdown's."""
    flt = ThreadFilter(parse_capture_ids(captures), start, end, tid=tid, comm=comm or None)
    return service.strip(session, flt, buckets)
