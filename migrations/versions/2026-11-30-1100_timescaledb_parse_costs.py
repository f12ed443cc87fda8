"""TimescaleDB: the per-second rollup becomes a per-capture table, and no index is kept that no query uses.

Both changes cut what each parse costs on TimescaleDB over plain PostgreSQL (measured on the
deep-compile capture, 116,528 samples: a continuous-aggregate refresh of 0.96 s alone and 9.0 s for
the fourth of four captures sharing its minute, plus ANALYZE of the whole hypertable and of the
aggregate).

- `sample_rollup_1s` was a continuous aggregate, refreshed by time window: a parse re-materialised
  every capture sharing its seconds. It becomes a plain table written from the capture's own samples
  in the parse's transaction (`timeseries.store_sample_rollup`), with one index, (capture_id,
  bucket), the one its readers use (flame graphs of wide ranges, the purge, the storage figures).
  No foreign key: its check per row cost the parse 0.35 s for 80k rows; a purge deletes the rows
  itself, as for samples. The aggregate's seven group indexes and its hourly refresh policy go with
  it. The rows of captures whose rollup was complete are copied; the others read raw samples until
  they are parsed again, as before.
- `create_hypertable` gave `samples`, `events` and `metrics` a `(ts DESC)` index each. Every query
  on them filters by capture (`capture_id = ANY(...)`, then time) and reads `ix_<table>_capture_ts`.
  With index counters reset and every plan logged (`auto_explain`), a TimescaleDB run of the flame,
  diff, heatmap, timeline, threads, findings, metrics, export and lifecycle tests (128 tests: every
  view, parses, re-parses, purges) scanned the `(capture_id, ts)` indexes 6,621 times and the
  `(ts DESC)` ones 152 times: 145 were the planner's one-tuple probes of a column's current end, the
  other 7 the plan of a heatmap of a test capture's few syscalls, where `(capture_id, ts)` serves the
  same condition (plain PostgreSQL has no btree on `ts` at all). Compression and chunk exclusion use
  the chunks' ranges, not an index. Revisions 0001 and 0003 no longer create them.

Plain PostgreSQL is untouched: it has neither the aggregate nor those indexes.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-30 11:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

ROLLUP = "sample_rollup_1s"
HYPERTABLES = ("samples", "events", "metrics")


def timescaledb_installed() -> bool:
    row = op.get_bind().execute(sa.text("SELECT 1 FROM pg_extension WHERE extname = 'timescaledb'")).first()
    return row is not None


def is_continuous_aggregate(name: str) -> bool:
    row = op.get_bind().execute(
        sa.text("SELECT 1 FROM timescaledb_information.continuous_aggregates WHERE view_name = :name"),
        {"name": name},
    )
    return row.first() is not None


def rollup_columns() -> list[sa.Column[object]]:
    return [
        # No foreign key: its check per row cost the parse 0.35 s for 80k rows; purges delete them.
        sa.Column("capture_id", sa.Integer, nullable=False),
        sa.Column("bucket", sa.DateTime(timezone=True), nullable=False),
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("pid", sa.Integer),
        sa.Column("tid", sa.Integer),
        sa.Column("comm", sa.Text, nullable=False),
        sa.Column("stack_id", sa.BigInteger, nullable=False),
        sa.Column("weight", sa.BigInteger, nullable=False),
        sa.Column("samples", sa.BigInteger, nullable=False),
    ]


COMPLETE = (
    "SELECT m.capture_id FROM sample_rollup_captures m JOIN captures c "
    "ON c.id = m.capture_id AND c.parsed_at = m.parsed_at"
)


def upgrade() -> None:
    if not timescaledb_installed():
        return
    for table in HYPERTABLES:
        op.execute(f"DROP INDEX IF EXISTS {table}_ts_idx")
    if not is_continuous_aggregate(ROLLUP):
        return
    op.execute(f"ALTER MATERIALIZED VIEW {ROLLUP} RENAME TO {ROLLUP}_aggregate")
    op.create_table(ROLLUP, *rollup_columns())
    op.execute(
        f"INSERT INTO {ROLLUP} SELECT capture_id, bucket, event, pid, tid, comm, stack_id, weight, samples "
        f"FROM {ROLLUP}_aggregate WHERE capture_id IN ({COMPLETE}) ORDER BY capture_id, bucket"
    )
    op.execute(f"DELETE FROM sample_rollup_captures WHERE capture_id NOT IN ({COMPLETE})")
    op.create_index(f"ix_{ROLLUP}_capture_bucket", ROLLUP, ["capture_id", "bucket"])
    with op.get_context().autocommit_block():
        op.execute(f"DROP MATERIALIZED VIEW {ROLLUP}_aggregate")  # its policy and materialised rows with it


def downgrade() -> None:
    """Back to the continuous aggregate (materialised by its policy or the next parses) and the
    `(ts DESC)` indexes."""
    if not timescaledb_installed():
        return
    for table in HYPERTABLES:
        op.execute(f"CREATE INDEX IF NOT EXISTS {table}_ts_idx ON {table} (ts DESC)")
    if is_continuous_aggregate(ROLLUP):
        return
    op.drop_table(ROLLUP)
    op.execute("DELETE FROM sample_rollup_captures")
    with op.get_context().autocommit_block():
        op.execute(
            f"""
            CREATE MATERIALIZED VIEW {ROLLUP} WITH (timescaledb.continuous) AS
            SELECT capture_id, time_bucket(INTERVAL '1 second', ts) AS bucket,
                   event, pid, tid, comm, stack_id,
                   sum(weight) AS weight, count(*) AS samples
            FROM samples
            GROUP BY capture_id, bucket, event, pid, tid, comm, stack_id
            WITH NO DATA
            """
        )
        op.execute(
            f"SELECT add_continuous_aggregate_policy('{ROLLUP}', start_offset => NULL, "
            "end_offset => INTERVAL '1 second', schedule_interval => INTERVAL '1 hour')"
        )
