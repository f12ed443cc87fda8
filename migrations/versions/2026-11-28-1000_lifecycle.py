"""The incident lifecycle: status with its timestamps, root cause and remediation, a trash (soft
delete) for incidents and captures, and the retention policy.

A purge deletes a capture and everything it holds in one transaction. The tables with a foreign key
to `captures` cascade. `samples`, `events` and `metrics` get none, and the purge deletes their rows by
capture id after the capture row (`lifecycle/repository.py`):
- On TimescaleDB these are hypertables, and a foreign key from one makes every new chunk add its own
  constraint, which locks `captures` (SHARE ROW EXCLUSIVE) until the loading transaction ends. A
  parse that starts a new day's chunk then blocks every upload, and its own progress updates, for
  its whole length.
- On either back end the per-row check slowed the ingest of 1M samples from 23.7 s to 38.8 s.
A parse holds its capture row (FOR KEY SHARE) while it writes, so the purge's delete of that row
waits for the parse's commit and the deletes after it see everything the parse wrote
(`captures/parsing.py`).

The per-second continuous aggregate is deleted from by capture id in the same transaction too.

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
