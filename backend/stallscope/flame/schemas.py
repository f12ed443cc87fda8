"""Flame-graph request filters and response payloads."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel

FlameSource = Literal["samples", "off-cpu"]


class SampleFilter(BaseModel):
    """Which samples a view shows; the same filter drives the graph, the folded download and facets.

    `source="off-cpu"` reads off-CPU intervals instead of CPU samples, weighted by blocked time
    (microseconds, like Brendan Gregg's off-CPU flame graphs); `state` keeps one scheduler state.
    """

    capture_ids: list[int]
    source: FlameSource = "samples"
    state: str | None = None
    event: str | None = None
    pid: int | None = None
    tid: int | None = None
    comm: str | None = None
    start: datetime | None = None
    end: datetime | None = None


class FlameOut(BaseModel):
    root: dict[str, Any]
    total: int
    total_samples: int
    unit: str
    event: str | None
    events: list[str]
    node_count: int
    pruned_nodes: int
    prune_threshold: float
    focus: list[str]


class FrameOut(BaseModel):
    name: str
    kind: str


class EventFacet(BaseModel):
    name: str
    samples: int
    unit: str


class ProcessFacet(BaseModel):
    pid: int | None
    comm: str
    samples: int


class ThreadFacet(BaseModel):
    pid: int | None
    tid: int | None
    comm: str
    samples: int


class FacetsOut(BaseModel):
    events: list[EventFacet]
    processes: list[ProcessFacet]
    threads: list[ThreadFacet]
    time_start: datetime | None
    time_end: datetime | None
