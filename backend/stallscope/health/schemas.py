"""`/api/health`'s body, the same whether it answers 200 or 503."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel


class CheckOut(BaseModel):
    ok: bool
    detail: str
    """What was seen: "answering", "unreachable: …", how many parse messages wait…"""


class ChecksOut(BaseModel):
    database: CheckOut
    broker: CheckOut
    worker: CheckOut
    """A parse worker reported in lately (heartbeats)."""


class QueueOut(BaseModel):
    """How far behind parsing is; not part of the status (a long queue is slow, not down)."""

    queued: int
    """Captures waiting for a worker."""
    parsing: int
    oldest_queued_s: float | None
    """How long the capture queued longest has waited: the parse lag."""
    broker_messages: int | None
    """Parse messages in the broker (None when it could not be asked)."""
    uploads_in_flight: int
    """Uploads this API process is taking now (see STALLSCOPE_MAX_CONCURRENT_UPLOADS)."""


class HealthOut(BaseModel):
    status: Literal["ok", "unavailable"]
    version: str
    checks: ChecksOut
    queue: QueueOut | None
    """None when the database cannot be asked."""
