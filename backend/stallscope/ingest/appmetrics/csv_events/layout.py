"""Where an events CSV keeps each part of an event: the columns recognised by name.

The shape is a time column (found as for metrics, see `time_columns`), a name column (`event`, `name`,
`op`, `operation`, `span`, `action`, `call`) and a duration column (`duration`, `dur`, `elapsed`,
`latency`, `took`, with its unit in the name: `duration_us`, `latency (ms)`). Columns named `pid`,
`tid`, `comm` (or `thread`, `process`), `cpu` and `result` (or `status`, `rc`, `ret`) fill the event's
fields of those names; every other column is kept in `attrs`, as a number when it holds one. A
duration without a unit is read as milliseconds, with a warning that says how to name it.
"""

from __future__ import annotations

from dataclasses import dataclass

from stallscope.ingest.appmetrics.csv_head import column_samples
from stallscope.ingest.appmetrics.time_columns import TimeColumn, find_time_column, named_unit, split_unit
from stallscope.ingest.model import ParseError

NAME_COLUMNS = ("event", "event_name", "name", "op", "operation", "span", "span_name", "action", "call")
"""Names of the event-name column, most telling first (any case)."""
DURATION_WORDS = frozenset(
    {"duration", "dur", "elapsed", "latency", "took", "time_taken", "runtime", "wall_time"}
)
"""Names of the duration column, alone or with a unit of time (`duration_us`, `latency (ms)`)."""
FIELD_COLUMNS: dict[str, tuple[str, ...]] = {
    "pid": ("pid", "process_id"),
    "tid": ("tid", "thread_id"),
    "comm": ("comm", "thread", "thread_name", "process", "process_name"),
    "cpu": ("cpu",),
    "result": ("result", "status", "rc", "ret", "retval", "outcome"),
}
"""`TimedEvent` fields filled from columns of these names (any case)."""
MS_PER_NS = 1_000_000
UNITLESS = "the duration column {name!r} names no unit: read as milliseconds (name it {name}_us, _ms or _s)"


@dataclass(frozen=True, slots=True)
class EventLayout:
    """The column of each part of an event (None: the file has none), and the `attrs` columns."""

    width: int
    time: TimeColumn
    name: int
    duration: int
    duration_scale_ns: int
    unitless: bool
    pid: int | None
    tid: int | None
    comm: int | None
    cpu: int | None
    result: int | None
    attrs: tuple[tuple[int, str], ...]


def name_column(names: list[str]) -> int | None:
    lowered = [name.strip().lower() for name in names]
    return next((lowered.index(name) for name in NAME_COLUMNS if name in lowered), None)


def duration_column(names: list[str]) -> int | None:
    """The first column named like a duration (`duration_us`, `latency (ms)`, `elapsed`)."""
    return next((i for i, name in enumerate(names) if split_unit(name)[0] in DURATION_WORDS), None)


def is_events_header(names: list[str]) -> bool:
    """Whether a header has the events shape: a name and a duration column, and no `value` column."""
    return (
        name_column(names) is not None
        and duration_column(names) is not None
        and "value" not in (name.strip().lower() for name in names)
    )


def read_layout(
    names: list[str], line: int, samples: list[list[str]], time_column: str | None = None
) -> EventLayout:
    """The layout of an events CSV whose header row is `names`; ParseError if it lacks a part."""
    width = len(names)
    name_at, duration_at = name_column(names), duration_column(names)
    if name_at is None or duration_at is None:
        raise ParseError(line, "an events CSV needs a name column (event, name, op…) and a duration column")
    time = find_time_column(names, column_samples(samples, width), time_column, line)
    unit = named_unit(names[duration_at])
    taken = {time.index, name_at, duration_at}
    lowered = [name.strip().lower() for name in names]
    fields: dict[str, int | None] = {}
    for field, candidates in FIELD_COLUMNS.items():
        at = next(
            (lowered.index(c) for c in candidates if c in lowered and lowered.index(c) not in taken), None
        )
        fields[field] = at
        if at is not None:
            taken.add(at)
    attrs = tuple((i, names[i]) for i in range(width) if i not in taken and names[i])
    return EventLayout(
        width,
        time,
        name_at,
        duration_at,
        unit.scale_ns if unit is not None else MS_PER_NS,
        unit is None,
        fields["pid"],
        fields["tid"],
        fields["comm"],
        fields["cpu"],
        fields["result"],
        attrs,
    )
