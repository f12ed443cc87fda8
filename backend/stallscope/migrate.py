"""Run the Alembic migrations from code, so `serve`, tests and `stallscope migrate` share one path."""

from __future__ import annotations

import os
from pathlib import Path

from alembic import command
from alembic.config import Config


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
