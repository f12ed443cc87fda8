"""Which captures the per-second sample rollup holds in full, so a flame graph need not count to know.

Deciding between the rollup and raw samples used to sum the rollup's samples of every capture in the
request and compare them with the captures' counts: 0.4 s of a 60 s flame graph over ten million
samples. A capture's row is written after each successful refresh of the rollup and names the parse
whose samples it materialised (the capture's `parsed_at` when the refresh began): the rollup is
current for a capture when that is still the capture's latest parse.

Captures already parsed on TimescaleDB get their row when the rollup already accounts for every one
of their samples; the others read raw samples until they are parsed again.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-22 13:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sample_rollup_captures",
        sa.Column(
            "capture_id",
            sa.Integer,
            sa.ForeignKey("captures.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("parsed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("refreshed_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    has_rollup = (
        op.get_bind().execute(sa.text("SELECT to_regclass('sample_rollup_1s') IS NOT NULL")).scalar_one()
    )
    if has_rollup:
        op.execute(
            """
            INSERT INTO sample_rollup_captures (capture_id, parsed_at)
            SELECT c.id, c.parsed_at FROM captures c
            WHERE c.status IN ('ready', 'partial') AND c.parsed_at IS NOT NULL AND c.sample_count = (
                SELECT coalesce(sum(r.samples), 0) FROM sample_rollup_1s r WHERE r.capture_id = c.id
            )
            """
        )


def downgrade() -> None:
    op.drop_table("sample_rollup_captures")
