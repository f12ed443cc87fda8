"""Incidents, captures, deduplicated frames and stacks, and CPU samples.

Samples become a TimescaleDB hypertable with compression and a per-second continuous aggregate when
the extension is available; otherwise they stay a plain table with a BRIN index, and the same
queries run against it.

Revision ID: 0001
Revises:
Create Date: 2026-11-21 23:45:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

ROLLUP_VIEW = "sample_rollup_1s"


def timescaledb_available() -> bool:
    """Installed in this database, or installable: packaged *and* preloaded by the server.

    Packaged alone is not enough: CREATE EXTENSION fails unless the server was started with
    timescaledb in shared_preload_libraries, so such a server gets the plain-PostgreSQL schema.
    """
    bind = op.get_bind()
    row = bind.execute(
        sa.text(
            "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'timescaledb') "
            "OR (EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'timescaledb') "
            "AND 'timescaledb' = ANY (SELECT btrim(lib, ' \"') FROM "
            "unnest(string_to_array(current_setting('shared_preload_libraries'), ',')) AS lib))"
        )
    ).scalar_one()
    return bool(row)


def upgrade() -> None:
    op.create_table(
        "incidents",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("severity", sa.Text, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("summary", sa.Text, nullable=False, server_default=""),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.CheckConstraint("severity IN ('sev1', 'sev2', 'sev3', 'sev4')", name="severity"),
    )
    op.create_table(
        "hosts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.Text, nullable=False, unique=True),
    )
    op.create_table(
        "captures",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "incident_id", sa.Integer, sa.ForeignKey("incidents.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("host_id", sa.Integer, sa.ForeignKey("hosts.id")),
        sa.Column("filename", sa.Text, nullable=False),
        sa.Column("format", sa.Text),
        sa.Column("status", sa.Text, nullable=False, server_default="queued"),
        sa.Column("progress", sa.Float, nullable=False, server_default="0"),
        sa.Column("error", sa.Text),
        sa.Column("warnings", postgresql.JSONB, nullable=False, server_default="[]"),
        sa.Column("dropped_lines", sa.Integer, nullable=False, server_default="0"),
        sa.Column("truncated", sa.Boolean, nullable=False, server_default="false"),
        sa.Column("sha256", sa.Text, nullable=False),
        sa.Column("compression", sa.Text, nullable=False),
        sa.Column("size_bytes", sa.BigInteger, nullable=False),
        sa.Column("size_uncompressed", sa.BigInteger),
        sa.Column("blob_path", sa.Text, nullable=False),
        sa.Column("sample_count", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("stack_count", sa.Integer, nullable=False, server_default="0"),
        sa.Column("thread_count", sa.Integer, nullable=False, server_default="0"),
        sa.Column("events", postgresql.JSONB, nullable=False, server_default="[]"),
        sa.Column("time_start", sa.DateTime(timezone=True)),
        sa.Column("time_end", sa.DateTime(timezone=True)),
        sa.Column("clock", postgresql.JSONB, nullable=False, server_default="{}"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.Column("parsed_at", sa.DateTime(timezone=True)),
        sa.CheckConstraint("status IN ('queued', 'parsing', 'ready', 'partial', 'failed')", name="status"),
    )
    op.create_index("ix_captures_incident_id", "captures", ["incident_id"])
    op.create_table(
        "frames",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("digest", sa.LargeBinary, nullable=False, unique=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
    )
    op.create_table(
        "stacks",
        sa.Column("id", sa.BigInteger, primary_key=True),
        sa.Column("digest", sa.LargeBinary, nullable=False, unique=True),
        sa.Column("frame_ids", postgresql.ARRAY(sa.Integer), nullable=False),
    )
    op.create_table(
        "samples",
        sa.Column("capture_id", sa.Integer, nullable=False),
        sa.Column("ts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("pid", sa.Integer),
        sa.Column("tid", sa.Integer),
        sa.Column("comm", sa.Text, nullable=False),
        sa.Column("cpu", sa.SmallInteger),
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("weight", sa.BigInteger, nullable=False),
        sa.Column("stack_id", sa.BigInteger, nullable=False),
    )
    if timescaledb_available():
        upgrade_timescaledb()
    else:
        # Samples arrive capture by capture in bulk, so capture_id and ts both follow the physical
        # order: a BRIN index finds a capture's rows at a fraction of a btree's size and COPY cost.
        op.execute("CREATE INDEX ix_samples_capture_ts ON samples USING brin (capture_id, ts)")


def upgrade_timescaledb() -> None:
    op.execute("CREATE EXTENSION IF NOT EXISTS timescaledb")
    # No default (ts DESC) index: every query filters by capture first (revision 0016).
    op.execute(
        "SELECT create_hypertable('samples', 'ts', chunk_time_interval => INTERVAL '1 day', "
        "create_default_indexes => false)"
    )
    op.execute("CREATE INDEX ix_samples_capture_ts ON samples (capture_id, ts)")
    op.execute(
        "ALTER TABLE samples SET (timescaledb.compress, "
        "timescaledb.compress_segmentby = 'capture_id', timescaledb.compress_orderby = 'ts')"
    )
    op.execute("SELECT add_compression_policy('samples', INTERVAL '7 days')")
    # Continuous aggregates cannot be created inside a transaction.
    with op.get_context().autocommit_block():
        op.execute(
            f"""
            CREATE MATERIALIZED VIEW {ROLLUP_VIEW} WITH (timescaledb.continuous) AS
            SELECT capture_id, time_bucket(INTERVAL '1 second', ts) AS bucket,
                   event, pid, tid, comm, stack_id,
                   sum(weight) AS weight, count(*) AS samples
            FROM samples
            GROUP BY capture_id, bucket, event, pid, tid, comm, stack_id
            WITH NO DATA
            """
        )
        op.execute(
            f"SELECT add_continuous_aggregate_policy('{ROLLUP_VIEW}', start_offset => NULL, "
            "end_offset => INTERVAL '1 second', schedule_interval => INTERVAL '1 hour')"
        )


def downgrade() -> None:
    if timescaledb_available():
        with op.get_context().autocommit_block():
            op.execute(f"DROP MATERIALIZED VIEW IF EXISTS {ROLLUP_VIEW}")
    op.drop_table("samples")
    op.drop_table("stacks")
    op.drop_table("frames")
    op.drop_table("captures")
    op.drop_table("hosts")
    op.drop_table("incidents")
