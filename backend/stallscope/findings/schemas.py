"""Request and response bodies of the findings API (the findings themselves are the engine's JSON)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field


class FindingsOut(BaseModel):
    state: Literal["none", "computing", "ready"]
    """`none`: never computed (no capture parsed since findings existed); `computing`: a new baseline
    was chosen and the worker has not finished."""
    computed_at: datetime | None
    duration_ms: float | None
    hosts: list[str]
    baseline_hosts: list[str]
    captures_pending: int
    """Captures of the incident still queued or parsing: findings will change when they are done."""
    notes: list[str]
    findings: list[dict[str, Any]]
    """Most severe and most confident first; each with `verdict` (null, or confirmed/dismissed)."""


class BaselineIn(BaseModel):
    hosts: list[str] = Field(description="The healthy side; an empty list compares with nothing")


class VerdictIn(BaseModel):
    verdict: Literal["confirmed", "dismissed"] | None
    note: str = Field(default="", max_length=2000)


class VerdictOut(BaseModel):
    verdict: Literal["confirmed", "dismissed"] | None
    note: str
    at: datetime | None


class TimeRangeOut(BaseModel):
    start: datetime
    end: datetime
    """Exclusive."""


class WindowBaselineOut(TimeRangeOut):
    side: Literal["before", "after"]
    """The part of the captures' time range the window is compared with."""


class WindowFindingsOut(BaseModel):
    """Findings of a time window, computed on request (not stored): what the window shows that the
    rest of the time range does not."""

    window: TimeRangeOut
    """The window asked for, narrowed to where the captures have data."""
    baseline: WindowBaselineOut | None
    """None when the window covers all the captures' time."""
    hosts: list[str]
    capture_ids: list[int]
    duration_ms: float
    notes: list[str]
    findings: list[dict[str, Any]]
