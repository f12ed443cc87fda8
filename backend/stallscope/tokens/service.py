"""Create, list, revoke and check collector (upload-only) tokens; only SHA-256 digests of secrets are
stored. A token can be limited to one incident or one host, and can expire."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from stallscope.auth.secrets import digest_of, new_secret, shown_prefix
from stallscope.kit.errors import Invalid, NotFound, Unauthorized
from stallscope.models import UploadToken
from stallscope.tokens import repository
from stallscope.tokens.schemas import TokenCreate, TokenCreated, TokenOut

COLLECTOR_PREFIX = "sst_"
LAST_USED_EVERY = timedelta(minutes=1)


def _out(token: UploadToken) -> TokenOut:
    return TokenOut(
        id=token.id,
        name=token.name,
        prefix=token.prefix,
        created_at=token.created_at,
        last_used_at=token.last_used_at,
        revoked_at=token.revoked_at,
        incident_id=token.incident_id,
        host=token.host,
        expires_at=token.expires_at,
        created_by=token.created_by,
    )


def create_token(session: Session, data: TokenCreate, created_by: int | None = None) -> TokenCreated:
    if data.expires_at is not None and data.expires_at <= datetime.now(UTC):
        raise Invalid("the token would expire before it is used: give a time in the future")
    secret = new_secret(COLLECTOR_PREFIX)
    token = repository.add(
        session,
        UploadToken(
            name=data.name.strip(),
            digest=digest_of(secret),
            prefix=shown_prefix(secret, COLLECTOR_PREFIX),
            incident_id=data.incident_id,
            host=data.host.strip() if data.host else None,
            expires_at=data.expires_at,
            created_by=created_by,
        ),
    )
    return TokenCreated(**_out(token).model_dump(), secret=secret)


def list_tokens(session: Session) -> list[TokenOut]:
    return [_out(t) for t in repository.list_all(session)]


def get_token(session: Session, token_id: int) -> TokenOut:
    token = repository.get(session, token_id)
    if token is None:
        raise NotFound(f"token {token_id} does not exist")
    return _out(token)


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
    now = datetime.now(UTC)
    if token.expires_at is not None and token.expires_at <= now:
        raise Unauthorized(
            f"upload token '{token.name}' ({token.prefix}…) expired on {token.expires_at:%Y-%m-%d}"
        )
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
        token.last_used_at = now  # once a minute at most: a collector uploading in a loop writes little
        session.flush()
    return token
