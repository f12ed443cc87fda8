"""Accounts: create, list, change role, reset a password, disable. Shared by the API and the CLI."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from stallscope.auth import repository
from stallscope.auth.passwords import hash_password
from stallscope.auth.repository import UserRecord
from stallscope.auth.roles import ACCOUNT_ROLES, Role
from stallscope.auth.schemas import UserOut
from stallscope.kit.errors import Invalid, NotFound

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$")


def user_out(row: UserRecord) -> UserOut:
    return UserOut(
        id=row.id,
        name=row.name,
        role=row.role,
        has_password=row.password_hash is not None,
        created_at=row.created_at,
        last_login_at=row.last_login_at,
        disabled_at=row.disabled_at,
        email=row.email,
        sso=row.oidc_issuer is not None,
    )


def account_role(role: str) -> Role:
    if role not in {r.value for r in ACCOUNT_ROLES}:
        raise Invalid(f"role must be one of {', '.join(r.value for r in ACCOUNT_ROLES)}, not {role!r}")
    return Role(role)


def create_user(
    session: Session, name: str, role: str, password: str | None, email: str | None = None
) -> UserOut:
    name = name.strip()
    if not NAME_RE.match(name):
        raise Invalid(f"a user name is 1 to 64 letters, digits, '.', '_', '@' or '-', not {name!r}")
    account_role(role)
    if repository.user_by_name(session, name) is not None:
        raise Invalid(f"user {name!r} already exists")
    hashed = hash_password(password) if password is not None else None
    user_id = repository.insert_user(session, name, role, hashed, email)
    return get_user(session, user_id)


def get_user(session: Session, user_id: int) -> UserOut:
    row = repository.user_by_id(session, user_id)
    if row is None:
        raise NotFound(f"user {user_id} does not exist")
    return user_out(row)


def find_user(session: Session, name: str) -> UserOut:
    row = repository.user_by_name(session, name)
    if row is None:
        raise NotFound(f"no user named {name!r}")
    return user_out(row)


def list_users(session: Session) -> list[UserOut]:
    return [user_out(row) for row in repository.list_users(session)]


def set_password(session: Session, user_id: int, password: str, keep_session: int | None = None) -> UserOut:
    """A new password ends every session of the account but `keep_session` (the one that changed
    it, when people change their own): whoever had the old password is signed out."""
    get_user(session, user_id)
    repository.update_user(
        session, user_id, password_hash=hash_password(password), password_set_at=datetime.now(UTC)
    )
    repository.delete_user_sessions(session, user_id, keep_session)
    return get_user(session, user_id)


def set_role(session: Session, user_id: int, role: str) -> UserOut:
    before = get_user(session, user_id)
    account_role(role)
    if before.role == "admin" and role != "admin":
        _keep_an_admin(session, user_id)
    repository.update_user(session, user_id, role=role)
    return get_user(session, user_id)


def set_disabled(session: Session, user_id: int, disabled: bool) -> UserOut:
    """Disabling ends the account's sessions; its API tokens stop working while it stays disabled."""
    before = get_user(session, user_id)
    if disabled and before.role == "admin" and before.disabled_at is None:
        _keep_an_admin(session, user_id)
    repository.update_user(session, user_id, disabled_at=datetime.now(UTC) if disabled else None)
    if disabled:
        repository.delete_user_sessions(session, user_id)
    return get_user(session, user_id)


def _keep_an_admin(session: Session, leaving: int) -> None:
    others = [
        u for u in list_users(session) if u.role == "admin" and u.disabled_at is None and u.id != leaving
    ]
    if not others:
        raise Invalid("this is the last active admin: make another admin first")
