"""CPU samples: the largest table, written only by COPY and read only by aggregate queries.

No primary key on purpose: rows are never addressed one at a time, and TimescaleDB hypertables
would need the time column in any unique index.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, DateTime, ForeignKey, Integer, SmallInteger, Table, Text

from stallscope.models.base import Base

samples = Table(
    "samples",
    Base.metadata,
    Column("capture_id", Integer, ForeignKey("captures.id", ondelete="CASCADE"), nullable=False),
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("pid", Integer),
    Column("tid", Integer),
    Column("comm", Text, nullable=False),
    Column("cpu", SmallInteger),
    Column("event", Text, nullable=False),
    Column("weight", BigInteger, nullable=False),
    Column("stack_id", BigInteger, nullable=False),
)
