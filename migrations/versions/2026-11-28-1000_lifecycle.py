"""The incident lifecycle: status with its timestamps, root cause and remediation, a trash (soft
delete) for incidents and captures, the retention policy, and foreign keys that cascade a capture's
deletion into every table holding its rows.

`samples`, `events` and `metrics` had no foreign key to `captures`; they get one now, ON DELETE
CASCADE, so deleting a capture row removes all it left behind in one statement, on plain PostgreSQL
and on TimescaleDB hypertables alike (a foreign key from a hypertable to a plain table is supported;
the constraint is copied to each chunk, and the cascade reaches compressed chunks, checked on
TimescaleDB 2.29). A parse that loads rows for a capture purged meanwhile then fails on the key
instead of leaving orphans. The price is a per-row check on every COPY into these tables: on
PostgreSQL 18, 1M sample rows loaded in 4.8 s instead of 1.1 s, and the end-to-end ingest of 1M
samples (`bench/ingest_and_query.py`) took 38.8 s instead of 23.7 s.

The per-second continuous aggregate is not a table a foreign key can reach: `lifecycle/repository.py`
deletes its materialised rows by capture id in the same transaction.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

STATUSES = "status IN ('investigating', 'identified', 'mitigated', 'resolved')"
CAPTURE_ROW_TABLES = ("samples", "events", "metrics")
"""Capture-owned tables without a foreign key before this revision (the others cascade since theirs)."""


def upgrade() -> None:
    op.add_column("incidents", sa.Column("status", sa.Text, nullable=False, server_default="investigating"))
    op.create_check_constraint("status", "incidents", STATUSES)
    for column in ("identified_at", "mitigated_at", "resolved_at", "deleted_at"):
        op.add_column("incidents", sa.Column(column, sa.DateTime(timezone=True)))
    op.add_column("incidents", sa.Column("root_cause", sa.Text, nullable=False, server_default=""))
    op.add_column("incidents", sa.Column("remediation", sa.Text, nullable=False, server_default=""))
    op.add_column(
        "incidents",
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.add_column("captures", sa.Column("deleted_at", sa.DateTime(timezone=True)))
    # The trash and the retention task look for these; the rest of the console skips them.
    op.create_index(
        "ix_incidents_deleted_at",
        "incidents",
        ["deleted_at"],
        postgresql_where=sa.text("deleted_at IS NOT NULL"),
    )
    op.create_index(
        "ix_captures_deleted_at",
        "captures",
        ["deleted_at"],
        postgresql_where=sa.text("deleted_at IS NOT NULL"),
    )

    for table in CAPTURE_ROW_TABLES:
        # No capture was ever deleted before this revision, so nothing should be orphaned; a row that
        # is would only stop the constraint from being added.
        op.execute(
            f"DELETE FROM {table} t WHERE NOT EXISTS (SELECT 1 FROM captures c WHERE c.id = t.capture_id)"
        )
        op.create_foreign_key(
            f"fk_{table}_capture", table, "captures", ["capture_id"], ["id"], ondelete="CASCADE"
        )

    op.create_table(
        "retention_policy",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("resolved_after_days", sa.Integer),
        sa.Column("failed_after_days", sa.Integer, server_default="30"),
        sa.Column("trash_days", sa.Integer, nullable=False, server_default="7"),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.CheckConstraint("id = 1", name="one_row"),
        sa.CheckConstraint("resolved_after_days IS NULL OR resolved_after_days >= 0", name="resolved_days"),
        sa.CheckConstraint("failed_after_days IS NULL OR failed_after_days >= 0", name="failed_days"),
        sa.CheckConstraint("trash_days >= 0", name="trash_days"),
    )
    op.execute("INSERT INTO retention_policy (id) VALUES (1)")


def downgrade() -> None:
    op.drop_table("retention_policy")
    for table in CAPTURE_ROW_TABLES:
        op.drop_constraint(f"fk_{table}_capture", table, type_="foreignkey")
    op.drop_index("ix_captures_deleted_at", table_name="captures")
    op.drop_index("ix_incidents_deleted_at", table_name="incidents")
    op.drop_column("captures", "deleted_at")
    for column in (
        "updated_at",
        "remediation",
        "root_cause",
        "deleted_at",
        "resolved_at",
        "mitigated_at",
        "identified_at",
    ):
        op.drop_column("incidents", column)
    op.drop_constraint("status", "incidents", type_="check")
    op.drop_column("incidents", "status")
