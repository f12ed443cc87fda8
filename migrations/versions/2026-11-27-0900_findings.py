"""Findings: a digest per parsed capture, each incident's findings, and the verdicts people give them.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "capture_digests",
        sa.Column(
            "capture_id", sa.Integer, sa.ForeignKey("captures.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("digest", JSONB, nullable=False),
        sa.Column("built_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.create_table(
        "incident_findings",
        sa.Column(
            "incident_id", sa.Integer, sa.ForeignKey("incidents.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("computed_at", sa.DateTime(timezone=True)),
        sa.Column("duration_ms", sa.Float),
        sa.Column("hosts", JSONB, nullable=False, server_default="[]"),
        sa.Column("baseline_hosts", JSONB, nullable=False, server_default="[]"),
        sa.Column("findings", JSONB, nullable=False, server_default="[]"),
        sa.Column("per_host", JSONB, nullable=False, server_default="{}"),
        sa.Column("notes", JSONB, nullable=False, server_default="[]"),
        sa.CheckConstraint("state IN ('computing', 'ready')", name="state"),
    )
    op.create_table(
        "finding_verdicts",
        sa.Column(
            "incident_id", sa.Integer, sa.ForeignKey("incidents.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("finding_id", sa.Text, nullable=False),
        sa.Column("verdict", sa.Text, nullable=False),
        sa.Column("note", sa.Text, nullable=False, server_default=""),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.PrimaryKeyConstraint("incident_id", "finding_id"),
        sa.CheckConstraint("verdict IN ('confirmed', 'dismissed')", name="verdict"),
    )


def downgrade() -> None:
    op.drop_table("finding_verdicts")
    op.drop_table("incident_findings")
    op.drop_table("capture_digests")
