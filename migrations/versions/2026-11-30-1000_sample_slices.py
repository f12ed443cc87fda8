"""CPU samples counted per capture, event and 10 ms slice: what the heatmap of a whole capture reads.

The heatmap of ten million samples binned every sample per request (2.4 s); summing their half a
million slices takes a fraction of that. A plain table on both back ends, written in each parse's
transaction from the stored samples (`heatmap/slices.py`). Captures parsed before this revision get
their slices here, from their samples, one capture at a time.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-30 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

BACKFILL = """
    INSERT INTO sample_slices (capture_id, event, slice, samples, weight)
    SELECT :id, event,
           floor(extract(epoch FROM s))::bigint * 100
           + (extract(microseconds FROM s)::bigint % 1000000) / 10000,
           n, w
    FROM (
        SELECT event, date_bin('10 milliseconds', ts, '1970-01-01 00:00:00+00') AS s, count(*) AS n,
               sum(weight) AS w
        FROM samples WHERE capture_id = :id GROUP BY 1, 2
    ) AS slices
"""


def upgrade() -> None:
    op.create_table(
        "sample_slices",
        sa.Column("capture_id", sa.Integer, nullable=False),  # no foreign key: see models/sample_slice.py
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("slice", sa.BigInteger, nullable=False),
        sa.Column("samples", sa.BigInteger, nullable=False),
        sa.Column("weight", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("capture_id", "event", "slice", name="pk_sample_slices"),
    )
    bind = op.get_bind()
    with_samples = bind.execute(sa.text("SELECT id FROM captures WHERE sample_count > 0 ORDER BY id"))
    for (capture_id,) in with_samples.fetchall():
        bind.execute(sa.text(BACKFILL), {"id": capture_id})


def downgrade() -> None:
    op.drop_table("sample_slices")
