"""`GET /api/health`: 200 when the console can take and parse uploads, 503 naming what is down."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from stallscope import __version__
from stallscope.config import get_settings
from stallscope.deps import database_url
from stallscope.health.checks import Check, check_broker, check_database, check_workers
from stallscope.health.schemas import CheckOut, ChecksOut, HealthOut

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
async def health() -> JSONResponse:
    url = database_url(get_settings())
    database, broker, workers = await asyncio.gather(
        _run(lambda: check_database(url)),
        _run(check_broker),
        _run(lambda: check_workers(url)),
    )
    ok = database.ok and broker.ok and workers.ok
    body = HealthOut(
        status="ok" if ok else "unavailable",
        version=__version__,
        checks=ChecksOut(database=_out(database), broker=_out(broker), worker=_out(workers)),
    )
    return JSONResponse(body.model_dump(), status_code=200 if ok else 503)


def _out(check: Check) -> CheckOut:
    return CheckOut(ok=check.ok, detail=check.detail)
