"""Stream a metrics CSV into points, one row at a time through the C `csv` reader.

Lines are decoded a chunk at a time and fed to one `csv.reader`, so quoted fields may span lines and
the reader's `line_num` is the file's line number. Leading blank and `#` lines before the header are
skipped. A row that does not fit (wrong field count, bad time, a value that is not a number) is
dropped with a warning naming its line; in wide form an empty cell just means no point. A last line
without its newline is kept if it reads as a whole row, and reported as cut otherwise.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from itertools import chain
from operator import itemgetter
from typing import TYPE_CHECKING, BinaryIO

from stallscope.ingest.appmetrics.common import Labels, cut, drop, empty
from stallscope.ingest.appmetrics.csv_metrics.header import Header, read_header, sniff_delimiter
from stallscope.ingest.appmetrics.lines import LineReader
from stallscope.ingest.appmetrics.timestamps import BadTime, TimeReader
from stallscope.ingest.appmetrics.units import unit_from_name
from stallscope.ingest.model import MetricPoint, ParseReport

if TYPE_CHECKING:
    from _csv import Reader

_MAX_CACHED_LABELS = 100_000


def parse_csv(stream: BinaryIO, report: ParseReport) -> Iterator[MetricPoint]:
    """Yield the points of a metrics CSV read from `stream`, filling `report` as it goes."""
    reader = LineReader(stream)
    lines = chain.from_iterable(_decoded(reader))
    header_line = 0
    for header_line, line in enumerate(lines, 1):
        text = line.lstrip("\ufeff") if header_line == 1 else line
        if text.strip() and not text.startswith("#"):
            break
    else:
        raise empty()
    delimiter = sniff_delimiter(text)
    cells = next(csv.reader([text], delimiter=delimiter))
    header = read_header(cells, header_line)
    rows = csv.reader(lines, delimiter=delimiter)
    times = TimeReader(report)
    read_row = _long_rows if header.name_index is not None else _wide_rows
    yield from read_row(rows, header, header_line, reader, times, report)


def _decoded(reader: LineReader) -> Iterator[list[str]]:
    for chunk in reader.chunks():
        text = b"\n".join(chunk).decode("utf-8", "replace")
        if "\r" in text:
            text = text.replace("\r\n", "\n").removesuffix("\r")
        yield text.split("\n")


def _checked(rows: Reader, offset: int, report: ParseReport) -> Iterator[list[str]]:
    """The rows, skipping (with a warning) those the csv module refuses; it reads on after one."""
    while True:
        try:
            yield from rows
        except csv.Error as exc:
            drop(report, offset + rows.line_num, f"not CSV: {exc}")
        else:
            return


def _fits(row: list[str], header: Header, line: int, reader: LineReader, report: ParseReport) -> bool:
    """Whether the row has the header's width; a short last line is reported as cut."""
    if len(row) == header.width:
        return True
    if reader.cut_tail and line == reader.number:
        cut(report, line)
    elif row and any(row):
        drop(report, line, f"expected {header.width} fields as in the header, found {len(row)}")
    return False


def _long_rows(
    rows: Reader, header: Header, offset: int, reader: LineReader, times: TimeReader, report: ParseReport
) -> Iterator[MetricPoint]:
    time_i, name_i, value_i, unit_i = (
        header.time_index,
        header.name_index,
        header.value_index,
        header.unit_index,
    )
    assert name_i is not None
    label_columns = header.label_columns
    label_key = itemgetter(*[i for i, _ in label_columns]) if label_columns else None
    label_cache: dict[object, Labels] = {}
    units: dict[str, str | None] = {}
    for row in _checked(rows, offset, report):
        line = offset + rows.line_num
        if len(row) != header.width and not _fits(row, header, line, reader, report):
            continue
        try:
            time_ns = times.text(row[time_i], line)
            value = _number(row[value_i])
        except BadTime as exc:
            drop(report, line, str(exc))
            continue
        except ValueError:
            drop(report, line, f"value {row[value_i]!r} is not a number")
            continue
        name = row[name_i].strip()
        if not name:
            drop(report, line, "the name is empty")
            continue
        labels: Labels = ()
        if label_key is not None:
            key = label_key(row)
            found = label_cache.get(key)
            if found is None:
                found = tuple(sorted((k, row[i]) for i, k in label_columns if row[i]))
                if len(label_cache) < _MAX_CACHED_LABELS:
                    label_cache[key] = found
            labels = found
        if unit_i is not None and row[unit_i]:
            unit: str | None = row[unit_i]
        elif name in units:
            unit = units[name]
        else:
            unit = unit_from_name(name)
            if len(units) < _MAX_CACHED_LABELS:
                units[name] = unit
        yield MetricPoint(line, name, time_ns, value, labels, unit)


def _wide_rows(
    rows: Reader, header: Header, offset: int, reader: LineReader, times: TimeReader, report: ParseReport
) -> Iterator[MetricPoint]:
    time_i, columns = header.time_index, header.wide
    for row in _checked(rows, offset, report):
        line = offset + rows.line_num
        if len(row) != header.width and not _fits(row, header, line, reader, report):
            continue
        try:
            time_ns = times.text(row[time_i], line)
        except BadTime as exc:
            drop(report, line, str(exc))
            continue
        points: list[MetricPoint] = []
        for column in columns:
            cell = row[column.index]
            if not cell:
                continue
            try:
                value = _number(cell)
            except ValueError:
                drop(report, line, f"{cell!r} under {column.name!r} is not a number")
                break
            points.append(MetricPoint(line, column.name, time_ns, value, column.labels, column.unit))
        else:
            yield from points


def _number(cell: str) -> float:
    """A cell as a float, allowing the decimal comma of `;`-separated files from some locales."""
    try:
        return float(cell)
    except ValueError:
        if "," not in cell:
            raise
        return float(cell.replace(",", "."))
