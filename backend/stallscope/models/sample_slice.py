"""CPU samples counted per capture, event and 10 ms slice at parse time, for heatmaps of whole captures.

`slice` is the slice's index since the epoch (its start in µs over 10,000, floored); `samples` and
`weight` are what the raw samples of that slice count and weigh. Written in the parse's transaction,
so a capture's slices always agree with its samples (`heatmap/slices.py`). No foreign key: its check
per row would cost a parse as much as the counting (0.35 s for 80k rows); a purge deletes the rows
itself, as for samples (`lifecycle/repository.py`).
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Integer, PrimaryKeyConstraint, Table, Text

from stallscope.models.base import Base

sample_slices = Table(
    "sample_slices",
    Base.metadata,
    Column("capture_id", Integer, nullable=False),
    Column("event", Text, nullable=False),
    Column("slice", BigInteger, nullable=False),
    Column("samples", BigInteger, nullable=False),
    Column("weight", BigInteger, nullable=False),
    PrimaryKeyConstraint("capture_id", "event", "slice", name="pk_sample_slices"),
)
