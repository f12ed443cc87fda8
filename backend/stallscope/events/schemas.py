"""Event listing payloads."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel

from stallscope.ingest.model import EventKind

EventSort = Literal["time", "duration"]


class EventOut(BaseModel):
    capture_id: int
    ts: datetime
    duration_ns: int | None
    kind: EventKind
    name: str
    pid: int | None
    tid: int | None
    comm: str
    cpu: int | None
    state: str | None
    stack_id: int | None
    waker_tid: int | None
    args: str | None
    result: str | None
    attrs: dict[str, Any] | None


class EventPage(BaseModel):
    total: int
    events: list[EventOut]
