"""Capture payloads as the API speaks them."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from stallscope.kit.text import SingleLine

CaptureStatus = Literal["queued", "parsing", "ready", "partial", "empty", "failed"]
"""`empty`: the upload holds nothing but blank lines (or no bytes at all); it parsed, and has no records."""


class WarningOut(BaseModel):
    line: int
    message: str


class EventOut(BaseModel):
    name: str
    samples: int
    weight: int = 0
    unit: str = "samples"


class UploadInfo(BaseModel):
    """What an uploader says about a file, beside its bytes."""

    filename: SingleLine
    host: SingleLine | None = None
    format: SingleLine | None = None
    kind: SingleLine | None = None
    clock: dict[str, Any] = {}
    """Clock anchors and how perf was told to record; see the README's clock section."""
    meta: dict[str, Any] = {}


class DocumentOut(BaseModel):
    kind: str
    content: dict[str, Any]


class ShiftRequest(BaseModel):
    shift: SingleLine = Field(description="The capture's whole shift, e.g. '+2.5s', '-300ms', '0'")


class StartRequest(BaseModel):
    start: SingleLine | None = Field(
        description="Wall-clock start of a capture nothing else aligns (ISO 8601, e.g. "
        "'2026-11-25T14:02:10Z'); null forgets a start given before"
    )


class CaptureOut(BaseModel):
    id: int
    incident_id: int
    host: str | None
    filename: str
    format: str | None
    kind: str | None
    status: CaptureStatus
    progress: float
    error: str | None
    warnings: list[WarningOut]
    dropped_lines: int
    truncated: bool
    sha256: str
    compression: str
    size_bytes: int
    size_uncompressed: int | None
    sample_count: int
    stack_count: int
    thread_count: int
    events: list[EventOut]
    time_start: datetime | None
    time_end: datetime | None
    clock: dict[str, Any]
    record_counts: dict[str, int]
    meta: dict[str, Any]
    created_at: datetime
    parsed_at: datetime | None
    recovery_note: str | None = None
    """Why the console last queued this parse again by itself (a worker died, a message was lost)."""
