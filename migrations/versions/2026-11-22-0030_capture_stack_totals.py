"""Per-capture stack totals: what a full-range flame graph needs, computed once at ingest.

A flame graph of a whole capture (the view people open first) would otherwise aggregate every raw
sample again; this table holds one row per (event, thread, stack) instead, on both back ends.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 00:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "capture_stack_totals",
        sa.Column("capture_id", sa.Integer, sa.ForeignKey("captures.id", ondelete="CASCADE"), nullable=False),
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("pid", sa.Integer),
        sa.Column("tid", sa.Integer),
        sa.Column("comm", sa.Text, nullable=False),
        sa.Column("stack_id", sa.BigInteger, nullable=False),
        sa.Column("weight", sa.BigInteger, nullable=False),
        sa.Column("samples", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_capture_stack_totals_capture_event", "capture_stack_totals", ["capture_id", "event"])


def downgrade() -> None:
    op.drop_table("capture_stack_totals")
