"""Short-link payloads."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from stallscope.kit.text import SingleLine


class ShareCreate(BaseModel):
    target: SingleLine = Field(
        min_length=1, max_length=16_000, description="Path and query of a view, e.g. /flame?v=3&incident=4"
    )


class ShareOut(BaseModel):
    id: str
    target: str
    path: str
    """The short link's path, `/s/<id>`."""
    created_at: datetime
