"""Token payloads; the secret appears once, in the answer to its creation."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from stallscope.kit.text import SingleLine


class TokenCreate(BaseModel):
    name: SingleLine = Field(min_length=1, max_length=200, description="Who or what uses it, e.g. 'db hosts'")


class TokenOut(BaseModel):
    id: int
    name: str
    prefix: str
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None


class TokenCreated(TokenOut):
    secret: str = Field(description="Shown once; set it as STALLSCOPE_TOKEN on the hosts")
