"""Whole-capture thread-state breakdowns, one row per thread, written after a parse."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, ForeignKey, Integer, Table, Text
from sqlalchemy.dialects.postgresql import JSONB

from stallscope.models.base import Base

capture_thread_states = Table(
    "capture_thread_states",
    Base.metadata,
    Column("capture_id", Integer, ForeignKey("captures.id", ondelete="CASCADE"), nullable=False),
    Column("pid", Integer),
    Column("tid", Integer, nullable=False),
    Column("comm", Text, nullable=False),
    Column("busy_ns", BigInteger, nullable=False),
    # The thread's ThreadStates as JSON: states, latency, wakers, top stack ids (threads/totals.py).
    Column("breakdown", JSONB, nullable=False),
)
