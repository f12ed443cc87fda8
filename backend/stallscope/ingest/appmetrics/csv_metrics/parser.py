"""Stream a metrics CSV into records, a chunk of lines at a time: points (long form) or rows (wide).

Lines are decoded a chunk at a time. Leading blank and `#` lines before the header are skipped. A
chunk without quotes is read run by run: runs of plain rows of the header's width take the fast path
(`fast`), every other line goes through the C `csv` reader and every rule (`rows`). Once a chunk holds
a quote, the rest of the file goes through one `csv.reader`, so quoted fields may span lines (and
chunks) and the reader's `line_num` stays the file's line number.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import BinaryIO

from stallscope.ingest.appmetrics.common import empty, text_lines
from stallscope.ingest.appmetrics.csv_metrics import fast
from stallscope.ingest.appmetrics.csv_metrics.header import read_header, sniff_delimiter
from stallscope.ingest.appmetrics.csv_metrics.rows import Rows
from stallscope.ingest.appmetrics.timestamps import TimeReader
from stallscope.ingest.model import MetricPoint, MetricRow, ParseError, ParseReport
from stallscope.ingest.text_lines import TextLines

_RUN_LINES = 4096
"""Lines read the fast way at a time: its columns take several times the text's memory."""
Chunk = tuple[int, list[str], bool]
"""The number of its first line, its lines, and whether the csv module would just split them."""


def parse_csv(stream: BinaryIO, report: ParseReport) -> Iterator[MetricPoint | MetricRow]:
    """Yield the records of a metrics CSV read from `stream`, filling `report` as it goes."""
    return chain.from_iterable(_runs(stream, report))


def _runs(stream: BinaryIO, report: ParseReport) -> Iterator[Iterable[MetricPoint | MetricRow]]:
    reader = text_lines(stream)
    chunks = _decoded(reader)
    header_line, text, rest = _header_line(chunks)
    delimiter = sniff_delimiter(text)
    try:
        cells = next(csv.reader([text], delimiter=delimiter))
    except csv.Error as exc:
        raise ParseError(header_line, f"the header is not a CSV row: {exc}") from exc
    header = read_header(cells, header_line)
    rows = Rows(header, reader, TimeReader(report), report)
    for first, lines, plain in chain([rest], chunks):
        if not plain:
            # Quoted fields may span lines: one reader over everything from here on.
            rest_lines = chain(lines, chain.from_iterable(chunk[1] for chunk in chunks))
            yield rows.read(csv.reader(rest_lines, delimiter=delimiter), first - 1)
            return
        for start, end, fits in fast.runs(lines, delimiter, header.width):
            run = lines[start:end] if start or end < len(lines) else lines
            yield from _run(rows, run, delimiter, first + start, fits)


def _run(
    rows: Rows, lines: list[str], delimiter: str, first: int, fits: bool
) -> Iterator[Iterable[MetricPoint | MetricRow]]:
    """A run of plain lines, the fast way if they fit, else (or if the fast way declines) row by row."""
    times, at = rows.times, 0
    while fits and at < len(lines) and times.unit is None and not times.iso:
        # The first time read sets the file's kind (and notes it): the general path reads it.
        yield rows.read(csv.reader(lines[at : at + 1], delimiter=delimiter), first + at - 1)
        at += 1
    for start in range(at, len(lines), _RUN_LINES):
        part = lines[start : start + _RUN_LINES] if start or len(lines) > _RUN_LINES else lines
        records = fast.read_run(rows, part, delimiter, first + start) if fits else None
        if records is None:
            records = rows.read(csv.reader(part, delimiter=delimiter), first + start - 1)
        yield records


def _header_line(chunks: Iterator[Chunk]) -> tuple[int, str, Chunk]:
    """The header's line number and text, and what follows it in its chunk; skips blank and # lines."""
    for first, lines, plain in chunks:
        for at, line in enumerate(lines):
            number = first + at
            text = line.lstrip("\ufeff") if number == 1 else line
            if text.strip() and not text.startswith("#"):
                rest = lines[at + 1 :]
                # The header is read on its own: only the lines after it decide the path.
                return number, text, (number + 1, rest, plain or fast.plain("\n".join(rest)))
    raise empty()


def _decoded(reader: TextLines) -> Iterator[Chunk]:
    for first, block in reader.blocks():
        yield _chunk(first, block)
    last = reader.last_line()  # judged as a row: kept if whole, reported as cut if not
    if last is not None:
        yield _chunk(reader.number, last)


def _chunk(first: int, block: bytes) -> Chunk:
    text = block.decode("utf-8", "replace")
    if "\r" in text:
        text = text.replace("\r\n", "\n").removesuffix("\r")
    return first, text.split("\n"), fast.plain(text)
