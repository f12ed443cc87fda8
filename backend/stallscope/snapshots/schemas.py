"""Response shapes for snapshots and the config diff."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from stallscope.kit.answer_model import AnswerModel


class SnapshotRef(BaseModel):
    """One snapshot of an incident: a capture, and which take of it (0 for the collector's)."""

    capture_id: int
    filename: str
    take: int
    label: str | None = Field(description="start, end, before, after… when the file marks its takes")
    host: str | None
    taken_at_ns: int | None
    source: Literal["collector", "text"]


class KeyChangeOut(AnswerModel):
    section: str
    key: str
    status: Literal["changed", "added", "removed", "unchanged"]
    a: str | None
    b: str | None
    a_note: str | None = None
    b_note: str | None = None
    hint: str | None = None


class OnlyReadOut(BaseModel):
    section: str
    count: int
    keys: list[str]
    whole_section: bool


class ConfigDiffOut(BaseModel):
    """B's settings against A's: changed first, then added and removed, then unchanged."""

    a: SnapshotRef
    b: SnapshotRef
    changed: list[KeyChangeOut]
    added: list[KeyChangeOut]
    removed: list[KeyChangeOut]
    unchanged: list[KeyChangeOut]
    only_in_a: list[OnlyReadOut] = Field(description="Read on A only: no difference can be told")
    only_in_b: list[OnlyReadOut]
    not_compared_a: dict[str, int] = Field(description="Reason -> values set aside (load, counters…)")
    not_compared_b: dict[str, int]
