"""Engine and session factory; the one place that knows how URLs map to the psycopg 3 driver."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

import psycopg
from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker


def sqlalchemy_url(url: str) -> str:
    """Use psycopg 3 whatever driver the user's URL names (or omits)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "postgresql":
        raise ValueError(f"Stallscope needs PostgreSQL, got {parsed.get_backend_name()!r}")
    return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)


def libpq_url(url: str) -> str:
    """The same database as a plain libpq URL, for psycopg's own connections (COPY)."""
    parsed = make_url(url)
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


_engines: list[Engine] = []


@lru_cache(maxsize=4)
def get_engine(url: str) -> Engine:
    engine = create_engine(sqlalchemy_url(url), pool_pre_ping=True, pool_size=5, max_overflow=5)
    _engines.append(engine)
    return engine


def dispose_engines() -> None:
    """Close every pooled connection this process opened, as the interpreter's teardown would: for
    a process about to leave without it (`fast_exit`), so the server sees clean goodbyes."""
    for engine in _engines:
        engine.dispose()


@lru_cache(maxsize=4)
def get_session_factory(url: str) -> sessionmaker[Session]:
    return sessionmaker(get_engine(url), expire_on_commit=False)


@contextmanager
def raw_connection(url: str, *, autocommit: bool = False) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
    """A psycopg connection for bulk work (COPY) that SQLAlchemy would only slow down."""
    with psycopg.connect(libpq_url(url), autocommit=autocommit) as conn:
        yield conn


def session_connection(session: Session) -> psycopg.Connection[tuple[Any, ...]]:
    """The session's own psycopg connection, inside its transaction: for what SQLAlchemy's text
    queries cannot ask for (binary results, server-side cursors, COPY)."""
    driver = session.connection().connection.driver_connection
    assert isinstance(driver, psycopg.Connection)
    return driver
