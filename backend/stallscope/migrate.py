"""Run the Alembic migrations from code, so `serve`, tests and `stallscope migrate` share one path."""

from __future__ import annotations

import os
from pathlib import Path

import psycopg
from alembic import command
from alembic.config import Config

from stallscope.db import raw_connection


def migrations_dir() -> Path:
    """The top-level `migrations/` folder, or wherever STALLSCOPE_MIGRATIONS_DIR points."""
    override = os.environ.get("STALLSCOPE_MIGRATIONS_DIR")
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[2] / "migrations"


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade_to_head(url: str) -> None:
    command.upgrade(alembic_config(url), "head")


def schema_revision(url: str) -> str | None:
    """The revision the database's schema is at; None before the first migration."""
    with raw_connection(url) as conn:
        try:
            row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        except psycopg.errors.UndefinedTable:
            return None
    return None if row is None else str(row[0])
