"""What the CSV importers share: lines decoded a chunk at a time, the delimiter, the header row and
the first rows under it (what the column rules look at), and the fast path's time column.

Leading blank and `#` lines are skipped, except a `#` line that is the header: `sadf -d` writes
`# hostname;interval;timestamp;CPU;%user…` right above its rows. Such a comment is the header when the
line after it is a row (it holds a number) with as many fields as the comment has names.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from itertools import islice, repeat
from operator import mul

from stallscope.ingest.appmetrics.common import empty
from stallscope.ingest.appmetrics.timestamps import TimeReader
from stallscope.ingest.model import ParseError
from stallscope.ingest.text_lines import TextLines

DELIMITERS = (",", ";", "\t")
MISSING = frozenset({"-", "--", "n/a", "na", "null", "none", "?"})
"""Cells that mean "no value" (lower case), as empty cells do: not text, and no point."""
_SPECIAL = ('"', "\0", "\r")
"""What makes the csv module do more than split a line: quotes, NULs (refused), lone carriage returns."""
SAMPLE_ROWS = 100
Chunk = tuple[int, list[str], bool]
"""The number of its first line, its lines, and whether the csv module would just split them."""


def sniff_delimiter(line: str) -> str:
    """The most frequent of `,`, `;` and tab in the header line (comma when there is none)."""
    return max(DELIMITERS, key=line.count) if any(d in line for d in DELIMITERS) else ","


def plain(text: str) -> bool:
    """Whether the csv module would read every line of `text` by splitting it at the delimiter."""
    return not any(special in text for special in _SPECIAL)


def is_number(cell: str) -> bool:
    """A cell that reads as a number, decimal comma allowed (as the importers read values)."""
    try:
        float(cell)
    except ValueError:
        try:
            float(cell.replace(",", "."))
        except ValueError:
            return False
    return True


def is_missing(cell: str) -> bool:
    stripped = cell.strip()
    return not stripped or stripped.lower() in MISSING


def cells_of(line: str, delimiter: str) -> list[str]:
    """One line's fields ([] when the csv module refuses the line)."""
    try:
        return next(csv.reader([line.rstrip("\r")], delimiter=delimiter), [])
    except csv.Error:
        return []


def comment_header(comment: str, row: str, delimiter: str) -> list[str] | None:
    """The names of a `#` comment line that heads the row after it (`sadf -d`), else None."""
    names = cells_of(comment.lstrip("#").strip(), delimiter)
    fields = cells_of(row, delimiter)
    if len(names) < 2 or len(names) != len(fields) or not any(is_number(f) for f in fields):
        return None
    if not all(name.strip() and not is_number(name) for name in names):
        return None
    return names


def header_line(chunks: Iterator[Chunk]) -> tuple[int, str, Chunk]:
    """The header's line number and text (a commented header without its `#`), and what follows it
    in its chunk; skips blank and `#` lines."""
    comment: tuple[int, str] | None = None
    for first, lines, is_plain in chunks:
        for at, line in enumerate(lines):
            number = first + at
            text = line.lstrip("\ufeff") if number == 1 else line
            if not text.strip():
                comment = None
                continue
            if text.startswith("#"):
                comment = (number, text)
                continue
            if comment is not None and comment[0] == number - 1:
                names = comment_header(comment[1], text, sniff_delimiter(comment[1]))
                if names is not None:
                    rest = lines[at:]
                    header = comment[1].lstrip("#").strip()
                    return comment[0], header, (number, rest, is_plain or plain("\n".join(rest)))
            rest = lines[at + 1 :]
            # The header is read on its own: only the lines after it decide the path.
            return number, text, (number + 1, rest, is_plain or plain("\n".join(rest)))
    raise empty()


def header_cells(text: str, line: int, delimiter: str) -> list[str]:
    """The header row's names, cleaned of spaces and byte-order marks."""
    try:
        cells = next(csv.reader([text], delimiter=delimiter))
    except csv.Error as exc:
        raise ParseError(line, f"the header is not a CSV row: {exc}") from exc
    return [cell.strip().lstrip("\ufeff") for cell in cells]


def sample_rows(lines: list[str], delimiter: str, width: int) -> list[list[str]]:
    """Up to `SAMPLE_ROWS` rows of the header's width from the lines after it, for the column rules."""
    texts = (line for line in lines if line.strip() and not line.startswith("#"))
    try:
        rows = [
            row for row in islice(csv.reader(texts, delimiter=delimiter), SAMPLE_ROWS) if len(row) == width
        ]
    except csv.Error:
        return []
    return rows


def column_samples(rows: list[list[str]], width: int) -> list[list[str]]:
    """The sampled rows as columns."""
    return [[row[i] for row in rows] for i in range(width)]


def sniff_table(head: bytes, max_lines: int = 50) -> tuple[list[str], list[list[str]]] | None:
    """The header names and the first rows of a CSV head, for `detect`; None unless it starts like
    a table: a row of at least two names split by `,`, `;` or tab (not JSON)."""
    lines = head.decode("utf-8", "replace").split("\n", max_lines)[:max_lines]
    at = 0
    while at < len(lines) and (not lines[at].strip() or lines[at].lstrip("\ufeff").startswith("#")):
        at += 1
    if at == len(lines) or lines[at].lstrip("\ufeff \t").startswith(("{", "[")):
        return None
    header = lines[at].lstrip("\ufeff")
    comment = lines[at - 1].lstrip("\ufeff") if at and lines[at - 1].strip() else None
    if comment is not None and comment_header(comment, header, sniff_delimiter(comment)) is not None:
        header, at = comment.lstrip("#").strip(), at - 1
    delimiter = sniff_delimiter(header)
    if delimiter not in header:
        return None
    names = [cell.strip().lstrip("\ufeff") for cell in cells_of(header, delimiter)]
    if len(names) < 2:
        return None
    rows = [
        cells_of(line, delimiter) for line in lines[at + 1 :] if line.strip() and not line.startswith("#")
    ]
    return names, rows


def epoch_times(reader: TimeReader, texts: list[str]) -> list[int] | None:
    """A column of epoch integers in the file's unit (set by its first time) in nanoseconds; None for
    anything else (ISO text, fractions, another unit), which the general path reads or drops.

    Long-form files repeat each time on a row per series: then each distinct text is read once
    (judged on the first rows, so that a column of distinct times is not put in a set for nothing).
    """
    if reader.unit is None or not texts:
        return None
    low, high, scale = reader.low, reader.high, reader.scale_ns
    sample = texts[:256]  # a time per row (wide, events) or a few rows per time (long)
    try:
        if len(set(sample)) * 2 < len(sample):
            distinct = set(texts)
            values = dict(zip(distinct, map(int, distinct), strict=True))
            extremes = [min(values.values()), max(values.values())]
        else:
            values = None
            ints = list(map(int, texts))
            extremes = [min(ints), max(ints)]
    except ValueError:
        return None
    # `low` is never negative: a run with a negative time goes the general way, which checks its range.
    if not (low <= extremes[0] and extremes[1] < high):
        return None
    if values is None:
        return list(map(mul, ints, repeat(scale)))
    scaled = dict(zip(values, map(mul, values.values(), repeat(scale)), strict=True))
    return list(map(scaled.__getitem__, texts))


def decoded(reader: TextLines) -> Iterator[Chunk]:
    """The file's lines a chunk at a time, the last line (without its newline) as a chunk of its own."""
    for first, block in reader.blocks():
        yield _chunk(first, block)
    last = reader.last_line()  # judged as a row: kept if whole, reported as cut if not
    if last is not None:
        yield _chunk(reader.number, last)


def _chunk(first: int, block: bytes) -> Chunk:
    text = block.decode("utf-8", "replace")
    if "\r" in text:
        text = text.replace("\r\n", "\n").removesuffix("\r")
    return first, text.split("\n"), plain(text)
