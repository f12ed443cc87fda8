"""Each parsed capture's call-site tree (see `analysis/callsites.py`), built after its parse.

`parsed_at` is the capture's `parsed_at` the tree was built for: a tree of an earlier parse is
never read. `arrays` holds the tree's numpy arrays (`flame/callsite_store.py`), stored uncompressed:
they are mostly distinct integers, and a view reads them back whole on its first request.
`sample_times` holds the capture's CPU samples as arrays for range views (`flame/sample_times.py`),
when the capture is small enough for them; read only by views of a time range.
"""

from __future__ import annotations

from sqlalchemy import Column, DateTime, ForeignKey, Integer, LargeBinary, SmallInteger, Table, Text
from sqlalchemy.dialects.postgresql import ARRAY

from stallscope.models.base import Base

capture_callsite_trees = Table(
    "capture_callsite_trees",
    Base.metadata,
    Column("capture_id", Integer, ForeignKey("captures.id", ondelete="CASCADE"), primary_key=True),
    Column("parsed_at", DateTime(timezone=True), nullable=False),
    Column("format", SmallInteger, nullable=False),
    Column("comms", ARRAY(Text), nullable=False),
    Column("arrays", LargeBinary, nullable=False),
    Column("sample_times", LargeBinary, nullable=True),
)
