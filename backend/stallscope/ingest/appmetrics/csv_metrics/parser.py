"""Stream a metrics CSV into records, a chunk of lines at a time: points (long form) or rows (wide).

Lines are decoded a chunk at a time and the header found (`csv_head`), its layout read (`header`),
then the rows go run by run (`csv_runs`): plain runs of the header's width the fast way (`fast`),
every other line through the C `csv` reader and every rule (`rows`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import partial
from itertools import chain
from typing import BinaryIO

from stallscope.ingest.appmetrics.common import text_lines
from stallscope.ingest.appmetrics.csv_head import (
    decoded,
    header_cells,
    header_line,
    sample_rows,
    sniff_delimiter,
)
from stallscope.ingest.appmetrics.csv_metrics import fast
from stallscope.ingest.appmetrics.csv_metrics.header import Header, read_header
from stallscope.ingest.appmetrics.csv_metrics.rows import Rows
from stallscope.ingest.appmetrics.csv_runs import table_records
from stallscope.ingest.appmetrics.timestamps import TimeReader
from stallscope.ingest.model import MetricPoint, MetricRow, ParseReport


def parse_csv(
    stream: BinaryIO, report: ParseReport, time_column: str | None = None
) -> Iterator[MetricPoint | MetricRow]:
    """Yield the records of a metrics CSV read from `stream`, filling `report` as it goes.

    `time_column` names the time column, overriding the rules that find it.
    """
    return chain.from_iterable(_runs(stream, report, time_column))


def _runs(
    stream: BinaryIO, report: ParseReport, time_column: str | None
) -> Iterator[Iterable[MetricPoint | MetricRow]]:
    reader = text_lines(stream)
    chunks = decoded(reader)
    header_at, text, rest = header_line(chunks)
    delimiter = sniff_delimiter(text)
    names = header_cells(text, header_at, delimiter)
    header = read_header(names, header_at, sample_rows(rest[1], delimiter, len(names)), time_column)
    _note_header(header, header_at, report)
    assert header.time is not None
    rows = Rows(header, reader, TimeReader(report, header.time.unit), report)
    yield from table_records(
        rest, chunks, delimiter, header.width, rows.times, rows.read, partial(fast.read_run, rows)
    )


def _note_header(header: Header, line: int, report: ParseReport) -> None:
    """Say how the time column was found (unless its name said it) and which text columns were skipped."""
    note = header.time.note() if header.time is not None else None
    if note is not None:
        report.warn(0, note)
    if header.skipped:
        names = ", ".join(repr(name) for name in header.skipped[:20])
        which = f"columns {names} hold" if len(header.skipped) > 1 else f"column {names} holds"
        report.warn(
            line,
            f"{which} text, not numbers, and each row has its own time: "
            "skipped (neither a series nor a label)",
        )
