"""Metric payloads."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from stallscope.analysis.metric_kinds import SeriesKind
from stallscope.kit.answer_model import AnswerModel


class SeriesOut(AnswerModel):
    id: int
    capture_id: int
    name: str
    labels: dict[str, str]
    unit: str | None
    points: int
    first: datetime | None
    last: datetime | None
    host: str | None = None
    """The host the capture was taken on, as the uploader named it."""
    capture_filename: str | None = None
    capture_start: datetime | None = None
    """The capture's first metric point: where "aligned by capture start" puts offset zero."""
    named_kind: SeriesKind = "gauge"
    """The kind its name and unit say; the points' `kind` also reads the values (a counter by shape)."""


class PointOut(AnswerModel):
    ts: datetime
    avg: float
    min: float
    max: float
    count: int
    p50: float | None = None
    p90: float | None = None
    p99: float | None = None


Drawn = Literal["values", "rate"]


class SeriesPoints(AnswerModel):
    series_id: int
    bucket_ns: int
    points: list[PointOut]
    kind: SeriesKind = "gauge"
    kind_reason: str = ""
    drawn: Drawn = Field(default="values", description="values as stored, or a counter's increase per second")
    unit: str | None = Field(default=None, description="Of the drawn values (a rate adds /s)")
    start: datetime | None = Field(default=None, description="The grid's first bucket starts here")
    end: datetime | None = None
    resets: int = Field(default=0, description="Counter resets (falls to near zero) in the range")
