"""Timed events, metric series, documents, capture metadata and upload tokens.

Events (off-CPU intervals, syscalls, faults, function timings) and metric points become TimescaleDB
hypertables when the extension is usable, like samples; otherwise plain tables with BRIN indexes.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 00:45:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def timescaledb_installed() -> bool:
    """Revision 0001 created the extension when it was usable; follow its decision."""
    row = op.get_bind().execute(sa.text("SELECT 1 FROM pg_extension WHERE extname = 'timescaledb'")).first()
    return row is not None


def time_partitioned(table: str) -> None:
    if timescaledb_installed():
        # No default (ts DESC) index: every query filters by capture first (revision 0016).
        op.execute(
            f"SELECT create_hypertable('{table}', 'ts', chunk_time_interval => INTERVAL '1 day', "
            "create_default_indexes => false)"
        )
        op.execute(f"CREATE INDEX ix_{table}_capture_ts ON {table} (capture_id, ts)")
        op.execute(
            f"ALTER TABLE {table} SET (timescaledb.compress, "
            "timescaledb.compress_segmentby = 'capture_id', timescaledb.compress_orderby = 'ts')"
        )
        op.execute(f"SELECT add_compression_policy('{table}', INTERVAL '7 days')")
    else:
        op.execute(f"CREATE INDEX ix_{table}_capture_ts ON {table} USING brin (capture_id, ts)")


def upgrade() -> None:
    op.add_column("captures", sa.Column("kind", sa.Text))
    op.add_column(
        "captures", sa.Column("record_counts", postgresql.JSONB, nullable=False, server_default="{}")
    )
    op.add_column("captures", sa.Column("meta", postgresql.JSONB, nullable=False, server_default="{}"))

    op.create_table(
        "events",
        sa.Column("capture_id", sa.Integer, nullable=False),
        sa.Column("ts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("duration_ns", sa.BigInteger),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("pid", sa.Integer),
        sa.Column("tid", sa.Integer),
        sa.Column("comm", sa.Text, nullable=False),
        sa.Column("cpu", sa.SmallInteger),
        sa.Column("state", sa.Text),
        sa.Column("stack_id", sa.BigInteger),
        sa.Column("waker_tid", sa.Integer),
        sa.Column("args", sa.Text),
        sa.Column("result", sa.Text),
        sa.Column("attrs", postgresql.JSONB),
    )
    time_partitioned("events")

    op.create_table(
        "metric_series",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("capture_id", sa.Integer, sa.ForeignKey("captures.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("labels", postgresql.JSONB, nullable=False, server_default="{}"),
        sa.Column("unit", sa.Text),
        sa.UniqueConstraint("capture_id", "name", "labels", name="uq_metric_series_capture_name_labels"),
    )
    op.create_table(
        "metrics",
        sa.Column("capture_id", sa.Integer, nullable=False),
        sa.Column("series_id", sa.Integer, nullable=False),
        sa.Column("ts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("value", sa.Float, nullable=False),
    )
    time_partitioned("metrics")

    op.create_table(
        "capture_documents",
        sa.Column("capture_id", sa.Integer, sa.ForeignKey("captures.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("content", postgresql.JSONB, nullable=False),
    )
    op.create_index("ix_capture_documents_capture_id", "capture_documents", ["capture_id"])

    op.create_table(
        "upload_tokens",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("digest", sa.LargeBinary, nullable=False, unique=True),
        sa.Column("prefix", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.Column("last_used_at", sa.DateTime(timezone=True)),
        sa.Column("revoked_at", sa.DateTime(timezone=True)),
    )


def downgrade() -> None:
    op.drop_table("upload_tokens")
    op.drop_table("capture_documents")
    op.drop_table("metrics")
    op.drop_table("metric_series")
    op.drop_table("events")
    op.drop_column("captures", "meta")
    op.drop_column("captures", "record_counts")
    op.drop_column("captures", "kind")
