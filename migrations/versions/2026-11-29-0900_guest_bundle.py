"""Guest links that may download the incident's bundle (the vendor's copy of what the link shows).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-29 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("guest_links", sa.Column("bundle", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("guest_links", "bundle")
