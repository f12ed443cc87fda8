"""Parse attempts, parse heartbeats and worker heartbeats, so stalled parses recover by themselves.

A parse message names the attempt it was sent for; a worker claims the capture only while that is
still the capture's latest attempt, so a message that arrives twice (a broker redelivery, a recovery
that raced a slow worker) parses once. A worker that is parsing touches `parse_heartbeat_at` every
few seconds from a thread of its own: when the touches stop, the worker is gone and the capture is
queued again. `worker_heartbeats` tells `/api/health` whether any worker is alive at all.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 15:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("captures", sa.Column("parse_attempt", sa.Integer, nullable=False, server_default="1"))
    op.add_column("captures", sa.Column("queued_at", sa.DateTime(timezone=True)))
    op.add_column("captures", sa.Column("parse_heartbeat_at", sa.DateTime(timezone=True)))
    op.add_column("captures", sa.Column("recoveries", sa.Integer, nullable=False, server_default="0"))
    op.add_column("captures", sa.Column("recovery_note", sa.Text))
    op.execute("UPDATE captures SET queued_at = created_at WHERE status IN ('queued', 'parsing')")
    op.create_index(
        "captures_unfinished",
        "captures",
        ["status"],
        postgresql_where=sa.text("status IN ('queued', 'parsing')"),
    )
    op.create_table(
        "worker_heartbeats",
        sa.Column("name", sa.Text, primary_key=True),
        sa.Column("hostname", sa.Text, nullable=False),
        sa.Column("pid", sa.Integer, nullable=False),
        sa.Column("concurrency", sa.Integer, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("worker_heartbeats")
    op.drop_index("captures_unfinished", table_name="captures")
    for column in ("recovery_note", "recoveries", "parse_heartbeat_at", "queued_at", "parse_attempt"):
        op.drop_column("captures", column)
