"""Per-capture thread-state totals, written after each parse of a scheduler capture.

A whole-capture breakdown of a million scheduler intervals takes seconds to recompute; read from
here it takes milliseconds. Time ranges still read the intervals themselves.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-22 12:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "capture_thread_states",
        sa.Column("capture_id", sa.Integer, sa.ForeignKey("captures.id", ondelete="CASCADE"), nullable=False),
        sa.Column("pid", sa.Integer),
        sa.Column("tid", sa.Integer, nullable=False),
        sa.Column("comm", sa.Text, nullable=False),
        sa.Column("busy_ns", sa.BigInteger, nullable=False),
        sa.Column("breakdown", postgresql.JSONB, nullable=False),
    )
    op.create_index("ix_capture_thread_states_capture", "capture_thread_states", ["capture_id", "busy_ns"])


def downgrade() -> None:
    op.drop_index("ix_capture_thread_states_capture", table_name="capture_thread_states")
    op.drop_table("capture_thread_states")
