"""Thread-state breakdown payloads as the API speaks them (times in nanoseconds)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel

StateSource = Literal["sched", "proc-sampler", "none"]


class LatencyOut(BaseModel):
    """Waits for a CPU once runnable (scheduler latency)."""

    count: int
    p50_ns: int | None
    p90_ns: int | None
    p99_ns: int | None
    max_ns: int | None


class WakerOut(BaseModel):
    tid: int | None
    comm: str
    wakeups: int


class TopStackOut(BaseModel):
    stack_id: int
    ns: int
    share: float
    frames: list[str]
    """Root first, like folded stacks."""


class ThreadOut(BaseModel):
    capture_id: int
    """Threads are per capture: two hosts' tid 100 are different threads."""
    host: str | None
    pid: int | None
    tid: int
    comm: str
    wall_ns: int
    states: dict[str, int]
    other_states: dict[str, int]
    intervals: int
    latency: LatencyOut
    wakers: list[WakerOut]
    top_stacks: dict[str, TopStackOut]


class ThreadsOut(BaseModel):
    source: StateSource
    start: datetime | None
    end: datetime | None
    threads: list[ThreadOut]
    total_threads: int
    """Before `limit`: the busiest threads come first."""
    notes: list[str]


class SegmentOut(BaseModel):
    start: datetime
    end: datetime
    state: str


class StripOut(BaseModel):
    source: StateSource
    tid: int
    segments: list[SegmentOut]
