"""The API as the benchmarks call it: signed in as an admin with a personal token made straight in
the database the benchmark uses (the console answers 401 to anyone else)."""

from __future__ import annotations


def admin_headers(database_url: str) -> dict[str, str]:
    from stallscope.auth import api_tokens, repository, users
    from stallscope.auth.schemas import ApiTokenCreate
    from stallscope.db import get_session_factory

    with get_session_factory(database_url)() as session:
        user = repository.user_by_name(session, "bench")
        user_id = user.id if user else users.create_user(session, "bench", "admin", None).id
        token = api_tokens.create(session, user_id, ApiTokenCreate(name="bench", expires_in_days=1))
        session.commit()
    return {"Authorization": f"Bearer {token.secret}"}
