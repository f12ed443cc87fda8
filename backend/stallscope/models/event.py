"""Timed events of every kind (off-CPU intervals, syscalls, faults, function timings), COPY-loaded."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, DateTime, Integer, SmallInteger, Table, Text
from sqlalchemy.dialects.postgresql import JSONB

from stallscope.models.base import Base

events = Table(
    "events",
    Base.metadata,
    # No foreign key (see captures/parsing.py `_hold_capture`): a purge deletes these rows itself.
    Column("capture_id", Integer, nullable=False),
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("duration_ns", BigInteger),
    Column("kind", Text, nullable=False),
    Column("name", Text, nullable=False),
    Column("pid", Integer),
    Column("tid", Integer),
    Column("comm", Text, nullable=False),
    Column("cpu", SmallInteger),
    Column("state", Text),
    Column("stack_id", BigInteger),
    Column("waker_tid", Integer),
    Column("args", Text),
    Column("result", Text),
    Column("attrs", JSONB),
)
