"""Typed FastAPI dependencies shared by the routers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends
from sqlalchemy.orm import Session

from stallscope.config import Settings, get_settings
from stallscope.db import get_session_factory


def database_url(settings: Settings) -> str:
    if not settings.database_url:
        raise RuntimeError("DATABASE_URL is not set; start the console with `stallscope serve`")
    return settings.database_url


def get_session() -> Iterator[Session]:
    factory = get_session_factory(database_url(get_settings()))
    with factory() as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
