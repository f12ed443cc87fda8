"""Per-capture totals by (event, thread, stack), written at ingest beside the raw samples.

No foreign key: its check per row cost a parse 0.25 s for 66k rows, at its very end (migration 0017);
a purge deletes the rows itself, as for samples (`lifecycle/repository.py`).
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Integer, Table, Text

from stallscope.models.base import Base

capture_stack_totals = Table(
    "capture_stack_totals",
    Base.metadata,
    Column("capture_id", Integer, nullable=False),
    Column("event", Text, nullable=False),
    Column("pid", Integer),
    Column("tid", Integer),
    Column("comm", Text, nullable=False),
    Column("stack_id", BigInteger, nullable=False),
    Column("weight", BigInteger, nullable=False),
    Column("samples", BigInteger, nullable=False),
)
