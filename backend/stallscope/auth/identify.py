"""From a request's credentials to a principal: a session cookie, or a bearer token (a person's API
token or a collector's upload token). Every refusal says what was wrong, never who exists."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from stallscope.auth import repository
from stallscope.auth.principal import Principal
from stallscope.auth.roles import Role
from stallscope.auth.secrets import digest_of
from stallscope.kit.errors import Unauthorized
from stallscope.tokens.service import COLLECTOR_PREFIX, check_secret

IDLE_TIMEOUT = timedelta(hours=24)
"""A session nobody used for this long is over: a laptop left logged in does not stay a way in."""
TOUCH_EVERY = timedelta(minutes=1)
"""How stale a session's `last_seen_at` or a token's `last_used_at` may get before a request writes
it: one write a minute, not one per request."""

SIGN_IN = "sign in (POST /api/auth/login) or send 'Authorization: Bearer <token>'"


def from_session_cookie(session: Session, secret: str, now: datetime | None = None) -> Principal:
    now = now or datetime.now(UTC)
    row = repository.session_by_digest(session, digest_of(secret))
    if row is None:
        raise Unauthorized(f"the session is over or unknown: {SIGN_IN}")
    values: tuple[Any, ...] = tuple(row)
    session_id, last_seen, expires, user_id, name, role, disabled = values[:7]
    link_id, label, incident_id, capture_ids, views, link_expires, link_revoked, bundle = values[7:]
    if expires <= now or last_seen + IDLE_TIMEOUT <= now:
        raise Unauthorized(f"the session has expired: {SIGN_IN}")
    if user_id is not None and disabled is not None:
        raise Unauthorized("this account is disabled: ask an admin")
    if link_id is not None and link_revoked is not None:
        raise Unauthorized("this guest link was revoked: ask whoever sent it for a new one")
    if link_id is not None and link_expires <= now:
        raise Unauthorized("this guest link has expired: ask whoever sent it for a new one")
    if now - last_seen >= TOUCH_EVERY:
        repository.touch_session(session, session_id, now)
        session.commit()
    if link_id is not None:
        return Principal(
            role=Role.GUEST,
            name=label or f"guest link #{link_id}",
            via="guest",
            incident_id=incident_id,
            capture_ids=tuple(capture_ids) if capture_ids is not None else None,
            views=tuple(views) if views is not None else None,
            credential_id=link_id,
            expires_at=link_expires,
            bundle=bool(bundle),
        )
    return Principal(role=Role(role), name=name, via="session", user_id=user_id, credential_id=session_id)


def from_bearer(session: Session, secret: str, now: datetime | None = None) -> Principal:
    now = now or datetime.now(UTC)
    if secret.startswith(COLLECTOR_PREFIX):
        upload = check_secret(session, f"Bearer {secret}")
        session.commit()
        return Principal(
            role=Role.COLLECTOR,
            name=upload.name,
            via="collector",
            incident_id=upload.incident_id,
            host=upload.host,
            credential_id=upload.id,
        )
    row = repository.api_token_by_digest(session, digest_of(secret))
    if row is None:
        raise Unauthorized("unknown API token")
    token: tuple[Any, ...] = tuple(row)
    token_id, token_name, prefix, expires, revoked, user_id, user_name, role, disabled, last_used = token
    if revoked is not None:
        raise Unauthorized(f"API token '{token_name}' ({prefix}…) was revoked")
    if expires is not None and expires <= now:
        raise Unauthorized(f"API token '{token_name}' ({prefix}…) expired on {expires:%Y-%m-%d}")
    if disabled is not None:
        raise Unauthorized("the account this token belongs to is disabled")
    if last_used is None or now - last_used >= TOUCH_EVERY:
        repository.touch_api_token(session, token_id, now)
        session.commit()
    return Principal(role=Role(role), name=user_name, via="token", user_id=user_id, credential_id=token_id)
