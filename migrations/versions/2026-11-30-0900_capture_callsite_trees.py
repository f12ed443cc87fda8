"""Each parsed capture's call-site tree, so a flame graph's first request does not build it.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-30 09:00:00

Captures parsed before this revision get their tree on their first view (built, then stored).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "capture_callsite_trees",
        sa.Column(
            "capture_id", sa.Integer, sa.ForeignKey("captures.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("parsed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("format", sa.SmallInteger, nullable=False),
        sa.Column("comms", postgresql.ARRAY(sa.Text), nullable=False),
        sa.Column("arrays", sa.LargeBinary, nullable=False),
    )
    # Mostly distinct integers: compressing them saves little and costs every first view.
    op.execute("ALTER TABLE capture_callsite_trees ALTER COLUMN arrays SET STORAGE EXTERNAL")


def downgrade() -> None:
    op.drop_table("capture_callsite_trees")
