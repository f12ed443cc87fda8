"""Lifecycle payloads as the API speaks them."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from stallscope.incidents.schemas import Severity, Status, Visibility
from stallscope.kit.text import MultiLine, SingleLine

STAMPED: dict[str, str] = {
    "identified": "identified_at",
    "mitigated": "mitigated_at",
    "resolved": "resolved_at",
}
"""The column each status stamps the first time it is set (investigating is when it started)."""


class IncidentPatch(BaseModel):
    """Only the fields sent change; `members` replaces the member list."""

    model_config = ConfigDict(extra="forbid")

    title: SingleLine | None = Field(default=None, min_length=1, max_length=300)
    summary: MultiLine | None = Field(default=None, max_length=100_000)
    severity: Severity | None = None
    status: Status | None = Field(
        default=None, description="Setting a status stamps its time the first time; going back keeps stamps"
    )
    root_cause: MultiLine | None = Field(default=None, max_length=100_000)
    remediation: MultiLine | None = Field(default=None, max_length=100_000)
    visibility: Visibility | None = None
    members: list[SingleLine] | None = Field(default=None, max_length=500)


class TrashedIncident(BaseModel):
    id: int
    title: str
    deleted_at: datetime
    purge_after: datetime
    """When the retention task removes it for good (the policy's trash days after `deleted_at`)."""
    capture_count: int


class TrashedCapture(BaseModel):
    id: int
    incident_id: int
    incident_title: str
    filename: str
    size_bytes: int
    deleted_at: datetime
    purge_after: datetime


class TrashOut(BaseModel):
    trash_days: int
    incidents: list[TrashedIncident]
    captures: list[TrashedCapture]


class RetentionPolicy(BaseModel):
    """Every field is required on PUT (null where allowed), so a partial body cannot reset the rest."""

    model_config = ConfigDict(extra="forbid")

    resolved_after_days: int | None = Field(
        ge=0, le=36_500, description="Trash captures of incidents resolved this many days ago; null: never"
    )
    failed_after_days: int | None = Field(
        ge=0, le=36_500, description="Trash failed uploads this many days old; null: never (default 30)"
    )
    watch_days: int | None = Field(
        ge=0, le=36_500, description="Trash hosts' watch captures this many days old; null: never (default 7)"
    )
    trash_days: int = Field(
        ge=0, le=36_500, description="Purge what has been in the trash this long (default 7)"
    )


class RetentionReport(BaseModel):
    """What one run of the retention task did."""

    trashed_captures: list[int] = Field(default_factory=list)
    purged_incidents: list[int] = Field(default_factory=list)
    purged_captures: list[int] = Field(default_factory=list)
    removed_blobs: int = 0


class StorageOut(BaseModel):
    incident_id: int
    captures: int
    trashed_captures: int
    raw_bytes: int
    """Bytes of the uploads as stored (compressed as they came); a blob two captures share counts once."""
    shared_raw_bytes: int
    """Of `raw_bytes`, what other incidents' captures also hold: purging this incident frees the rest."""
    rows: dict[str, int]
    """Stored rows of its captures per table (and the per-second sample rollup on TimescaleDB)."""
