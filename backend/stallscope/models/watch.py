"""Watch mode's tables: signatures people write, the alerts they raise, and where alerts are sent.

A watch stream itself is an incident with `watch_host` set (models/incident.py)."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    Table,
    Text,
    func,
    true,
)
from sqlalchemy.dialects.postgresql import JSONB

from stallscope.models.base import Base

signatures = Table(
    "signatures",
    Base.metadata,
    Column("id", Integer, primary_key=True),
    Column("name", Text, nullable=False, unique=True),
    # A regular expression searched in each frame's name; a stack matches when one frame does.
    Column("pattern", Text, nullable=False),
    # `cpu` (CPU samples), `off-cpu` (time off the CPU, from scheduler events) or `finding` (the
    # pattern names built-in detectors by id).
    Column("source", Text, nullable=False),
    # Off-CPU only: one scheduler state (`D`, `S`, ...); every state when None.
    Column("state", Text),
    # A regular expression the process name must match; every process when None.
    Column("process", Text),
    # Thresholds per watch window; a match needs every one that is set (and some matched weight).
    Column("min_share", Float),
    Column("min_ms", Float),
    # A match within this many seconds of the alert's last one joins it instead of raising a new one.
    Column("cooldown_s", Integer, nullable=False, server_default="1800"),
    Column("enabled", Boolean, nullable=False, server_default=true()),
    Column("description", Text, nullable=False, server_default=""),
    Column("created_by", Integer, ForeignKey("users.id", ondelete="SET NULL")),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    Column("updated_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    CheckConstraint("source IN ('cpu', 'off-cpu', 'finding')", name="source"),
    CheckConstraint("min_share IS NULL OR (min_share >= 0 AND min_share <= 1)", name="min_share"),
    CheckConstraint("min_ms IS NULL OR min_ms >= 0", name="min_ms"),
    CheckConstraint("cooldown_s >= 0", name="cooldown_s"),
)

alerts = Table(
    "alerts",
    Base.metadata,
    Column("id", Integer, primary_key=True),
    Column("signature_id", Integer, ForeignKey("signatures.id", ondelete="CASCADE"), nullable=False),
    Column("host", Text, nullable=False),
    Column("first_capture_id", Integer, ForeignKey("captures.id", ondelete="SET NULL")),
    Column("last_capture_id", Integer, ForeignKey("captures.id", ondelete="SET NULL")),
    # The matching windows' ends: the first that raised the alert and the latest that joined it.
    Column("first_at", DateTime(timezone=True), nullable=False),
    Column("last_at", DateTime(timezone=True), nullable=False),
    Column("matches", Integer, nullable=False, server_default="1"),
    # The latest match's figures: its share of the window and the matched time (ns; CPU: samples' weight).
    Column("share", Float, nullable=False),
    Column("matched_ns", BigInteger, nullable=False),
    # The latest match's heaviest matching stacks and threads (`analysis/signatures.py`).
    Column("evidence", JSONB, nullable=False),
    # The incident opened from this alert, if any.
    Column("incident_id", Integer, ForeignKey("incidents.id", ondelete="SET NULL")),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    Index("ix_alerts_signature_host_last", "signature_id", "host", "last_at"),
)

webhooks = Table(
    "webhooks",
    Base.metadata,
    Column("id", Integer, primary_key=True),
    Column("name", Text, nullable=False, unique=True),
    Column("url", Text, nullable=False),
    # `json` (Stallscope's own), `alertmanager` (its API's alert list) or `slack` (incoming webhook).
    Column("format", Text, nullable=False),
    Column("enabled", Boolean, nullable=False, server_default=true()),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    CheckConstraint("format IN ('json', 'alertmanager', 'slack')", name="format"),
)

alert_deliveries = Table(
    "alert_deliveries",
    Base.metadata,
    Column("alert_id", Integer, ForeignKey("alerts.id", ondelete="CASCADE"), primary_key=True),
    Column("webhook_id", Integer, ForeignKey("webhooks.id", ondelete="CASCADE"), primary_key=True),
    Column("status", Text, nullable=False),
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("last_error", Text, nullable=False, server_default=""),
    Column("sent_at", DateTime(timezone=True)),
    CheckConstraint("status IN ('pending', 'sent', 'failed')", name="status"),
)
