"""Incident payloads as the API speaks them."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from stallscope.kit.answer_model import AnswerModel
from stallscope.kit.text import MultiLine, SingleLine

Severity = Literal["sev1", "sev2", "sev3", "sev4"]
Visibility = Literal["team", "restricted"]
Status = Literal["investigating", "identified", "mitigated", "resolved"]


class IncidentCreate(BaseModel):
    title: SingleLine = Field(min_length=1, max_length=300)
    severity: Severity = "sev3"
    started_at: datetime
    summary: MultiLine = Field(default="", max_length=100_000)
    visibility: Visibility = Field(
        default="team", description="team: everyone with an account; restricted: its members and admins"
    )
    members: list[SingleLine] = Field(
        default_factory=list, max_length=500, description="User names who may see a restricted incident"
    )

    @field_validator("started_at")
    @classmethod
    def require_timezone(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            raise ValueError("started_at needs a time zone (e.g. 2026-11-21T08:03:00Z)")
        return value


class IncidentOut(AnswerModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    title: str
    severity: Severity
    started_at: datetime
    summary: str
    created_at: datetime
    capture_count: int
    visibility: Visibility = "team"
    members: list[str] = Field(default_factory=list)
    """Who may see it when restricted (admins always may)."""
    status: Status = "investigating"
    identified_at: datetime | None = None
    mitigated_at: datetime | None = None
    resolved_at: datetime | None = None
    """Each stamped the first time the incident reached that status (see `lifecycle/`)."""
    root_cause: str = ""
    remediation: str = ""
    updated_at: datetime | None = None
    watch_host: str | None = None
    """Set when this is a host's watch stream rather than an incident someone opened."""
