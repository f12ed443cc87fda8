"""Watch mode: per-host watch streams, signatures, the alerts they raise and where alerts go.

A watch stream is an incident marked with its host (`incidents.watch_host`): its captures, views
and findings are an incident's, and the incident list leaves it out. Signatures are rules people
write (a frame regex, in CPU or off-CPU time, with a threshold); an alert is one signature firing on
one host, kept open while matches keep coming within its cool-down. Webhooks are where alerts are
sent; a delivery row per alert and webhook says whether it got there.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-02 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("incidents", sa.Column("watch_host", sa.Text(), nullable=True))
    op.create_index(
        "uq_incidents_watch_host",
        "incidents",
        ["watch_host"],
        unique=True,
        postgresql_where=sa.text("watch_host IS NOT NULL AND deleted_at IS NULL"),
    )
    op.add_column(
        "retention_policy", sa.Column("watch_days", sa.Integer(), nullable=True, server_default="7")
    )
    op.create_check_constraint("watch_days", "retention_policy", "watch_days IS NULL OR watch_days >= 0")
    op.create_table(
        "signatures",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.Text(), nullable=False, unique=True),
        sa.Column("pattern", sa.Text(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("state", sa.Text(), nullable=True),
        sa.Column("process", sa.Text(), nullable=True),
        sa.Column("min_share", sa.Float(), nullable=True),
        sa.Column("min_ms", sa.Float(), nullable=True),
        sa.Column("cooldown_s", sa.Integer(), nullable=False, server_default="1800"),
        sa.Column("enabled", sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column("description", sa.Text(), nullable=False, server_default=""),
        sa.Column("created_by", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL")),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.CheckConstraint("source IN ('cpu', 'off-cpu', 'finding')", name="source"),
        sa.CheckConstraint("min_share IS NULL OR (min_share >= 0 AND min_share <= 1)", name="min_share"),
        sa.CheckConstraint("min_ms IS NULL OR min_ms >= 0", name="min_ms"),
        sa.CheckConstraint("cooldown_s >= 0", name="cooldown_s"),
    )
    op.create_table(
        "alerts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "signature_id", sa.Integer(), sa.ForeignKey("signatures.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("host", sa.Text(), nullable=False),
        sa.Column("first_capture_id", sa.Integer(), sa.ForeignKey("captures.id", ondelete="SET NULL")),
        sa.Column("last_capture_id", sa.Integer(), sa.ForeignKey("captures.id", ondelete="SET NULL")),
        sa.Column("first_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False, server_default="1"),
        sa.Column("share", sa.Float(), nullable=False),
        sa.Column("matched_ns", sa.BigInteger(), nullable=False),
        sa.Column("evidence", postgresql.JSONB(), nullable=False),
        sa.Column("incident_id", sa.Integer(), sa.ForeignKey("incidents.id", ondelete="SET NULL")),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.create_index("ix_alerts_signature_host_last", "alerts", ["signature_id", "host", "last_at"])
    op.create_table(
        "webhooks",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.Text(), nullable=False, unique=True),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("format", sa.Text(), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.CheckConstraint("format IN ('json', 'alertmanager', 'slack')", name="format"),
    )
    op.create_table(
        "alert_deliveries",
        sa.Column("alert_id", sa.Integer(), sa.ForeignKey("alerts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column(
            "webhook_id", sa.Integer(), sa.ForeignKey("webhooks.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("last_error", sa.Text(), nullable=False, server_default=""),
        sa.Column("sent_at", sa.DateTime(timezone=True)),
        sa.CheckConstraint("status IN ('pending', 'sent', 'failed')", name="status"),
    )


def downgrade() -> None:
    op.drop_table("alert_deliveries")
    op.drop_table("webhooks")
    op.drop_index("ix_alerts_signature_host_last", table_name="alerts")
    op.drop_table("alerts")
    op.drop_table("signatures")
    op.drop_constraint(op.f("ck_retention_policy_watch_days"), "retention_policy", type_="check")
    op.drop_column("retention_policy", "watch_days")
    op.drop_index("uq_incidents_watch_host", table_name="incidents")
    op.drop_column("incidents", "watch_host")
