"""`GET /api/metrics`: the console's state in the Prometheus text format, for a read token.

Prometheus asks for `/metrics` by default, which is also the path of the console's metrics view in
the browser: `ScraperPath` hands `/metrics` to this route unless the caller asks for HTML.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from stallscope.auth.guard import READ
from stallscope.captures.backpressure import upload_gate
from stallscope.config import get_settings
from stallscope.db import raw_connection
from stallscope.deps import SessionDep, database_url
from stallscope.exposition.queue_state import QueueState, broker_messages, queue_state
from stallscope.exposition.text import MEDIA_TYPE, queue_lines, upload_lines
from stallscope.watch.service import metrics_lines

router = APIRouter(tags=["meta"])

ROUTE = "/api/metrics"


@router.get(ROUTE, dependencies=[READ], response_class=Response)
async def metrics(request: Request, session: SessionDep) -> Response:
    """Signature matches by host, the parse queue and its lag, and this process's upload gate."""
    lines = await run_in_threadpool(metrics_lines, session)
    lines += queue_lines(await run_in_threadpool(_queue))
    lines += upload_lines(upload_gate(request).counters)
    return Response("\n".join(lines) + "\n", media_type=MEDIA_TYPE)


def _queue() -> QueueState:
    with raw_connection(database_url(get_settings()), autocommit=True) as conn:
        return queue_state(conn, broker_messages())


class ScraperPath:
    """Sends `GET /metrics` to the exposition unless the request accepts HTML (a browser opening
    the metrics view); Prometheus and curl accept text, not HTML."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/metrics" and not _accepts_html(scope):
            scope = {**scope, "path": ROUTE, "raw_path": ROUTE.encode()}
        await self._app(scope, receive, send)


def _accepts_html(scope: Scope) -> bool:
    accept = b",".join(value for name, value in scope["headers"] if name == b"accept")
    return b"text/html" in accept
