"""Request and response bodies of the findings API; a finding is the engine's JSON
(`analysis/findings/finding.py`, `Finding.as_json`), with the verdict given on it."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from stallscope.kit.answer_model import AnswerModel

Verdict = Literal["confirmed", "dismissed"]


class ThreadRefOut(BaseModel):
    host: str
    pid: int | None
    tid: int | None
    comm: str


class EvidenceOut(BaseModel):
    """One quantified fact: `label: text`, the number behind it, and the console view that shows it."""

    label: str
    text: str
    value: float | None
    unit: str | None
    """`share` (0 to 1), `ns`, `count`, `per_s`, `bytes`, `percent`."""
    baseline: float | None
    """The same number on the baseline side, when there is one."""
    view: str | None
    """A path of the console's routes with its query, e.g. `/flame?incident=1&q=rwsem_down`."""


class GivenVerdictOut(BaseModel):
    verdict: Verdict
    note: str
    at: datetime


class FindingOut(AnswerModel):
    id: str
    title: str
    severity: Literal["critical", "warning", "info"]
    confidence: float
    """0 to 1."""
    summary: str
    hosts: list[str]
    threads: list[ThreadRefOut]
    time_range_ns: tuple[int, int] | None
    """Epoch nanoseconds, [start, end]."""
    capture_ids: list[int]
    evidence: list[EvidenceOut]
    baseline: str | None
    """One sentence comparing with the baseline hosts."""
    next_checks: list[str]
    remediation: str
    references: list[str]
    score: float
    """How much of the symptom this explains (0 to 1): ranks findings of the same severity."""
    view: str
    """The one view that shows the cause best."""
    verdict: GivenVerdictOut | None = None
    """A person's verdict on a stored finding; a time window's findings are not stored and have none."""


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
    findings: list[FindingOut]
    """Most severe and most confident first."""


class BaselineIn(BaseModel):
    hosts: list[str] = Field(description="The healthy side; an empty list compares with nothing")


class VerdictIn(BaseModel):
    verdict: Verdict | None
    note: str = Field(default="", max_length=2000)


class VerdictOut(BaseModel):
    verdict: Verdict | None
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
    findings: list[FindingOut]
