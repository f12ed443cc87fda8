"""Personal API tokens: a person's role for the CLI and scripts (`STALLSCOPE_TOKEN`), expiring and
revocable; only SHA-256 digests of secrets are stored."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.auth.schemas import ApiTokenCreate, ApiTokenCreated, ApiTokenOut
from stallscope.auth.secrets import digest_of, new_secret, shown_prefix
from stallscope.kit.errors import NotFound

API_TOKEN_PREFIX = "ssp_"
COLUMNS = "id, name, prefix, created_at, last_used_at, expires_at, revoked_at"


def _out(row: Any) -> ApiTokenOut:
    keys = ("id", "name", "prefix", "created_at", "last_used_at", "expires_at", "revoked_at")
    return ApiTokenOut(**dict(zip(keys, row, strict=True)))


def create(session: Session, user_id: int, data: ApiTokenCreate) -> ApiTokenCreated:
    secret = new_secret(API_TOKEN_PREFIX)
    expires = datetime.now(UTC) + timedelta(days=data.expires_in_days) if data.expires_in_days else None
    row = session.execute(
        text(
            "INSERT INTO api_tokens (user_id, name, digest, prefix, expires_at) "
            f"VALUES (:user, :name, :digest, :prefix, :expires) RETURNING {COLUMNS}"
        ),
        {
            "user": user_id,
            "name": data.name.strip(),
            "digest": digest_of(secret),
            "prefix": shown_prefix(secret, API_TOKEN_PREFIX),
            "expires": expires,
        },
    ).one()
    return ApiTokenCreated(**_out(row).model_dump(), secret=secret)


def list_for(session: Session, user_id: int) -> list[ApiTokenOut]:
    rows = session.execute(
        text(f"SELECT {COLUMNS} FROM api_tokens WHERE user_id = :user ORDER BY id"), {"user": user_id}
    )
    return [_out(row) for row in rows]


def revoke(session: Session, user_id: int, token_id: int) -> ApiTokenOut:
    row = session.execute(
        text(
            "UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()) "
            f"WHERE id = :id AND user_id = :user RETURNING {COLUMNS}"
        ),
        {"id": token_id, "user": user_id},
    ).first()
    if row is None:
        raise NotFound(f"you have no API token {token_id}")
    return _out(row)
