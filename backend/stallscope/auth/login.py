"""Signing in with a name and password, throttled; signing out.

The throttle counts failures in the database, so it holds across API processes and restarts: five
failures for one name (from anywhere) or twenty from one address (for any names) within fifteen
minutes, and that name or address waits until the oldest failure leaves the window. A correct
password does not get through a closed window: otherwise the throttle would only slow guessing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from stallscope.auth import audit, repository
from stallscope.auth.passwords import verify
from stallscope.auth.principal import Principal
from stallscope.auth.roles import Role
from stallscope.auth.secrets import digest_of, new_secret
from stallscope.kit.errors import TooManyRequests, Unauthorized

WINDOW = timedelta(minutes=15)
MAX_FAILURES_PER_NAME = 5
MAX_FAILURES_PER_ADDRESS = 20
SESSION_LIFETIME = timedelta(days=14)
"""However active, a session ends after this: sign in again every two weeks."""
SESSION_PREFIX = "sss_"
WRONG = "wrong user name or password"


@dataclass(frozen=True, slots=True)
class NewSession:
    secret: str
    expires_at: datetime
    principal: Principal


def start_session(session: Session, principal: Principal, now: datetime | None = None) -> NewSession:
    """A session for a person (or, with `guest_link_id`, a guest); the secret goes in the cookie."""
    now = now or datetime.now(UTC)
    secret = new_secret(SESSION_PREFIX)
    expires = now + SESSION_LIFETIME
    if principal.role is Role.GUEST:
        assert principal.credential_id is not None
        session_id = repository.insert_session(
            session, digest_of(secret), expires, None, principal.credential_id
        )
    else:
        assert principal.user_id is not None
        session_id = repository.insert_session(session, digest_of(secret), expires, principal.user_id, None)
        repository.update_user(session, principal.user_id, last_login_at=now)
    return NewSession(secret, expires, principal_with_session(principal, session_id))


def principal_with_session(principal: Principal, session_id: int) -> Principal:
    if principal.role is Role.GUEST:
        return principal
    return Principal(
        role=principal.role,
        name=principal.name,
        via="session",
        user_id=principal.user_id,
        credential_id=session_id,
    )


def log_in(session: Session, username: str, password: str, address: str) -> NewSession:
    now = datetime.now(UTC)
    repository.forget_attempts_before(session, now - WINDOW)
    by_name, by_address = repository.recent_failures(session, username, address, now - WINDOW)
    if by_name >= MAX_FAILURES_PER_NAME or by_address >= MAX_FAILURES_PER_ADDRESS:
        session.commit()
        raise TooManyRequests(
            f"too many failed sign-ins: wait {int(WINDOW.total_seconds() // 60)} minutes and try again",
            retry_after_s=int(WINDOW.total_seconds()),
        )
    row = repository.user_by_name(session, username)
    ok = verify(row.password_hash if row is not None else None, password)
    if row is None or not ok or row.disabled_at is not None:
        repository.record_attempt(session, username, address, succeeded=False)
        session.commit()
        if row is not None and ok and row.disabled_at is not None:
            raise Unauthorized("this account is disabled: ask an admin")
        raise Unauthorized(WRONG)
    repository.record_attempt(session, username, address, succeeded=True)
    principal = Principal(role=Role(row.role), name=row.name, via="session", user_id=row.id)
    started = start_session(session, principal, now)
    audit.record(session, started.principal, "login", "user", row.id, address=address)
    return started


def log_out(session: Session, secret: str) -> None:
    repository.delete_session(session, digest_of(secret))
