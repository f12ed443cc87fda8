"""`stallscope token …`: manage upload tokens straight in the console's database (no server needed)."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime, timedelta

from stallscope.commands.database import console_database
from stallscope.db import get_session_factory
from stallscope.tokens import service
from stallscope.tokens.schemas import TokenCreate


def run_token(args: argparse.Namespace) -> int:
    with get_session_factory(console_database(getattr(args, "data_dir", None)))() as session:
        if args.token_command == "create":
            expires = datetime.now(UTC) + timedelta(days=args.expires_in) if args.expires_in else None
            data = TokenCreate(name=args.name, incident_id=args.incident, host=args.host, expires_at=expires)
            created = service.create_token(session, data)
            session.commit()
            print(f"token {created.id} '{created.name}' created. Its secret, shown only now:\n")
            print(f"  {created.secret}\n")
            print("On the hosts:  export STALLSCOPE_TOKEN=<secret>")
        elif args.token_command == "list":
            tokens = service.list_tokens(session)
            if not tokens:
                print("no tokens yet: `stallscope token create --name NAME`")
            for token in tokens:
                state = f"revoked {token.revoked_at:%Y-%m-%d %H:%M}" if token.revoked_at else "active"
                used = (
                    f"last used {token.last_used_at:%Y-%m-%d %H:%M}" if token.last_used_at else "never used"
                )
                print(f"{token.id:4}  {token.prefix}…  {token.name:30}  {state}, {used}")
        else:
            revoked = service.revoke_token(session, args.id)
            session.commit()
            print(f"token {revoked.id} '{revoked.name}' revoked")
    return 0
