"""Settings from the environment, with defaults that start a working console on one machine."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

GIB = 1 << 30


def default_data_dir() -> Path:
    return Path.home() / ".local" / "share" / "stallscope"


class Settings(BaseSettings):
    """Everything configurable; `DATABASE_URL` and `CELERY_BROKER_URL` switch off the embedded mode."""

    model_config = SettingsConfigDict(env_prefix="STALLSCOPE_", extra="ignore")

    data_dir: Path = Field(default_factory=default_data_dir)
    database_url: str | None = Field(default=None, validation_alias="DATABASE_URL")
    broker_url: str | None = Field(default=None, validation_alias="CELERY_BROKER_URL")
    host: str = "127.0.0.1"
    port: int = 8000
    max_upload_bytes: int = 2 * GIB
    """Limit on a capture's size after decompression: zip bombs and runaway files stop here."""
    flame_max_nodes: int = 50_000
    worker_concurrency: int = 1
    frontend_dist: Path | None = None

    @property
    def blob_dir(self) -> Path:
        return self.data_dir / "blobs"

    @property
    def pgdata_dir(self) -> Path:
        return self.data_dir / "pgdata"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
