"""Alembic environment: the URL comes from `stallscope migrate` (or its programmatic twin)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from stallscope.db import sqlalchemy_url
from stallscope.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_online() -> None:
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no database URL given to the migrations")
    engine = create_engine(sqlalchemy_url(url))
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run_migrations_online()
