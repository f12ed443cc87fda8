"""People: accounts, sessions, personal API tokens, scoped collector tokens, incident visibility and
members, guest links for vendors, single sign-on's pending logins, the login throttle and the
append-only audit log.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import ARRAY, JSONB

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

NOW = sa.func.now()


def _at(name: str, nullable: bool = True) -> sa.Column[object]:
    return sa.Column(
        name, sa.DateTime(timezone=True), nullable=nullable, server_default=None if nullable else NOW
    )


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("role", sa.Text, nullable=False),
        sa.Column("password_hash", sa.Text),
        sa.Column("oidc_issuer", sa.Text),
        sa.Column("oidc_subject", sa.Text),
        sa.Column("email", sa.Text),
        _at("created_at", nullable=False),
        _at("password_set_at"),
        _at("last_login_at"),
        _at("disabled_at"),
        sa.CheckConstraint("role IN ('viewer', 'responder', 'admin')", name="role"),
        sa.UniqueConstraint("oidc_issuer", "oidc_subject", name="uq_users_oidc"),
    )
    op.execute("CREATE UNIQUE INDEX uq_users_name ON users (lower(name))")
    op.create_table(
        "guest_links",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "incident_id", sa.Integer, sa.ForeignKey("incidents.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("label", sa.Text, nullable=False, server_default=""),
        sa.Column("digest", sa.LargeBinary, nullable=False, unique=True),
        sa.Column("prefix", sa.Text, nullable=False),
        sa.Column("capture_ids", ARRAY(sa.Integer)),
        sa.Column("views", ARRAY(sa.Text)),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL")),
        _at("created_at", nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        _at("revoked_at"),
        _at("last_used_at"),
        sa.Column("uses", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "user_sessions",
        sa.Column("id", sa.BigInteger, primary_key=True),
        sa.Column("digest", sa.LargeBinary, nullable=False, unique=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE")),
        sa.Column("guest_link_id", sa.Integer, sa.ForeignKey("guest_links.id", ondelete="CASCADE")),
        _at("created_at", nullable=False),
        _at("last_seen_at", nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("(user_id IS NULL) <> (guest_link_id IS NULL)", name="one_holder"),
    )
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("digest", sa.LargeBinary, nullable=False, unique=True),
        sa.Column("prefix", sa.Text, nullable=False),
        _at("created_at", nullable=False),
        _at("last_used_at"),
        _at("expires_at"),
        _at("revoked_at"),
    )
    op.add_column(
        "upload_tokens", sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"))
    )
    op.add_column(
        "upload_tokens",
        sa.Column("incident_id", sa.Integer, sa.ForeignKey("incidents.id", ondelete="CASCADE")),
    )
    op.add_column("upload_tokens", sa.Column("host", sa.Text))
    op.add_column("upload_tokens", sa.Column("expires_at", sa.DateTime(timezone=True)))
    op.add_column("incidents", sa.Column("visibility", sa.Text, nullable=False, server_default="team"))
    op.create_check_constraint("visibility", "incidents", "visibility IN ('team', 'restricted')")
    op.add_column(
        "incidents", sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"))
    )
    op.create_table(
        "incident_members",
        sa.Column(
            "incident_id", sa.Integer, sa.ForeignKey("incidents.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.PrimaryKeyConstraint("incident_id", "user_id"),
    )
    op.create_table(
        "oidc_logins",
        sa.Column("state", sa.Text, primary_key=True),
        sa.Column("nonce", sa.Text, nullable=False),
        sa.Column("code_verifier", sa.Text, nullable=False),
        sa.Column("next", sa.Text, nullable=False),
        _at("created_at", nullable=False),
    )
    op.create_table(
        "login_attempts",
        sa.Column("id", sa.BigInteger, primary_key=True),
        _at("at", nullable=False),
        sa.Column("username", sa.Text, nullable=False),
        sa.Column("address", sa.Text, nullable=False),
        sa.Column("succeeded", sa.Boolean, nullable=False),
    )
    op.create_index("ix_login_attempts_at", "login_attempts", ["at"])
    op.create_table(
        "audit_log",
        sa.Column("id", sa.BigInteger, primary_key=True),
        _at("at", nullable=False),
        sa.Column("actor_kind", sa.Text, nullable=False),
        sa.Column("actor_id", sa.Integer),
        sa.Column("actor_name", sa.Text, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("object_type", sa.Text, nullable=False),
        sa.Column("object_id", sa.Text),
        sa.Column("incident_id", sa.Integer),
        sa.Column("detail", JSONB, nullable=False, server_default="{}"),
        sa.Column("address", sa.Text),
    )
    op.create_index("ix_audit_log_at", "audit_log", ["at"])
    op.create_index("ix_audit_log_incident", "audit_log", ["incident_id"])
    # Append-only: no UPDATE or DELETE, whoever asks; kept even when its incident is deleted (no FK).
    op.execute(
        "CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "RAISE EXCEPTION 'the audit log is append-only'; END $$"
    )
    op.execute(
        "CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log "
        "FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()"
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER audit_log_append_only ON audit_log")
    op.execute("DROP FUNCTION audit_log_append_only()")
    op.drop_table("audit_log")
    op.drop_table("login_attempts")
    op.drop_table("oidc_logins")
    op.drop_table("incident_members")
    op.drop_column("incidents", "created_by")
    op.drop_constraint("visibility", "incidents")
    op.drop_column("incidents", "visibility")
    for column in ("expires_at", "host", "incident_id", "created_by"):
        op.drop_column("upload_tokens", column)
    op.drop_table("api_tokens")
    op.drop_table("user_sessions")
    op.drop_table("guest_links")
    op.drop_table("users")
