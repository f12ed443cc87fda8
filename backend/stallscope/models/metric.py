"""Metric series (name + labels, per capture) and their points."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, DateTime, Float, ForeignKey, Integer, Table, Text, UniqueConstraint
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from stallscope.models.base import Base


class MetricSeries(Base):
    __tablename__ = "metric_series"
    __table_args__ = (
        UniqueConstraint("capture_id", "name", "labels", name="uq_metric_series_capture_name_labels"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    capture_id: Mapped[int] = mapped_column(ForeignKey("captures.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(Text)
    labels: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    unit: Mapped[str | None] = mapped_column(Text)


metrics = Table(
    "metrics",
    Base.metadata,
    # No foreign key (see captures/parsing.py `_hold_capture`): a purge deletes these rows itself.
    Column("capture_id", Integer, nullable=False),
    Column("series_id", Integer, nullable=False),
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("value", Float, nullable=False),
)
