"""Heatmap requests and responses."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel

from stallscope.analysis.heatmap import HeatmapStream, ValueKind


class HeatmapQuery(BaseModel):
    """What a heatmap shows: which records (stream and filters), how many rows, which value."""

    capture_ids: list[int]
    stream: HeatmapStream | None = None
    """None: the stream with the most records."""
    rows: int = 50
    value: ValueKind = "count"
    event: str | None = None
    """Samples only: one perf event (None: the most sampled; events are never summed)."""
    name: str | None = None
    """Event streams: one name, e.g. `futex`."""
    state: str | None = None
    """Off-CPU only: one scheduler state, e.g. D."""
    pid: int | None = None
    tid: int | None = None
    comm: str | None = None
    start: datetime | None = None
    end: datetime | None = None
    top: int = 10
    max_columns: int = 600


class HotCellOut(BaseModel):
    column: int
    second: int
    """The column's first second, epoch seconds on the captures' timeline."""
    seconds: int
    """How many seconds the column sums (1 unless columns were merged)."""
    start: datetime
    end: datetime
    row: int
    offset_start_us: int
    offset_end_us: int
    value: int
    count: int


class HeatmapOut(BaseModel):
    """`values[column][row]`: columns are seconds (or merged k-second spans), rows offsets in them."""

    stream: HeatmapStream
    value: ValueKind
    unit: str
    """What a value is in: `ns` for durations, else what is counted (samples, calls, intervals…)."""
    event: str | None
    name: str | None
    state: str | None
    rows: int
    row_us: int
    first_second: int
    column_seconds: int
    columns: int
    start: datetime | None
    """Start of the first column (None when there is nothing to show)."""
    end: datetime | None
    """End of the last column, exclusive."""
    values: list[list[int]]
    counts: list[list[int]] | None
    """Records per cell, when the value is not already a count."""
    row_totals: list[int]
    max: int
    total: int
    total_count: int
    unclosed: int
    """Intervals with no end (never given an invented duration): counted, but weigh nothing."""
    hot: list[HotCellOut]
    wall_clock: bool
    """False when a capture's times are its own clock (seconds since boot), not UTC seconds."""
    notes: list[str]


class StreamNameOut(BaseModel):
    name: str
    count: int
    durations: bool
    """Whether value=duration means something for it."""


class StreamOut(BaseModel):
    stream: HeatmapStream
    count: int
    unit: str
    """What the stream counts."""
    durations: bool
    names: list[StreamNameOut]
    """Samples: perf events; event streams: event names (syscalls…); off-CPU: scheduler states."""


class StreamsOut(BaseModel):
    streams: list[StreamOut]
    """Busiest first; only streams the captures have."""
    default: HeatmapStream | None
    wall_clock: bool
    notes: list[str]
