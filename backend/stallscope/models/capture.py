"""One uploaded file and what parsing made of it; the raw bytes stay in the blob store."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Boolean, DateTime, Float, ForeignKey, Integer, Text, func
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from stallscope.models.base import Base


class Capture(Base):
    __tablename__ = "captures"

    id: Mapped[int] = mapped_column(primary_key=True)
    incident_id: Mapped[int] = mapped_column(ForeignKey("incidents.id", ondelete="CASCADE"), index=True)
    host_id: Mapped[int | None] = mapped_column(ForeignKey("hosts.id"))
    filename: Mapped[str] = mapped_column(Text)
    format: Mapped[str | None] = mapped_column(Text)
    kind: Mapped[str | None] = mapped_column(Text)
    """What the uploader says it is (cpu, offcpu, proc, snapshot…); the format is still sniffed."""
    status: Mapped[str] = mapped_column(Text, default="queued")
    progress: Mapped[float] = mapped_column(Float, default=0.0)
    error: Mapped[str | None] = mapped_column(Text)
    warnings: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    dropped_lines: Mapped[int] = mapped_column(Integer, default=0)
    truncated: Mapped[bool] = mapped_column(Boolean, default=False)
    sha256: Mapped[str] = mapped_column(Text)
    compression: Mapped[str] = mapped_column(Text)
    size_bytes: Mapped[int] = mapped_column(BigInteger)
    size_uncompressed: Mapped[int | None] = mapped_column(BigInteger)
    blob_path: Mapped[str] = mapped_column(Text)
    sample_count: Mapped[int] = mapped_column(BigInteger, default=0)
    stack_count: Mapped[int] = mapped_column(Integer, default=0)
    thread_count: Mapped[int] = mapped_column(Integer, default=0)
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSONB, default=list)
    time_start: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    time_end: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    clock: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    record_counts: Mapped[dict[str, int]] = mapped_column(JSONB, default=dict)
    meta: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    """What the collector says about how it recorded: its version, the exact commands."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    parsed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    parse_attempt: Mapped[int] = mapped_column(Integer, default=1)
    """Counts the times a parse was queued; a parse message only counts while it names the latest."""
    queued_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    parse_heartbeat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """Touched every few seconds by the worker parsing it; stale means that worker is gone."""
    recoveries: Mapped[int] = mapped_column(Integer, default=0)
    """Times the console queued this parse again by itself since a person last queued it."""
    recovery_note: Mapped[str | None] = mapped_column(Text)
    """Why the console last queued it again, for the capture page."""
    upload_key: Mapped[str | None] = mapped_column(Text)
    """The uploader's `Idempotency-Key`: a second upload with it finds this capture instead."""
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """Set while it is in the trash: hidden from its incident and the views until restored or purged."""
