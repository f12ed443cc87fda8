"""Stream an events CSV into `TimedEvent`s, a chunk of lines at a time.

The header and the first rows set the layout (`layout`); then the rows go run by run (`csv_runs`):
plain runs the fast way (`fast`), every other line through the C `csv` reader and every rule
(`rows`), which drops a row it cannot read with a warning naming its line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import partial
from itertools import chain
from typing import BinaryIO

from stallscope.ingest.appmetrics.common import text_lines
from stallscope.ingest.appmetrics.csv_events import fast
from stallscope.ingest.appmetrics.csv_events.layout import UNITLESS, read_layout
from stallscope.ingest.appmetrics.csv_events.rows import EventRows
from stallscope.ingest.appmetrics.csv_head import (
    decoded,
    header_cells,
    header_line,
    sample_rows,
    sniff_delimiter,
)
from stallscope.ingest.appmetrics.csv_runs import table_records
from stallscope.ingest.appmetrics.timestamps import TimeReader
from stallscope.ingest.model import ParseReport, TimedEvent


def parse_events_csv(
    stream: BinaryIO, report: ParseReport, time_column: str | None = None
) -> Iterator[TimedEvent]:
    """Yield the events of an events CSV read from `stream`, filling `report` as it goes.

    `time_column` names the time column, overriding the rules that find it.
    """
    return chain.from_iterable(_runs(stream, report, time_column))


def _runs(stream: BinaryIO, report: ParseReport, time_column: str | None) -> Iterator[Iterable[TimedEvent]]:
    reader = text_lines(stream)
    chunks = decoded(reader)
    header_at, text, rest = header_line(chunks)
    delimiter = sniff_delimiter(text)
    names = header_cells(text, header_at, delimiter)
    layout = read_layout(names, header_at, sample_rows(rest[1], delimiter, len(names)), time_column)
    note = layout.time.note()
    if note is not None:
        report.warn(0, note)
    if layout.unitless:
        report.warn(header_at, UNITLESS.format(name=names[layout.duration]))
    rows = EventRows(layout, reader, TimeReader(report, layout.time.unit), report)
    yield from table_records(
        rest, chunks, delimiter, layout.width, rows.times, rows.read, partial(fast.read_run, rows)
    )
