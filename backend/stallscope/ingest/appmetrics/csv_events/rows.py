"""The general way through an events CSV: row by row from the C `csv` reader, every rule checked.

A row that does not fit (wrong field count, bad time, empty name, a duration or id that does not
read) is dropped with a warning naming its line. An empty duration is kept as not measured
(`duration_ns` None); empty cells of other columns are left out of the event.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from stallscope.ingest.appmetrics.common import drop
from stallscope.ingest.appmetrics.csv_events.cells import (
    CPU_RANGE,
    ID_RANGE,
    attr_value,
    duration_ns,
    whole_number,
)
from stallscope.ingest.appmetrics.csv_events.event_maker import FIELDS, MakeEvent, event_maker
from stallscope.ingest.appmetrics.csv_events.layout import EventLayout
from stallscope.ingest.appmetrics.csv_runs import checked, fits
from stallscope.ingest.appmetrics.timestamps import BadTime, TimeReader
from stallscope.ingest.model import EventKind, ParseReport, TimedEvent
from stallscope.ingest.text_lines import TextLines

if TYPE_CHECKING:
    from _csv import Reader

KIND = EventKind.FUNCTION
"""A named operation that took a while: the kind the events table lists and the timeline draws as a
latency track per name."""


class EventRows:
    """One file's rows under its layout."""

    def __init__(
        self, layout: EventLayout, reader: TextLines, times: TimeReader, report: ParseReport
    ) -> None:
        self.layout = layout
        self.reader = reader
        self.times = times
        self.report = report
        self.attr_names = tuple(name for _, name in layout.attrs)
        self.fields = tuple(name for name in FIELDS if getattr(layout, name) is not None)
        """The `TimedEvent` fields the file has columns for, in the order the event takes them."""
        self._makers: dict[tuple[int, ...], MakeEvent] = {}

    def maker(self, sparse: tuple[int, ...]) -> MakeEvent:
        """The fast way's event builder for rows whose counters at `sparse` may be empty (`event_maker`)."""
        make = self._makers.get(sparse)
        if make is None:
            make = self._makers[sparse] = event_maker(KIND, self.fields, self.attr_names, sparse)
        return make

    def read(self, rows: Reader, offset: int) -> Iterator[TimedEvent]:
        """The events of `rows`, whose first line is line `offset + 1` of the file."""
        layout, times, report, reader = self.layout, self.times, self.report, self.reader
        width, time_at, name_at = layout.width, layout.time.index, layout.name
        for row in checked(rows, offset, report):
            line = offset + rows.line_num
            if len(row) != width and not fits(row, line, width, reader, report):
                continue
            try:
                start_ns = times.text(row[time_at], line)
            except BadTime as exc:
                drop(report, line, str(exc))
                continue
            name = row[name_at].strip()
            if not name:
                drop(report, line, "the event name is empty")
                continue
            try:
                yield self._event(row, line, name, start_ns)
            except ValueError as exc:
                drop(report, line, str(exc))

    def _event(self, row: list[str], line: int, name: str, start_ns: int) -> TimedEvent:
        layout = self.layout
        duration = duration_ns(row[layout.duration], layout.duration_scale_ns)
        pid = whole_number(row[layout.pid], "pid", ID_RANGE) if layout.pid is not None else None
        tid = whole_number(row[layout.tid], "tid", ID_RANGE) if layout.tid is not None else None
        cpu = whole_number(row[layout.cpu], "cpu", CPU_RANGE) if layout.cpu is not None else None
        comm = row[layout.comm].strip() if layout.comm is not None else ""
        result = (row[layout.result].strip() or None) if layout.result is not None else None
        attrs: dict[str, object] = {}
        for at, key in layout.attrs:
            value = attr_value(row[at])
            if value is not None:
                attrs[key] = value
        return TimedEvent(
            line, KIND, name, start_ns, duration, pid, tid, comm, cpu, None, (), None, None, result, attrs
        )
