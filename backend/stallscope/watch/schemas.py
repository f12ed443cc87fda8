"""Request and answer bodies of watch mode's routes."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, HttpUrl

from stallscope.kit.answer_model import AnswerModel

Source = Literal["cpu", "off-cpu", "finding"]
WebhookFormat = Literal["json", "alertmanager", "slack"]


class SignatureIn(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    pattern: str = Field(
        min_length=1, max_length=1000, description="Regular expression searched in frame names"
    )
    source: Source = "cpu"
    state: str | None = Field(default=None, max_length=8, description="Off-CPU only: one scheduler state")
    process: str | None = Field(
        default=None, max_length=1000, description="Regular expression on process names"
    )
    min_share: float | None = Field(default=None, ge=0, le=1, description="Share of the window (0-1)")
    min_ms: float | None = Field(default=None, ge=0, description="Off-CPU only: matched time per window")
    cooldown_s: int = Field(default=1800, ge=0, le=30 * 86400)
    enabled: bool = True
    description: str = Field(default="", max_length=2000)


class SignatureOut(AnswerModel):
    id: int
    name: str
    pattern: str
    source: Source
    state: str | None
    process: str | None
    min_share: float | None
    min_ms: float | None
    cooldown_s: int
    enabled: bool
    description: str
    created_at: datetime
    updated_at: datetime


class WebhookIn(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    url: HttpUrl
    format: WebhookFormat = "json"
    enabled: bool = True


class WebhookOut(AnswerModel):
    id: int
    name: str
    url: str
    format: WebhookFormat
    enabled: bool
    created_at: datetime


class DeliveryOut(AnswerModel):
    webhook: str
    status: Literal["pending", "sent", "failed"]
    attempts: int
    last_error: str
    sent_at: datetime | None


class AlertOut(AnswerModel):
    id: int
    signature_id: int
    signature: str
    pattern: str
    source: Source
    state: str | None
    host: str
    stream_id: int | None
    """The watch stream (incident) the matching captures are in."""
    first_capture_id: int | None
    last_capture_id: int | None
    first_at: datetime
    last_at: datetime
    matches: int
    share: float
    matched_ns: int
    evidence: dict[str, Any]
    incident_id: int | None
    """The incident opened from this alert, if any."""
    summary: str
    evidence_url: str
    deliveries: list[DeliveryOut]


class WatchStreamOut(AnswerModel):
    id: int
    host: str
    captures: int
    last_upload: datetime | None


class OpenedIncidentOut(AnswerModel):
    incident_id: int
    captures: list[int]
    """Copies of the watch rounds that matched (empty when the incident was opened before)."""
    baseline_captures: list[int]
    """Copies of the host's watch round nearest the same time the day before, filed under the
    host `<host> (day before)`: the findings' baseline and the diff's A side."""
    baseline_host: str | None
    """That host's name; None when the stream has no round near that time."""
    diff_url: str | None
    """The console path of the diff: the day before (A) against the matching rounds (B)."""


class DayBeforeHostOut(AnswerModel):
    host: str
    baseline_host: str
    """`<host> (day before)`: where the copies are filed, and one of the findings' baseline hosts."""
    captures: list[int]
    """Copies of the host's watch round nearest the same time the day before, queued to parse."""
    diff_url: str
    """The console path of the diff: the day before (A) against the host's captures (B)."""


class DayBeforeOut(AnswerModel):
    added: list[DayBeforeHostOut]
    skipped: list[str]
    """Hosts that got nothing, each with the reason: not watched, no round near that time…"""
    baseline_hosts: list[str]
    """The findings' baseline hosts now."""
