"""The upload's `time_column` option: which column (or JSON key) holds the time, for the importers
that look for one.

The rules of `time_columns` find the time in most files; when they pick the wrong column, or none,
the person uploading names it, and that name wins. The option travels with the capture (its `clock`
JSON, like the other facts about how to read its times), so a re-parse reads it the same way. An
importer of another format has no time column to choose: the option is ignored, with a note.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from typing import BinaryIO

from stallscope.ingest.appmetrics.csv_events import parse_events_csv
from stallscope.ingest.appmetrics.csv_metrics import parse_csv
from stallscope.ingest.appmetrics.jsonl_metrics import parse_jsonl
from stallscope.ingest.model import ParseReport, Record
from stallscope.ingest.registry import Importer

TIME_COLUMN_KEY = "time_column"
"""Where the option is kept in a capture's `clock` JSON."""

ParseWithTime = Callable[[BinaryIO, ParseReport, str | None], Iterator[Record]]
TAKES_TIME_COLUMN: dict[str, ParseWithTime] = {
    "metrics-csv": parse_csv,
    "events-csv": parse_events_csv,
    "metrics-jsonl": parse_jsonl,
}
"""The formats whose files have a time column to choose, by importer name."""


def with_time_column(importer: Importer, time_column: str | None) -> Importer:
    """`importer`, reading its time from `time_column` when one is given (and the format has columns)."""
    if not time_column:
        return importer
    parse = TAKES_TIME_COLUMN.get(importer.name)
    if parse is None:
        return replace(importer, parse=partial(_ignoring, importer, time_column))
    return replace(importer, parse=partial(_reading, parse, time_column))


def _reading(
    parse: ParseWithTime, time_column: str, stream: BinaryIO, report: ParseReport
) -> Iterator[Record]:
    return parse(stream, report, time_column)


def _ignoring(
    importer: Importer, time_column: str, stream: BinaryIO, report: ParseReport
) -> Iterator[Record]:
    report.warn(0, f"time column {time_column!r} given, but {importer.name} files have no columns: ignored")
    return importer.parse(stream, report)
