"""Free text pinned to a time in an incident ("set LD_BIND_NOW=y"), drawn on the timeline."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Text, func
from sqlalchemy.orm import Mapped, mapped_column

from stallscope.models.base import Base


class Annotation(Base):
    __tablename__ = "annotations"

    id: Mapped[int] = mapped_column(primary_key=True)
    incident_id: Mapped[int] = mapped_column(ForeignKey("incidents.id", ondelete="CASCADE"))
    ts: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    text: Mapped[str] = mapped_column(Text)
    host: Mapped[str | None] = mapped_column(Text)
    """The host it concerns, or None for the whole incident."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
