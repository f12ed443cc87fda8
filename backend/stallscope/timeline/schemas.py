"""Timeline payloads: the tracks an incident offers, and bucketed data for the ones chosen.

Times inside track data are integer epoch microseconds (`*_us`): exact, cheap to parse, and finer
than a JavaScript Date. Per-bucket values are dense arrays of `grid.count` entries, bucket i
covering [start_us + i·width_us, start_us + (i+1)·width_us).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from stallscope.captures.schemas import CaptureStatus
from stallscope.ingest.clock import ClockMode
from stallscope.kit.answer_model import AnswerModel

TrackType = Literal["cpu", "offcpu", "events", "metric"]


# --- what an incident offers -------------------------------------------------------------------------


class CaptureRef(BaseModel):
    id: int
    filename: str
    kind: str | None
    format: str | None
    status: CaptureStatus
    clock_mode: ClockMode | None
    """None until a parse has mapped the capture's clock."""
    clock_note: str
    time_start: datetime | None
    time_end: datetime | None
    on_timeline: bool
    """Parsed and timed: its records are drawn. Queued, failed or untimed captures are listed only."""


class ProcessShare(BaseModel):
    comm: str
    pid: int | None
    samples: int


class StateTotal(BaseModel):
    state: str
    intervals: int
    total_ns: int
    max_ns: int | None


class NameCount(BaseModel):
    name: str
    count: int
    max_ns: int | None


class CpuTrack(AnswerModel):
    type: Literal["cpu"] = "cpu"
    id: str
    host: str
    label: str
    event: str
    samples: int
    top: list[ProcessShare]
    origin: Literal["cpu", "proc-stack"] = "cpu"
    """What was sampled: CPUs (perf and its kin), or threads' kernel stacks read from /proc."""
    state: str | None = None
    """/proc stack samples: the scheduler state the dumps were taken in, when they said."""


class OffCpuTrack(AnswerModel):
    type: Literal["offcpu"] = "offcpu"
    id: str
    host: str
    label: str
    intervals: int
    unclosed: int
    """Intervals whose end was never recorded: counted here, never given a length."""
    states: list[StateTotal]


class EventsTrack(AnswerModel):
    type: Literal["events"] = "events"
    id: str
    host: str
    label: str
    kind: str
    name: str | None
    """One event name, or None for every event of the kind."""
    count: int
    names: list[NameCount]


class MetricTrack(AnswerModel):
    type: Literal["metric"] = "metric"
    id: str
    host: str
    label: str
    name: str
    labels: dict[str, str]
    unit: str | None
    system: bool
    """From a system sampler (the collector's /proc sampler, sysstat) rather than the application."""
    points: int
    min: float | None
    max: float | None


Track = Annotated[CpuTrack | OffCpuTrack | EventsTrack | MetricTrack, Field(discriminator="type")]


class HostTracks(BaseModel):
    host: str
    """The uploader's host name; empty for captures uploaded without one."""
    unaligned: bool
    """Some capture's times are not wall-clock (no anchor, no offset): it cannot be compared by time."""
    captures: list[CaptureRef]
    tracks: list[Track]


class TracksOut(BaseModel):
    incident: int
    time_start: datetime | None
    time_end: datetime | None
    """The default range: every aligned capture (every capture when none is aligned)."""
    hosts: list[HostTracks]


# --- bucketed data -----------------------------------------------------------------------------------


class GridOut(BaseModel):
    start_us: int
    width_us: int
    count: int


class CpuGroup(BaseModel):
    comm: str
    pid: int | None
    """The process (or, split by thread, the thread id); None when the capture did not record it."""
    other: bool
    """Every process outside the top N, summed."""
    total: int
    counts: list[int]


class CpuData(AnswerModel):
    type: Literal["cpu"] = "cpu"
    id: str
    source: str
    split: Literal["process", "thread"]
    groups: list[CpuGroup]


class StateSeries(BaseModel):
    state: str
    total_ns: float
    ns: list[float]
    """Thread-nanoseconds off-CPU in this state within each bucket (÷ width = threads, on average)."""


class OffCpuData(AnswerModel):
    type: Literal["offcpu"] = "offcpu"
    id: str
    source: str
    states: list[StateSeries]


class EventMark(BaseModel):
    ts_us: int
    duration_ns: int | None
    name: str
    pid: int | None
    tid: int | None
    comm: str


class EventBuckets(BaseModel):
    count: list[int]
    max_ns: list[int | None]


class EventsData(AnswerModel):
    type: Literal["events"] = "events"
    id: str
    source: str
    mode: Literal["marks", "buckets"]
    count: int
    marks: list[EventMark]
    buckets: EventBuckets | None


class MetricPointOut(BaseModel):
    ts_us: int
    value: float


class MetricBuckets(BaseModel):
    count: list[int]
    min: list[float | None]
    avg: list[float | None]
    max: list[float | None]


class MetricData(AnswerModel):
    type: Literal["metric"] = "metric"
    id: str
    source: str
    unit: str | None
    mode: Literal["points", "buckets"]
    count: int
    points: list[MetricPointOut]
    buckets: MetricBuckets | None


TrackData = Annotated[CpuData | OffCpuData | EventsData | MetricData, Field(discriminator="type")]


class TimelineOut(BaseModel):
    start: datetime
    end: datetime
    """The range asked for (or the default one); the grid covers it in whole buckets."""
    grid: GridOut
    tracks: list[TrackData]
    missing: list[str]
    """Requested track ids this selection does not have (a capture deleted, a host filtered out)."""
    query_ms: float
