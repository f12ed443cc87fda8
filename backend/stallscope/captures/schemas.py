"""Capture payloads as the API speaks them."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from stallscope.ingest.clock import ClockMode, is_wall_clock, stored_mode
from stallscope.kit.answer_model import AnswerModel
from stallscope.kit.text import SingleLine

CaptureStatus = Literal["queued", "parsing", "ready", "partial", "empty", "failed"]
"""`empty`: the upload holds nothing but blank lines (or no bytes at all); it parsed, and has no records."""


class WarningOut(BaseModel):
    line: int
    message: str


class EventOut(AnswerModel):
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
    upload_key: str | None = None
    """The uploader's `Idempotency-Key`, the same on every try of one upload."""


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


class ClockOut(AnswerModel):
    """How the capture's times were put on UTC, beside the rest of the clock info stored with it
    (anchors, a time column given at upload…), which is passed through as it is."""

    model_config = ConfigDict(extra="allow")

    mode: ClockMode | None
    """None until a parse has mapped the capture's clock."""
    wall_clock: bool
    """The mode gives wall-clock times, comparable across captures and hosts."""
    note: str
    """How the mode was chosen, in words."""
    offset_ns: int
    """Added to capture-clock times that are not already epoch times."""
    shift_ns: int
    """A person's correction of the whole capture."""

    @classmethod
    def of(cls, stored: dict[str, Any]) -> ClockOut:
        """Before its first parse a capture's clock info is what the uploader sent, which may hold
        anything: a known key of the wrong type shows as its default, never as an error."""
        mode = stored_mode(stored)
        return cls.model_validate(
            {
                **stored,
                "mode": mode,
                "wall_clock": is_wall_clock(mode),
                "note": note if isinstance(note := stored.get("note"), str) else "",
                "offset_ns": _int(stored.get("offset_ns")),
                "shift_ns": _int(stored.get("shift_ns")),
            }
        )


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


class CaptureOut(AnswerModel):
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
    clock: ClockOut
    record_counts: dict[str, int]
    meta: dict[str, Any]
    created_at: datetime
    parsed_at: datetime | None
    recovery_note: str | None = None
    """Why the console last queued this parse again by itself (a worker died, a message was lost)."""
