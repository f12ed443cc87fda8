"""Per-capture totals by (event, thread, stack), written at ingest beside the raw samples."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, ForeignKey, Integer, Table, Text

from stallscope.models.base import Base

capture_stack_totals = Table(
    "capture_stack_totals",
    Base.metadata,
    Column("capture_id", Integer, ForeignKey("captures.id", ondelete="CASCADE"), nullable=False),
    Column("event", Text, nullable=False),
    Column("pid", Integer),
    Column("tid", Integer),
    Column("comm", Text, nullable=False),
    Column("stack_id", BigInteger, nullable=False),
    Column("weight", BigInteger, nullable=False),
    Column("samples", BigInteger, nullable=False),
)
