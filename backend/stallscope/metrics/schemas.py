"""Metric payloads."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel


class SeriesOut(BaseModel):
    id: int
    capture_id: int
    name: str
    labels: dict[str, Any]
    unit: str | None
    points: int
    first: datetime | None
    last: datetime | None


class PointOut(BaseModel):
    ts: datetime
    avg: float
    min: float
    max: float
    count: int


class SeriesPoints(BaseModel):
    series_id: int
    bucket_ns: int
    points: list[PointOut]
