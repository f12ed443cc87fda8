"""`stallscope user …`: people's accounts, straight in the database (the embedded one under
`--data-dir`, or `DATABASE_URL`), so an admin locked out of the web console can always get back in."""

from __future__ import annotations

import argparse
import getpass
import os
import sys

from sqlalchemy.orm import Session

from stallscope.auth import api_tokens, audit, users
from stallscope.auth.schemas import ApiTokenCreate, UserOut
from stallscope.commands.database import console_database
from stallscope.db import get_session_factory
from stallscope.kit.errors import ServiceError

PASSWORD_VARIABLE = "STALLSCOPE_PASSWORD"


def _password() -> str:
    """From STALLSCOPE_PASSWORD, else asked twice on the terminal (never an argument: those show in
    `ps` and shell history)."""
    given = os.environ.get(PASSWORD_VARIABLE)
    if given:
        return given
    if not sys.stdin.isatty():
        raise ServiceError(f"no terminal to ask for the password: set {PASSWORD_VARIABLE}")
    first = getpass.getpass("password: ")
    if getpass.getpass("again: ") != first:
        raise ServiceError("the two passwords differ")
    return first


def _line(user: UserOut) -> str:
    state = f"disabled {user.disabled_at:%Y-%m-%d}" if user.disabled_at else "active"
    seen = f"last sign-in {user.last_login_at:%Y-%m-%d %H:%M}" if user.last_login_at else "never signed in"
    login = ("password" if user.has_password else "") + (" + SSO" if user.sso else "")
    return f"{user.id:4}  {user.name:24} {user.role:10} {state:20} {seen:34} {login.strip(' +')}"


def run_user(args: argparse.Namespace) -> int:
    url = console_database(getattr(args, "data_dir", None))
    try:
        with get_session_factory(url)() as session:
            _run(session, args)
            session.commit()
    except ServiceError as exc:
        print(f"stallscope user: {exc}", file=sys.stderr)
        return 2
    return 0


def _run(session: Session, args: argparse.Namespace) -> None:
    command = args.user_command
    if command == "list":
        everyone = users.list_users(session)
        if not everyone:
            print("no accounts yet: `stallscope user create NAME --role admin`")
        for user in everyone:
            print(_line(user))
        return
    if command == "create":
        created = users.create_user(session, args.name, args.role, _password(), args.email)
        audit.record(session, None, "create", "user", created.id, detail={"name": created.name, "via": "cli"})
        print(f"user {created.name} ({created.role}) created")
        return
    user = users.find_user(session, args.name)
    if command == "reset":
        users.set_password(session, user.id, _password())
        audit.record(session, None, "change", "user", user.id, detail={"password": "reset", "via": "cli"})
        print(f"password of {user.name} set; their sessions are signed out")
    elif command in ("disable", "enable"):
        users.set_disabled(session, user.id, command == "disable")
        audit.record(
            session, None, "change", "user", user.id, detail={"disabled": command == "disable", "via": "cli"}
        )
        print(f"{user.name} {command}d")
    elif command == "role":
        users.set_role(session, user.id, args.role)
        audit.record(session, None, "change", "user", user.id, detail={"role": args.role, "via": "cli"})
        print(f"{user.name} is now {args.role}")
    elif command == "token":
        token = api_tokens.create(
            session, user.id, ApiTokenCreate(name=args.label, expires_in_days=args.expires_in)
        )
        audit.record(session, None, "create", "api-token", token.id, detail={"user": user.name, "via": "cli"})
        print(f"API token {token.id} for {user.name} ({user.role}); its secret, shown only now:\n")
        print(f"  {token.secret}\n")
        print("For the CLI and scripts:  export STALLSCOPE_TOKEN=<secret>")
