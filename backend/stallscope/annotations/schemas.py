"""Annotation payloads: free text pinned to an instant, optionally to one host."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, field_validator

from stallscope.kit.text import MultiLine, SingleLine

MAX_TEXT = 2000
MAX_HOST = 255


def _aware(value: datetime) -> datetime:
    if value.tzinfo is None:
        raise ValueError("ts needs a time zone (e.g. 2026-11-21T08:03:00.250Z)")
    return value


def _text(value: str) -> str:
    if not value.strip():
        raise ValueError("text must not be blank")
    return value


class AnnotationCreate(BaseModel):
    ts: datetime
    text: MultiLine = Field(min_length=1, max_length=MAX_TEXT)
    host: SingleLine | None = Field(default=None, max_length=MAX_HOST)

    _ts = field_validator("ts")(_aware)
    _text_ok = field_validator("text")(_text)


class AnnotationUpdate(BaseModel):
    """Only the text changes: moving a note in time is deleting it and pinning a new one."""

    text: MultiLine = Field(min_length=1, max_length=MAX_TEXT)

    _text_ok = field_validator("text")(_text)


class AnnotationOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    incident_id: int
    ts: datetime
    text: str
    host: str | None
    created_at: datetime
