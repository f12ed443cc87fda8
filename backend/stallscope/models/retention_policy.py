"""The retention policy: one row, what the periodic retention task trashes and when the trash empties."""

from __future__ import annotations

from sqlalchemy import CheckConstraint, Column, DateTime, Integer, Table, func

from stallscope.models.base import Base

retention_policy = Table(
    "retention_policy",
    Base.metadata,
    Column("id", Integer, primary_key=True),
    # Captures of incidents resolved more than this many days ago go to the trash (None: never).
    Column("resolved_after_days", Integer),
    # Failed uploads older than this many days go to the trash (None: never).
    Column("failed_after_days", Integer, server_default="30"),
    # What has been in the trash this long is purged for good.
    # Watch-stream captures older than this many days go to the trash (None: never).
    Column("watch_days", Integer, server_default="7"),
    Column("trash_days", Integer, nullable=False, server_default="7"),
    Column("updated_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    CheckConstraint("id = 1", name="one_row"),
    CheckConstraint("resolved_after_days IS NULL OR resolved_after_days >= 0", name="resolved_days"),
    CheckConstraint("failed_after_days IS NULL OR failed_after_days >= 0", name="failed_days"),
    CheckConstraint("trash_days >= 0", name="trash_days"),
    CheckConstraint("watch_days IS NULL OR watch_days >= 0", name="watch_days"),
)
