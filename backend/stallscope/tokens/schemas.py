"""Token payloads; the secret appears once, in the answer to its creation."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from stallscope.kit.answer_model import AnswerModel
from stallscope.kit.text import SingleLine


class TokenCreate(BaseModel):
    name: SingleLine = Field(min_length=1, max_length=200, description="Who or what uses it, e.g. 'db hosts'")
    incident_id: int | None = Field(default=None, description="Only uploads to this incident")
    host: SingleLine | None = Field(default=None, max_length=253, description="Only uploads for this host")
    expires_at: datetime | None = Field(default=None, description="No uploads after this time")


class TokenOut(AnswerModel):
    id: int
    name: str
    prefix: str
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None
    incident_id: int | None = None
    host: str | None = None
    expires_at: datetime | None = None
    created_by: int | None = None


class TokenCreated(TokenOut):
    secret: str = Field(description="Shown once; set it as STALLSCOPE_TOKEN on the hosts")
