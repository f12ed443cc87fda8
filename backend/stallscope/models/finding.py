"""Findings tables: a digest per parsed capture, each incident's latest findings, people's verdicts."""

from __future__ import annotations

from sqlalchemy import Column, DateTime, Float, ForeignKey, Integer, Table, Text
from sqlalchemy.dialects.postgresql import JSONB

from stallscope.models.base import Base

capture_digests = Table(
    "capture_digests",
    Base.metadata,
    Column("capture_id", Integer, ForeignKey("captures.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, nullable=False),
    # What the detectors read of the capture (analysis/findings/digest.py), rebuilt by every parse.
    Column("digest", JSONB, nullable=False),
    Column("built_at", DateTime(timezone=True), nullable=False),
)

incident_findings = Table(
    "incident_findings",
    Base.metadata,
    Column("incident_id", Integer, ForeignKey("incidents.id", ondelete="CASCADE"), primary_key=True),
    Column("state", Text, nullable=False),
    Column("computed_at", DateTime(timezone=True)),
    Column("duration_ms", Float),
    Column("hosts", JSONB, nullable=False),
    # The healthy side people chose; kept across recomputations.
    Column("baseline_hosts", JSONB, nullable=False),
    Column("findings", JSONB, nullable=False),
    # Each host's findings before the merge: a parse on one host recomputes that host alone.
    Column("per_host", JSONB, nullable=False),
    Column("notes", JSONB, nullable=False),
)

finding_verdicts = Table(
    "finding_verdicts",
    Base.metadata,
    Column("incident_id", Integer, ForeignKey("incidents.id", ondelete="CASCADE"), primary_key=True),
    # A detector id: a verdict outlives recomputations of the findings it judged.
    Column("finding_id", Text, primary_key=True),
    Column("verdict", Text, nullable=False),
    Column("note", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)
