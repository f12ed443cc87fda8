"""Create, list, revoke and check upload tokens; only SHA-256 digests of secrets are stored."""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from stallscope.kit.errors import NotFound, Unauthorized
from stallscope.models import UploadToken
from stallscope.tokens import repository
from stallscope.tokens.schemas import TokenCreated, TokenOut

SECRET_PREFIX = "sst_"
SHOWN_PREFIX_CHARS = 8


def digest_of(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def _out(token: UploadToken) -> TokenOut:
    return TokenOut(
        id=token.id,
        name=token.name,
        prefix=token.prefix,
        created_at=token.created_at,
        last_used_at=token.last_used_at,
        revoked_at=token.revoked_at,
    )


def create_token(session: Session, name: str) -> TokenCreated:
    secret = SECRET_PREFIX + secrets.token_urlsafe(32)
    prefix = secret[: len(SECRET_PREFIX) + SHOWN_PREFIX_CHARS]
    token = repository.add(session, UploadToken(name=name.strip(), digest=digest_of(secret), prefix=prefix))
    return TokenCreated(**_out(token).model_dump(), secret=secret)


def list_tokens(session: Session) -> list[TokenOut]:
    return [_out(t) for t in repository.list_all(session)]


def revoke_token(session: Session, token_id: int) -> TokenOut:
    token = repository.get(session, token_id)
    if token is None:
        raise NotFound(f"token {token_id} does not exist")
    if token.revoked_at is None:
        token.revoked_at = datetime.now(UTC)
        session.flush()
    return _out(token)


def check_secret(session: Session, authorization: str | None) -> UploadToken:
    """The token behind an `Authorization: Bearer …` header, or Unauthorized saying what is wrong."""
    if not authorization:
        raise Unauthorized(
            "an upload token is required: send 'Authorization: Bearer <token>' "
            "(create one with `stallscope token create` or on the Tokens page)"
        )
    scheme, _, secret = authorization.partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        raise Unauthorized("the Authorization header must be 'Bearer <token>'")
    token = repository.by_digest(session, digest_of(secret.strip()))
    if token is None:
        raise Unauthorized("unknown upload token")
    if token.revoked_at is not None:
        raise Unauthorized(f"upload token '{token.name}' ({token.prefix}…) was revoked")
    token.last_used_at = datetime.now(UTC)
    session.flush()
    return token
