"""CPU samples: the largest table, written only by COPY and read only by aggregate queries.

No primary key on purpose: rows are never addressed one at a time, and TimescaleDB hypertables
would need the time column in any unique index.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, DateTime, Integer, SmallInteger, Table, Text

from stallscope.models.base import Base

samples = Table(
    "samples",
    Base.metadata,
    # No foreign key (see captures/parsing.py `_hold_capture`): a purge deletes these rows itself.
    Column("capture_id", Integer, nullable=False),
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("pid", Integer),
    Column("tid", Integer),
    Column("comm", Text, nullable=False),
    Column("cpu", SmallInteger),
    Column("event", Text, nullable=False),
    Column("weight", BigInteger, nullable=False),
    Column("stack_id", BigInteger, nullable=False),
)
