"""People and what they may do: accounts, sessions, personal API tokens, incident members, guest
links, the login throttle and the audit log (append-only: a trigger refuses UPDATE and DELETE)."""

from __future__ import annotations

from sqlalchemy import (
    ARRAY,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB

from stallscope.models.base import Base

users = Table(
    "users",
    Base.metadata,
    Column("id", Integer, primary_key=True),
    # Unique without regard to case (an index on lower(name)).
    Column("name", Text, nullable=False),
    Column("role", Text, nullable=False),
    # argon2id; null for accounts that only sign in through the identity provider.
    Column("password_hash", Text),
    Column("oidc_issuer", Text),
    Column("oidc_subject", Text),
    Column("email", Text),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("password_set_at", DateTime(timezone=True)),
    Column("last_login_at", DateTime(timezone=True)),
    Column("disabled_at", DateTime(timezone=True)),
    CheckConstraint("role IN ('viewer', 'responder', 'admin')", name="role"),
    UniqueConstraint("oidc_issuer", "oidc_subject", name="uq_users_oidc"),
)

guest_links = Table(
    "guest_links",
    Base.metadata,
    Column("id", Integer, primary_key=True),
    Column("incident_id", Integer, ForeignKey("incidents.id", ondelete="CASCADE"), nullable=False),
    Column("label", Text, nullable=False),
    Column("digest", LargeBinary, nullable=False, unique=True),
    Column("prefix", Text, nullable=False),
    # Null: every capture (every view) of the incident.
    Column("capture_ids", ARRAY(Integer)),
    Column("views", ARRAY(Text)),
    Column("created_by", Integer, ForeignKey("users.id", ondelete="SET NULL")),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("revoked_at", DateTime(timezone=True)),
    Column("last_used_at", DateTime(timezone=True)),
    Column("uses", Integer, nullable=False),
)

user_sessions = Table(
    "user_sessions",
    Base.metadata,
    Column("id", BigInteger, primary_key=True),
    # SHA-256 of the cookie's secret: a stolen table holds no usable session.
    Column("digest", LargeBinary, nullable=False, unique=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE")),
    Column("guest_link_id", Integer, ForeignKey("guest_links.id", ondelete="CASCADE")),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_seen_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    CheckConstraint("(user_id IS NULL) <> (guest_link_id IS NULL)", name="one_holder"),
)

api_tokens = Table(
    "api_tokens",
    Base.metadata,
    Column("id", Integer, primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("name", Text, nullable=False),
    Column("digest", LargeBinary, nullable=False, unique=True),
    Column("prefix", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_used_at", DateTime(timezone=True)),
    Column("expires_at", DateTime(timezone=True)),
    Column("revoked_at", DateTime(timezone=True)),
)

incident_members = Table(
    "incident_members",
    Base.metadata,
    Column("incident_id", Integer, ForeignKey("incidents.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
)

oidc_logins = Table(
    "oidc_logins",
    Base.metadata,
    # A sign-on between the redirect to the provider and its callback (kept ten minutes at most).
    Column("state", Text, primary_key=True),
    Column("nonce", Text, nullable=False),
    Column("code_verifier", Text, nullable=False),
    Column("next", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

login_attempts = Table(
    "login_attempts",
    Base.metadata,
    Column("id", BigInteger, primary_key=True),
    Column("at", DateTime(timezone=True), nullable=False, index=True),
    Column("username", Text, nullable=False),
    Column("address", Text, nullable=False),
    Column("succeeded", Boolean, nullable=False),
)

audit_log = Table(
    "audit_log",
    Base.metadata,
    Column("id", BigInteger, primary_key=True),
    Column("at", DateTime(timezone=True), nullable=False, index=True),
    Column("actor_kind", Text, nullable=False),
    Column("actor_id", Integer),
    Column("actor_name", Text, nullable=False),
    Column("action", Text, nullable=False),
    Column("object_type", Text, nullable=False),
    Column("object_id", Text),
    # No foreign key: the entry outlives the incident it tells about.
    Column("incident_id", Integer, index=True),
    Column("detail", JSONB, nullable=False),
    Column("address", Text),
)
