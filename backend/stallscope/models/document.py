"""Documents kept whole, such as a host's system snapshot."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Integer, Table, Text
from sqlalchemy.dialects.postgresql import JSONB

from stallscope.models.base import Base

capture_documents = Table(
    "capture_documents",
    Base.metadata,
    Column("capture_id", Integer, ForeignKey("captures.id", ondelete="CASCADE"), nullable=False),
    Column("kind", Text, nullable=False),
    Column("content", JSONB, nullable=False),
)
