"""Captures the per-second sample rollup (TimescaleDB) holds in full, written after each refresh.

`parsed_at` is the capture's `parsed_at` when the refresh began: the mark counts only while it is
still the capture's latest parse.
"""

from __future__ import annotations

from sqlalchemy import Column, DateTime, ForeignKey, Integer, Table, func

from stallscope.models.base import Base

sample_rollup_captures = Table(
    "sample_rollup_captures",
    Base.metadata,
    Column("capture_id", Integer, ForeignKey("captures.id", ondelete="CASCADE"), primary_key=True),
    Column("parsed_at", DateTime(timezone=True), nullable=False),
    Column("refreshed_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
)
