"""The console's database for the commands that work on it directly (`user`, `token`), no server needed."""

from __future__ import annotations

import os
from pathlib import Path

from stallscope.config import get_settings
from stallscope.console import ensure_database
from stallscope.migrate import upgrade_to_head


def console_database(data_dir: Path | None) -> str:
    """DATABASE_URL, or the embedded PostgreSQL under `data_dir` (else STALLSCOPE_DATA_DIR), started
    if it is not running; either way at the latest schema, so a command run before the first
    `serve` (or after an upgrade) finds its tables."""
    if data_dir:
        os.environ["STALLSCOPE_DATA_DIR"] = str(data_dir)
        get_settings.cache_clear()
    settings = ensure_database(get_settings())
    assert settings.database_url is not None
    upgrade_to_head(settings.database_url)
    return settings.database_url
