"""Sub-second heatmaps: seconds across, the offset within each second down.

Trouble that recurs every second (a timer, a flush, a GC tick) lands in the same row of every
column, where a time series smears it into noise. Column = whole second on the capture's timeline
(UTC epoch seconds once aligned), row = floor(offset in that second / (1 s / rows)); the cell holds
a count or a summed weight (a duration, a sample period).

Pure: the API aggregates (second, row) cells in SQL and the offline CLI bins records with
`CellBins`; both shape the matrix with `build_heatmap`, so both draw the same picture. Row edges
are whole microseconds, the precision times are stored at, and match the `within` filter exactly.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

US_PER_SECOND = 1_000_000
NS_PER_US = 1_000
NS_PER_SECOND = 1_000_000_000
MAX_ROWS = 1_000
CELL_BUDGET = 120_000
"""Columns x rows a heatmap may hold; beyond it columns merge. A browser draws this many cells on
canvas in a few milliseconds, and a terminal shows far fewer."""

ValueKind = Literal["count", "duration"]
HeatmapStream = Literal["samples", "off-cpu", "on-cpu", "syscall", "fault", "function", "tracepoint"]
STREAMS: tuple[HeatmapStream, ...] = (
    "samples",
    "off-cpu",
    "on-cpu",
    "syscall",
    "fault",
    "function",
    "tracepoint",
)
EVENT_STREAMS: tuple[HeatmapStream, ...] = STREAMS[1:]
"""Streams that are events (the API reads them from the events table, where `kind` is the name)."""
COUNT_UNITS: dict[str, str] = {
    "samples": "samples",
    "off-cpu": "intervals",
    "on-cpu": "intervals",
    "syscall": "calls",
    "fault": "faults",
    "function": "calls",
    "tracepoint": "events",
}
"""What one record of each stream is called when cells count records."""


def row_width_us(rows: int) -> int:
    """Microseconds per row; rows must split a second into whole microseconds.

    Raises ValueError with the reason, worded for an API or CLI user.
    """
    if not 1 <= rows <= MAX_ROWS:
        raise ValueError(f"rows must be between 1 and {MAX_ROWS} (e.g. 10, 20, 50, 100), got {rows}")
    if US_PER_SECOND % rows:
        raise ValueError(
            f"rows must divide a second into whole microseconds (e.g. 10, 20, 25, 50, 100), got {rows}"
        )
    return US_PER_SECOND // rows


SLICE_US = 10_000
"""Samples are also counted per 10 ms slice at parse time (the API's `sample_slices`)."""


def rows_fit_slices(row_us: int) -> bool:
    """Whether every row is a whole number of slices (10, 20, 50, 100 rows: any count dividing 100)."""
    return row_us % SLICE_US == 0


def whole_slices(low_us: int, high_us: int) -> tuple[int, int]:
    """[first, end) indexes of the slices lying wholly inside [low_us, high_us); none when first >= end.

    What is left of the range, [low_us, first slice) and [end slice, high_us), is under a slice each.
    """
    return -(-low_us // SLICE_US), high_us // SLICE_US


def column_limit(rows: int, wanted: int) -> int:
    """At most `wanted` columns, and never more than the cell budget allows at `rows`."""
    return max(1, min(wanted, CELL_BUDGET // rows))


@dataclass(slots=True)
class Cell:
    """One aggregated (second, row) cell: how many records, and their summed weight.

    Not frozen: a heatmap of a long range makes tens of thousands, and frozen ones take three times
    as long to make."""

    second: int
    row: int
    count: int
    weight: int


@dataclass(slots=True)
class _Tally:
    count: int = 0
    weight: int = 0


class CellBins:
    """Accumulate timed records into (second, row) cells, for callers that hold raw records."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.row_us = row_width_us(rows)
        self._cells: dict[tuple[int, int], _Tally] = {}

    def add_us(self, time_us: int, weight: int | None = 1) -> None:
        """Add one record at `time_us`; a None weight (an unclosed interval) counts but weighs nothing."""
        second, offset_us = divmod(time_us, US_PER_SECOND)
        tally = self._cells.get((second, offset_us // self.row_us))
        if tally is None:
            tally = self._cells[(second, offset_us // self.row_us)] = _Tally()
        tally.count += 1
        if weight is not None:
            tally.weight += weight

    def add_ns(self, time_ns: int, weight: int | None = 1) -> None:
        """As `add_us`; nanoseconds are floored to microseconds, as storage does."""
        self.add_us(time_ns // NS_PER_US, weight)

    def cells(self) -> list[Cell]:
        return [Cell(s, r, t.count, t.weight) for (s, r), t in sorted(self._cells.items())]

    def __len__(self) -> int:
        return len(self._cells)


@dataclass(frozen=True, slots=True)
class ColumnPlan:
    """Which seconds the columns cover: `columns` columns of `column_seconds` from `first_second`."""

    first_second: int
    column_seconds: int
    columns: int

    @property
    def end_second(self) -> int:
        """The first second after the last column (exclusive)."""
        return self.first_second + self.columns * self.column_seconds

    @property
    def merged(self) -> bool:
        return self.column_seconds > 1

    def column_of(self, second: int) -> int | None:
        if not self.first_second <= second < self.end_second:
            return None
        return (second - self.first_second) // self.column_seconds

    def start_of(self, column: int) -> int:
        return self.first_second + column * self.column_seconds


def plan_columns(first_second: int, last_second: int, max_columns: int) -> ColumnPlan:
    """One column per second from first to last (inclusive), or k-second columns to fit `max_columns`."""
    if last_second < first_second:
        raise ValueError(f"the last second ({last_second}) is before the first ({first_second})")
    span = last_second - first_second + 1
    column_seconds = -(-span // max(1, max_columns))
    return ColumnPlan(first_second, column_seconds, -(-span // column_seconds))


@dataclass(frozen=True, slots=True)
class HotCell:
    """A cell worth a look: its column's seconds, its offsets within each second, its value."""

    column: int
    second: int
    """The column's first second (epoch seconds on the capture's timeline)."""
    seconds: int
    row: int
    offset_start_us: int
    offset_end_us: int
    value: int
    count: int


@dataclass(slots=True)
class Heatmap:
    """The shaped matrix: `values[column][row]` (and `counts`), with its summary and hottest cells."""

    rows: int
    row_us: int
    value: ValueKind
    first_second: int
    column_seconds: int
    columns: int
    values: list[list[int]]
    counts: list[list[int]]
    max: int
    total: int
    """Sum of every cell's value."""
    total_count: int
    """Records in the matrix, whatever the value is."""
    hot: list[HotCell]
    row_totals: list[int] = field(default_factory=list)
    """Each row's value summed over the columns: a periodic stall makes one row stand out."""
    outside: int = 0
    """Records in cells outside the planned columns (dropped, and said so)."""
    notes: list[str] = field(default_factory=list)

    @property
    def merged(self) -> bool:
        return self.column_seconds > 1


def _extent(cells: list[Cell]) -> tuple[int, int] | None:
    if not cells:
        return None
    seconds = [c.second for c in cells]
    return min(seconds), max(seconds)


def build_heatmap(
    cells: Iterable[Cell],
    rows: int,
    value: ValueKind = "count",
    plan: ColumnPlan | None = None,
    max_columns: int = 600,
    top: int = 10,
) -> Heatmap:
    """Shape aggregated cells into a dense matrix, list the `top` hottest cells, and summarise.

    Without a `plan`, columns run from the first to the last second that has a cell, merged into
    k-second columns when that is more than `max_columns` (capped by the cell budget). Cells may
    already be merged (SQL grouping by column start): merging is idempotent.
    """
    row_us = row_width_us(rows)
    cell_list = list(cells)
    notes: list[str] = []
    if plan is None:
        extent = _extent(cell_list)
        if extent is None:
            return Heatmap(rows, row_us, value, 0, 1, 0, [], [], 0, 0, 0, [], [0] * rows)
        plan = plan_columns(extent[0], extent[1], column_limit(rows, max_columns))
    values = [[0] * rows for _ in range(plan.columns)]
    counts = [[0] * rows for _ in range(plan.columns)]
    outside = 0
    first, seconds, end = plan.first_second, plan.column_seconds, plan.end_second
    by_count = value == "count"
    for cell in cell_list:  # plan.column_of, inlined: this loop sees every cell
        second, row, count = cell.second, cell.row, cell.count
        if not (first <= second < end and 0 <= row < rows):
            outside += count
            continue
        column = (second - first) // seconds
        values[column][row] += count if by_count else cell.weight
        counts[column][row] += count
    if plan.merged:
        notes.append(
            f"{plan.columns * plan.column_seconds} s do not fit in one column per second: each column "
            f"sums {plan.column_seconds} s; choose a shorter time range to see single seconds"
        )
    if outside:
        notes.append(f"{outside} records fall outside the columns shown and are left out")
    hot = hottest_cells(values, counts, plan, row_us, top)
    return Heatmap(
        rows=rows,
        row_us=row_us,
        value=value,
        first_second=plan.first_second,
        column_seconds=plan.column_seconds,
        columns=plan.columns,
        values=values,
        counts=counts,
        max=max((max(col) for col in values), default=0),
        total=sum(sum(col) for col in values),
        total_count=sum(sum(col) for col in counts),
        hot=hot,
        row_totals=[sum(row) for row in zip(*values, strict=True)] if values else [0] * rows,
        outside=outside,
        notes=notes,
    )


def hottest_cells(
    values: list[list[int]], counts: list[list[int]], plan: ColumnPlan, row_us: int, top: int
) -> list[HotCell]:
    """The `top` cells by value (ties: earlier column, then earlier row); empty cells never count."""
    ranked = heapq.nsmallest(
        max(0, top),
        ((-v, c, r) for c, column in enumerate(values) for r, v in enumerate(column) if v > 0),
    )
    return [
        HotCell(
            column=c,
            second=plan.start_of(c),
            seconds=plan.column_seconds,
            row=r,
            offset_start_us=r * row_us,
            offset_end_us=(r + 1) * row_us,
            value=-negated,
            count=counts[c][r],
        )
        for negated, c, r in ranked
    ]
