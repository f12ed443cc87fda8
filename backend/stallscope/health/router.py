"""`GET /api/health`: 200 when the console can take and parse uploads, 503 naming what is down."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import psycopg
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from stallscope import __version__
from stallscope.captures.backpressure import upload_gate
from stallscope.config import get_settings
from stallscope.deps import database_url
from stallscope.exposition.queue_state import QueueState
from stallscope.health.checks import Check, check_broker, check_database, check_workers, read_queue
from stallscope.health.schemas import CheckOut, ChecksOut, HealthOut, QueueOut

router = APIRouter(tags=["meta"])

CHECK_TIMEOUT_S = 5.0


async def _run(check: Callable[[], Check]) -> Check:
    # The event loop's default executor, not the request thread pool: a probe still answers while
    # every request thread is busy.
    try:
        return await asyncio.wait_for(asyncio.to_thread(check), CHECK_TIMEOUT_S)
    except TimeoutError:
        return Check(False, f"no answer within {CHECK_TIMEOUT_S:.0f} s")


@router.get(
    "/api/health",
    response_model=HealthOut,
    responses={503: {"model": HealthOut, "description": "A part is down: the same body names it"}},
)
async def health(request: Request) -> JSONResponse:
    url = database_url(get_settings())
    database, broker, workers = await asyncio.gather(
        _run(lambda: check_database(url)),
        _run(check_broker),
        _run(lambda: check_workers(url)),
    )
    queue = await _queue(url, broker.count) if database.ok else None
    ok = database.ok and broker.ok and workers.ok
    body = HealthOut(
        status="ok" if ok else "unavailable",
        version=__version__,
        checks=ChecksOut(database=_out(database), broker=_out(broker), worker=_out(workers)),
        queue=None if queue is None else _queue_out(queue, upload_gate(request).counters.in_flight),
    )
    return JSONResponse(body.model_dump(), status_code=200 if ok else 503)


async def _queue(url: str, broker_messages: int | None) -> QueueState | None:
    try:
        return await asyncio.wait_for(asyncio.to_thread(read_queue, url, broker_messages), CHECK_TIMEOUT_S)
    except (TimeoutError, psycopg.Error):
        return None


def _queue_out(state: QueueState, uploads_in_flight: int) -> QueueOut:
    return QueueOut(
        queued=state.queued,
        parsing=state.parsing,
        oldest_queued_s=state.oldest_queued_s,
        broker_messages=state.broker_messages,
        uploads_in_flight=uploads_in_flight,
    )


def _out(check: Check) -> CheckOut:
    return CheckOut(ok=check.ok, detail=check.detail)
