"""The canonical records every importer yields.

Importers normalise once, here; storage and analysis never look at a source format again.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field


class FrameKind(enum.Enum):
    """Where a frame's code lives; drives `_[k]`-style annotations and flame-graph colours."""

    USER = "user"
    KERNEL = "kernel"
    JIT = "jit"
    INLINE = "inline"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Frame:
    """One stack frame, already named the way folded output names it (no annotation suffix)."""

    name: str
    kind: FrameKind = FrameKind.USER


Stack = tuple[Frame, ...]
"""Frames root first (outermost caller first), the order folded stacks are written in."""

_generations = itertools.count()


@dataclass(slots=True)
class InternedStacks:
    """The stacks an importer has interned since its table last started again, with their codes.

    A frame's code is its position in `frames`; a stack's codes are its frames' codes as native
    uint32s, root first, joined. `stacks` holds every stack of `codes_of` (by codes), so while this
    object lives no other object can take one of their ids. The parser only adds to it.
    """

    frames: list[Frame] = field(default_factory=list)
    stacks: dict[bytes, Stack] = field(default_factory=lambda: {b"": ()})
    codes_of: dict[int, bytes] = field(default_factory=lambda: {id(()): b""})
    """A stack's codes, by its object's id."""
    generation: int = field(default_factory=lambda: next(_generations))


@dataclass(slots=True)
class StackCodes:
    """Where an importer that interns its stacks by code shows them (`ParseReport.stack_codes`).

    The stack dictionary maps a batch's new stacks to frame ids through their codes, one array
    look-up for the whole batch, where a look-up per frame object cost a third of the writer's time
    on a capture of deep stacks. `current` is replaced, never changed back, when the importer's
    table starts again: a reader takes it once and keeps to it.
    """

    current: InternedStacks | None = None


@dataclass(slots=True)
class Sample:
    """One perf sample: who, where, when, and the stack it was taken in.

    `time_ns` is the capture's own clock (perf: seconds since boot, as printed), not wall time;
    clock alignment happens at storage. `period` is None when the file does not print one.
    """

    line: int
    comm: str
    pid: int | None
    tid: int | None
    cpu: int | None
    time_ns: int | None
    event: str
    period: int | None
    stack: Stack
    trace_args: str | None = None
    """Tracepoint arguments as printed after the event name (`prev_state=D ==> next_comm=...`)."""

    @property
    def weight(self) -> int:
        """Period when the file has one, else one per sample (what stackcollapse-perf.pl sums)."""
        return self.period if self.period is not None else 1


class EventKind(enum.Enum):
    """What a timed event measures; one table holds them all, the kind tells views apart."""

    OFF_CPU = "off-cpu"
    ON_CPU = "on-cpu"
    SYSCALL = "syscall"
    FAULT = "fault"
    FUNCTION = "function"
    TRACEPOINT = "tracepoint"


@dataclass(slots=True)
class TimedEvent:
    """Something that started at a time and (usually) took a while: a syscall, a fault, a block.

    `duration_ns` is None when the end was never seen (an off-CPU interval with no closing
    `sched_switch`): kept and marked unclosed rather than given an invented length.
    """

    line: int
    kind: EventKind
    name: str
    start_ns: int | None
    duration_ns: int | None
    pid: int | None = None
    tid: int | None = None
    comm: str = ""
    cpu: int | None = None
    state: str | None = None
    """Scheduler state for off-CPU time: S, D, R (preempted) and the rarer ones perf prints."""
    stack: Stack = ()
    waker_tid: int | None = None
    args: str | None = None
    result: str | None = None
    attrs: dict[str, object] = field(default_factory=dict)


@dataclass(slots=True)
class MetricPoint:
    """One value of one series at one time; `labels` tell series of the same name apart.

    Not frozen: dense metric text yields a point every dozen bytes, and a frozen dataclass's
    constructor costs five times as much (measured 1.27 µs against 0.23 µs per point).
    """

    line: int
    name: str
    time_ns: int
    value: float
    labels: tuple[tuple[str, str], ...] = ()
    unit: str | None = None


Labels = tuple[tuple[str, str], ...]
"""A series' labels as sorted (key, value) pairs."""


@dataclass(frozen=True, slots=True, eq=False)
class RowSeries:
    """The columns of a row-shaped record: each column's series name, labels and unit.

    Built once per layout (a header, a row label) and shared by every row under it, so a row costs
    one small object however many values it holds. Compared by identity: consumers key what they
    work out per column (series ids) on the object itself, and hashing the tuples per row would cost
    what sharing saves.
    """

    names: tuple[str, ...]
    labels: tuple[Labels, ...]
    units: tuple[str | None, ...]

    def __post_init__(self) -> None:
        if not (len(self.names) == len(self.labels) == len(self.units)):
            raise ValueError("one name, label set and unit per column")

    def __len__(self) -> int:
        return len(self.names)


@dataclass(slots=True)
class MetricRow:
    """Values of several series at one time from one source line: `values[i]` is of column `i` of
    `series`.

    Stands for exactly the `MetricPoint`s `points()` gives, in that order. Dense row-shaped text
    (vmstat, wide CSV) holds a value every six bytes; a point per value costs more than the parse
    itself, a row per line does not.
    """

    line: int
    time_ns: int
    series: RowSeries
    values: Sequence[float]

    def points(self) -> Iterator[MetricPoint]:
        """The row as the points it stands for, column by column."""
        series, line, time_ns = self.series, self.line, self.time_ns
        columns = zip(series.names, self.values, series.labels, series.units, strict=True)
        for name, value, labels, unit in columns:
            yield MetricPoint(line, name, time_ns, value, labels, unit)


class CaptureClock(enum.Enum):
    """Which clock an importer's times are read on, before any alignment."""

    MONOTONIC = "monotonic"
    """Seconds since boot, as perf, ftrace and /proc/uptime print them."""
    REALTIME = "realtime"
    """Wall-clock epoch time: already aligned."""
    RELATIVE = "relative"
    """Offsets from the start of the recording (perf trace's default)."""
    NONE = "none"
    """No times at all (already-collapsed stacks, DTrace aggregations)."""


@dataclass(frozen=True, slots=True)
class Document:
    """A structured document kept whole, such as the collector's system snapshot."""

    line: int
    kind: str
    content: dict[str, object]


Record = Sample | TimedEvent | MetricPoint | MetricRow | Document
"""Everything an importer can yield."""


def metric_points(record: Record) -> Iterator[MetricPoint]:
    """The metric points a record stands for: itself, a row's points, or none.

    For consumers that look at a few series and need not be fast; storage and tallies handle rows whole.
    """
    if isinstance(record, MetricPoint):
        yield record
    elif isinstance(record, MetricRow):
        yield from record.points()


@dataclass(frozen=True, slots=True)
class ParseWarning:
    """A recoverable problem, with the 1-based line it was found on (0: about the whole input)."""

    line: int
    message: str

    def __str__(self) -> str:
        """`line 12: message`; one about the whole input (a bound reached, events lost) names no line."""
        return f"line {self.line}: {self.message}" if self.line > 0 else self.message


MAX_WARNING_CHARS = 500
"""A warning's message is cut here: kept warnings cost a bounded amount whatever line they quote."""


@dataclass(frozen=True, slots=True)
class CaptureOrigin:
    """The capture a file of re-exported records (`stallscope-records`) came from: the format and clock
    mapping it was parsed with, which views read (system metrics, aligned or not) and the capture keeps."""

    format: str
    clock: dict[str, object]


@dataclass(slots=True)
class ParseReport:
    """What a parse kept and what it dropped; filled in while the parser streams."""

    samples: int = 0
    dropped_lines: int = 0
    truncated: bool = False
    warnings: list[ParseWarning] = field(default_factory=list)
    max_warnings: int = 100
    suppressed_warnings: int = 0
    limits_reached: list[ParseWarning] = field(default_factory=list)
    """One warning per per-capture bound the parse reached (`ingest.limits`); always kept, shown first."""
    origin: CaptureOrigin | None = None
    """Set by an importer of re-exported records; None for every capture parsed from its own upload."""
    stack_codes: StackCodes = field(default_factory=StackCodes)
    """Filled by an importer that interns its stacks by code (`perf script`); read by storage."""

    def warn(self, line: int, message: str) -> None:
        """Record a warning, keeping the first `max_warnings` and counting the rest."""
        if len(self.warnings) < self.max_warnings:
            if len(message) > MAX_WARNING_CHARS:
                message = message[: MAX_WARNING_CHARS - 1] + "…"
            self.warnings.append(ParseWarning(line, message))
        else:
            self.suppressed_warnings += 1

    def limit_reached(self, line: int, message: str) -> None:
        """Record that a bound cut something: the capture ends partial, whatever else happened."""
        self.limits_reached.append(ParseWarning(line, message))

    @property
    def partial(self) -> bool:
        """Whether anything in the input was left out of what was stored."""
        return self.dropped_lines > 0 or self.truncated or bool(self.limits_reached)


class ParseError(Exception):
    """The input cannot be parsed at all; names the line and the reason."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line > 0 else reason)
        self.line = line
        self.reason = reason
