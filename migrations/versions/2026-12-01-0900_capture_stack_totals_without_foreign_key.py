"""Per-stack totals lose their foreign key to the capture, as samples and slices did.

Its check per row was most of what writing a capture's totals cost, and it comes at the end of the
parse, where nothing runs beside it: 0.25 of 0.37 s for the 66k totals of the deep-compile capture
(116,528 samples). A purge deletes the rows itself, as it does for samples
(`lifecycle/repository.py`); a parse already replaces them itself.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-01 09:00:00
"""

from __future__ import annotations

from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

FOREIGN_KEY = "fk_capture_stack_totals_capture_id_captures"


def upgrade() -> None:
    op.drop_constraint(FOREIGN_KEY, "capture_stack_totals", type_="foreignkey")


def downgrade() -> None:
    # Rows a purge left behind without the key would stop it from coming back.
    op.execute(
        "DELETE FROM capture_stack_totals t "
        "WHERE NOT EXISTS (SELECT 1 FROM captures c WHERE c.id = t.capture_id)"
    )
    op.create_foreign_key(
        FOREIGN_KEY, "capture_stack_totals", "captures", ["capture_id"], ["id"], ondelete="CASCADE"
    )
