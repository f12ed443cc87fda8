"""The first start of a fresh console: an admin account, its password printed once.

A console with no account would lock everyone out, and one with a fixed default password would let
everyone in; so the first start makes `admin` with a random password and prints it on the console's
output, once (later starts find the account and print nothing). `STALLSCOPE_ADMIN_PASSWORD` sets
the password instead, for automated installs; it is then not printed.
"""

from __future__ import annotations

import secrets

from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.auth import audit, repository, users

ADMIN_NAME = "admin"


def ensure_first_admin(session: Session, password: str | None) -> str | None:
    """Create the first admin when there is no account; returns the password to print (None when
    nothing was created or the password was given). Two consoles starting at once on one database
    take turns (an advisory lock), so only one admin is made."""
    session.execute(text("SELECT pg_advisory_xact_lock(hashtext('stallscope first admin'))"))
    if repository.count_users(session) > 0:
        return None
    chosen = password or secrets.token_urlsafe(15)
    created = users.create_user(session, ADMIN_NAME, "admin", chosen)
    audit.record(
        session, None, "create", "user", created.id, detail={"name": ADMIN_NAME, "first_start": True}
    )
    return None if password else chosen


def banner(url: str, password: str) -> str:
    return (
        "\n" + "=" * 72 + "\n"
        "  First start: an admin account was made. Sign in at " + url + "\n"
        f"    user:     {ADMIN_NAME}\n"
        f"    password: {password}\n"
        "  It is shown only now. Change it under Account once signed in, and add people\n"
        "  with `stallscope user create NAME --role responder` or on the People page.\n" + "=" * 72 + "\n"
    )
