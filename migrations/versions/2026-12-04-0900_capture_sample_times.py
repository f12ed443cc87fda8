"""Each capture's CPU samples as arrays (time, stack, weight, event), stored beside its call-site tree.

A flame graph or diff of a time range summed the range's samples in the database per request (30 ms
of aggregation a side for 60,000 samples, two sides read at once on two cores); with the samples'
times sorted and kept as arrays, a range is two binary searches and one sum in the API process.
Built after the parse with the tree, for captures of up to `flame/sample_times.py`'s limit; captures
parsed before this revision have none and are read from the database as before.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-04 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("capture_callsite_trees", sa.Column("sample_times", sa.LargeBinary, nullable=True))
    # As the tree's arrays: mostly distinct integers, read whole by a view, so never compressed.
    op.execute("ALTER TABLE capture_callsite_trees ALTER COLUMN sample_times SET STORAGE EXTERNAL")


def downgrade() -> None:
    op.drop_column("capture_callsite_trees", "sample_times")
