"""Timeline rollups: per-capture buckets at 10 ms to 100 s, whole-capture totals, off-CPU steps.

A plain table on both back ends: it is written once per parse, in the parse's own transaction, so a
continuous aggregate's refresh machinery would add nothing but another thing to wait for. Captures
parsed before this revision have no rows here; the timeline reads their raw rows instead.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22 11:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "timeline_rollups",
        sa.Column("capture_id", sa.Integer, sa.ForeignKey("captures.id", ondelete="CASCADE"), nullable=False),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("key", sa.Text, nullable=False),
        sa.Column("res_us", sa.BigInteger, nullable=False),
        sa.Column("ts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("name", sa.Text, nullable=False, server_default=""),
        sa.Column("pid", sa.Integer),
        sa.Column("n", sa.BigInteger, nullable=False),
        sa.Column("total", sa.Float(precision=53), nullable=False, server_default="0"),
        sa.Column("min_value", sa.Float(precision=53)),
        sa.Column("max_value", sa.Float(precision=53)),
    )
    # Each (capture, level) is written in one go, sorted by key and time: a BRIN index finds its rows
    # for a fraction of a btree's upkeep, and does not bloat when a re-parse replaces them all.
    op.execute(
        "CREATE INDEX ix_timeline_rollups_range ON timeline_rollups "
        "USING brin (capture_id, res_us, ts) WITH (pages_per_range = 16)"
    )
    # Whole-capture totals and the manifest: a few rows per capture, read by every request.
    op.execute(
        "CREATE INDEX ix_timeline_rollups_summary ON timeline_rollups (capture_id, source) "
        "WHERE res_us = 0 AND source <> 'off-cpu-steps'"
    )
    # Off-CPU steps are looked up one bucket edge at a time ("the last edge at or before t").
    op.execute(
        "CREATE INDEX ix_timeline_rollups_steps ON timeline_rollups (capture_id, key, ts) "
        "WHERE source = 'off-cpu-steps'"
    )


def downgrade() -> None:
    op.drop_index("ix_timeline_rollups_steps", table_name="timeline_rollups")
    op.drop_index("ix_timeline_rollups_summary", table_name="timeline_rollups")
    op.drop_index("ix_timeline_rollups_range", table_name="timeline_rollups")
    op.drop_table("timeline_rollups")
