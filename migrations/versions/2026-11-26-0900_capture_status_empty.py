"""The `empty` capture status: an upload of no bytes, or only blank lines, parses to nothing, and that
is not a failure.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26 09:00:00
"""

from __future__ import annotations

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

WITH_EMPTY = "status IN ('queued', 'parsing', 'ready', 'partial', 'empty', 'failed')"
WITHOUT_EMPTY = "status IN ('queued', 'parsing', 'ready', 'partial', 'failed')"


def upgrade() -> None:
    op.drop_constraint("status", "captures", type_="check")
    op.create_check_constraint("status", "captures", WITH_EMPTY)


def downgrade() -> None:
    # An empty capture was a failed one before this revision, with the reason it has always had.
    op.execute("UPDATE captures SET status = 'failed', error = 'the file is empty' WHERE status = 'empty'")
    op.drop_constraint("status", "captures", type_="check")
    op.create_check_constraint("status", "captures", WITHOUT_EMPTY)
