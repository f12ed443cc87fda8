"""The way through a CSV table's rows, for the CSV importers: the fast way where it can, else row by row.

A chunk without quotes is read run by run: runs of plain rows of the header's width go to the
importer's fast path (a run split at once and converted a column at a time), every other line to its
general path (the C `csv` reader, every rule, a warning per bad line), as does any run the fast path
declines. Once a chunk holds a quote, the rest of the file goes through one `csv.reader`, so quoted
fields may span lines (and chunks) and the reader's `line_num` stays the file's line number.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Iterator
from itertools import chain, repeat
from typing import TYPE_CHECKING, TypeVar

from stallscope.ingest.appmetrics.common import cut, drop
from stallscope.ingest.appmetrics.csv_head import Chunk
from stallscope.ingest.appmetrics.timestamps import TimeReader
from stallscope.ingest.model import ParseReport
from stallscope.ingest.text_lines import TextLines

if TYPE_CHECKING:
    from _csv import Reader

R = TypeVar("R")
General = Callable[["Reader", int], Iterable[R]]
"""(csv rows, the number of the line before the first) -> their records, every rule checked."""
Fast = Callable[[list[str], str, int], Iterable[R] | None]
"""(plain lines of the header's width, the delimiter, the first's number) -> records, or None."""
RUN_LINES = 4096
"""Lines read the fast way at a time: its columns take several times the text's memory."""


def table_records(
    rest: Chunk,
    chunks: Iterator[Chunk],
    delimiter: str,
    width: int,
    times: TimeReader,
    general: General[R],
    fast: Fast[R],
) -> Iterator[Iterable[R]]:
    """The records of the rows after the header (`rest` of its chunk, then `chunks`), run by run."""
    for first, lines, plain in chain([rest], chunks):
        if not plain:
            # Quoted fields may span lines: one reader over everything from here on.
            rest_lines = chain(lines, chain.from_iterable(chunk[1] for chunk in chunks))
            yield general(csv.reader(rest_lines, delimiter=delimiter), first - 1)
            return
        for start, end, fits in runs(lines, delimiter, width):
            run = lines[start:end] if start or end < len(lines) else lines
            yield from _run(run, delimiter, first + start, fits, times, general, fast)


def _run(
    lines: list[str],
    delimiter: str,
    first: int,
    fits: bool,
    times: TimeReader,
    general: General[R],
    fast: Fast[R],
) -> Iterator[Iterable[R]]:
    """A run of plain lines, the fast way if they fit, else (or if the fast way declines) row by row."""
    at = 0
    while fits and at < len(lines) and times.unit is None and not times.iso:
        # The first time read sets the file's kind (and notes it): the general path reads it.
        yield general(csv.reader(lines[at : at + 1], delimiter=delimiter), first + at - 1)
        at += 1
    for start in range(at, len(lines), RUN_LINES):
        part = lines[start : start + RUN_LINES] if start or len(lines) > RUN_LINES else lines
        records = fast(part, delimiter, first + start) if fits else None
        if records is None:
            records = general(csv.reader(part, delimiter=delimiter), first + start - 1)
        yield records


def runs(lines: list[str], delimiter: str, width: int) -> list[tuple[int, int, bool]]:
    """(start, end, fits) runs of `lines`: `fits` runs have the header's field count on every line.

    Call only for plain text.
    """
    counts = list(map(str.count, lines, repeat(delimiter)))
    want = width - 1
    limit = csv.field_size_limit()
    if counts.count(want) == len(counts) and max(map(len, lines), default=0) < limit:
        return [(0, len(lines), True)]
    found: list[tuple[int, int, bool]] = []
    for at, count in enumerate(counts):
        fits = count == want and len(lines[at]) < limit
        if found and found[-1][2] == fits:
            continue
        if found:
            found[-1] = (found[-1][0], at, found[-1][2])
        found.append((at, len(lines), fits))
    return found


def checked(rows: Reader, offset: int, report: ParseReport) -> Iterator[list[str]]:
    """The rows, skipping (with a warning) those the csv module refuses; it reads on after one."""
    while True:
        try:
            yield from rows
        except csv.Error as exc:
            drop(report, offset + rows.line_num, f"not CSV: {exc}")
        else:
            return


def fits(row: list[str], line: int, width: int, reader: TextLines, report: ParseReport) -> bool:
    """Whether a row has the header's width; if not, a short last line is reported as cut, any other
    line dropped with a warning (a blank one silently)."""
    if len(row) == width:
        return True
    if reader.cut_tail and line == reader.number:
        cut(report, line)
    elif row and any(row):
        drop(report, line, f"expected {width} fields as in the header, found {len(row)}")
    return False
