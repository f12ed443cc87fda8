"""SQL for people: accounts, sessions, personal tokens, guest links, the login throttle."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Row, text
from sqlalchemy.orm import Session


class UserRecord(NamedTuple):
    id: int
    name: str
    role: str
    password_hash: str | None
    created_at: datetime
    last_login_at: datetime | None
    disabled_at: datetime | None
    email: str | None
    oidc_issuer: str | None


USER_COLUMNS = ", ".join(UserRecord._fields)


def _user(row: Row[Any] | None) -> UserRecord | None:
    return None if row is None else UserRecord._make(row)


def user_by_name(session: Session, name: str) -> UserRecord | None:
    return _user(
        session.execute(
            text(f"SELECT {USER_COLUMNS} FROM users WHERE lower(name) = lower(:name)"), {"name": name}
        ).first()
    )


def user_by_id(session: Session, user_id: int) -> UserRecord | None:
    return _user(
        session.execute(text(f"SELECT {USER_COLUMNS} FROM users WHERE id = :id"), {"id": user_id}).first()
    )


def list_users(session: Session) -> list[UserRecord]:
    return [
        UserRecord(*row)
        for row in session.execute(text(f"SELECT {USER_COLUMNS} FROM users ORDER BY lower(name)"))
    ]


def count_users(session: Session) -> int:
    return int(session.execute(text("SELECT count(*) FROM users")).scalar_one())


def insert_user(
    session: Session, name: str, role: str, password_hash: str | None, email: str | None = None
) -> int:
    return int(
        session.execute(
            text(
                "INSERT INTO users (name, role, password_hash, email, password_set_at) "
                "VALUES (:name, :role, CAST(:hash AS text), :email, "
                "CASE WHEN CAST(:hash AS text) IS NULL THEN NULL ELSE now() END) RETURNING id"
            ),
            {"name": name, "role": role, "hash": password_hash, "email": email},
        ).scalar_one()
    )


def update_user(session: Session, user_id: int, **values: Any) -> None:
    allowed = {"role", "password_hash", "password_set_at", "disabled_at", "last_login_at", "email"}
    unknown = set(values) - allowed
    assert not unknown, unknown
    assignments = ", ".join(f"{column} = :{column}" for column in values)
    session.execute(text(f"UPDATE users SET {assignments} WHERE id = :id"), {"id": user_id, **values})


def insert_session(
    session: Session, digest: bytes, expires_at: datetime, user_id: int | None, guest_link_id: int | None
) -> int:
    return int(
        session.execute(
            text(
                "INSERT INTO user_sessions (digest, user_id, guest_link_id, expires_at) "
                "VALUES (:digest, :user, :guest, :expires) RETURNING id"
            ),
            {"digest": digest, "user": user_id, "guest": guest_link_id, "expires": expires_at},
        ).scalar_one()
    )


def session_by_digest(session: Session, digest: bytes) -> Row[Any] | None:
    """The session with its holder: (id, last_seen_at, expires_at, user id, name, role, disabled_at,
    guest link id, label, incident, captures, views, link expiry, link revoked, bundle allowed)."""
    return session.execute(
        text(
            "SELECT s.id, s.last_seen_at, s.expires_at, u.id, u.name, u.role, u.disabled_at, "
            "g.id, g.label, g.incident_id, g.capture_ids, g.views, g.expires_at, g.revoked_at, g.bundle "
            "FROM user_sessions s LEFT JOIN users u ON u.id = s.user_id "
            "LEFT JOIN guest_links g ON g.id = s.guest_link_id WHERE s.digest = :digest"
        ),
        {"digest": digest},
    ).first()


def touch_session(session: Session, session_id: int, at: datetime) -> None:
    session.execute(
        text("UPDATE user_sessions SET last_seen_at = :at WHERE id = :id"), {"id": session_id, "at": at}
    )


def delete_session(session: Session, digest: bytes) -> None:
    session.execute(text("DELETE FROM user_sessions WHERE digest = :digest"), {"digest": digest})


def delete_user_sessions(session: Session, user_id: int, keep: int | None = None) -> None:
    session.execute(
        text("DELETE FROM user_sessions WHERE user_id = :id AND id IS DISTINCT FROM :keep"),
        {"id": user_id, "keep": keep},
    )


def delete_expired_sessions(session: Session, now: datetime) -> int:
    result = session.execute(text("DELETE FROM user_sessions WHERE expires_at < :now"), {"now": now})
    return int(result.rowcount or 0)  # type: ignore[attr-defined]


def api_token_by_digest(session: Session, digest: bytes) -> Row[Any] | None:
    """(token id, name, prefix, expires, revoked, user id, user name, role, disabled, last used)."""
    return session.execute(
        text(
            "SELECT t.id, t.name, t.prefix, t.expires_at, t.revoked_at, u.id, u.name, u.role, u.disabled_at, "
            "t.last_used_at FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.digest = :digest"
        ),
        {"digest": digest},
    ).first()


def touch_api_token(session: Session, token_id: int, at: datetime) -> None:
    session.execute(
        text("UPDATE api_tokens SET last_used_at = :at WHERE id = :id"), {"id": token_id, "at": at}
    )


def record_attempt(session: Session, username: str, address: str, succeeded: bool) -> None:
    session.execute(
        text("INSERT INTO login_attempts (username, address, succeeded) VALUES (:u, :a, :ok)"),
        {"u": username.lower(), "a": address, "ok": succeeded},
    )


def recent_failures(session: Session, username: str, address: str, since: datetime) -> tuple[int, int]:
    """Failed logins since `since`: (for this name from anywhere, from this address for any name)."""
    row = session.execute(
        text(
            "SELECT count(*) FILTER (WHERE username = :u), count(*) FILTER (WHERE address = :a) "
            "FROM login_attempts WHERE at >= :since AND NOT succeeded"
        ),
        {"u": username.lower(), "a": address, "since": since},
    ).one()
    return int(row[0]), int(row[1])


def forget_attempts_before(session: Session, before: datetime) -> None:
    session.execute(text("DELETE FROM login_attempts WHERE at < :before"), {"before": before})
