"""An incident: the investigation every capture belongs to."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, Text, func
from sqlalchemy.orm import Mapped, mapped_column

from stallscope.models.base import Base


class Incident(Base):
    __tablename__ = "incidents"

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(Text)
    severity: Mapped[str] = mapped_column(Text)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    summary: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    visibility: Mapped[str] = mapped_column(Text, server_default="team")
    """`team`: everyone with an account; `restricted`: its members and admins only."""
    created_by: Mapped[int | None] = mapped_column(Integer, ForeignKey("users.id", ondelete="SET NULL"))
    status: Mapped[str] = mapped_column(Text, server_default="investigating")
    """investigating → identified → mitigated → resolved; each step stamps its `*_at` the first time."""
    identified_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    mitigated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    root_cause: Mapped[str] = mapped_column(Text, server_default="")
    remediation: Mapped[str] = mapped_column(Text, server_default="")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """Set while it is in the trash: hidden everywhere, purged for good after the policy's trash days."""
    watch_host: Mapped[str | None] = mapped_column(Text)
    """Set on a host's watch stream (the collector's `watch` uploads): left out of the incident list,
    kept by the watch retention instead of the incidents' (at most one live stream per host)."""
