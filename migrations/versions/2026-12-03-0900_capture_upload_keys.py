"""Uploads that count once: the key a collector sends with every try of one upload.

A collector that times out waiting for the answer cannot tell whether its upload was taken, so it
sends it again with the same `Idempotency-Key`; the unique index makes the second one find the
capture the first made instead of adding another.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-03 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("captures", sa.Column("upload_key", sa.Text(), nullable=True))
    op.create_index(
        "uq_captures_upload_key",
        "captures",
        ["incident_id", "upload_key"],
        unique=True,
        postgresql_where=sa.text("upload_key IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("uq_captures_upload_key", table_name="captures")
    op.drop_column("captures", "upload_key")
