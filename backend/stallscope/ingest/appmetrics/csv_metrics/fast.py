"""The fast path through a metrics CSV: a run of plain rows read a column at a time.

A wide CSV holds a value every few bytes, too many to spend a Python step on each. When a run of
lines holds no quotes, NULs or carriage returns (so the `csv` module would just split each at the
delimiter) and every line has the header's field count, the run is split once and each column is
converted with one `map`: epoch-integer times, numbers, names, label sets and units. The points (long
form) or the rows (wide form, one `MetricRow` per line under the header's shared layout) are then
built by one `map` as well. If anything in the run is unusual (an ISO time, a time in another
unit, an empty or non-numeric cell, an empty name) `read_run` returns None and the caller sends the
run the general way, which says what is wrong with which line. The results are the same either way.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable
from itertools import repeat
from operator import mul
from typing import TypeVar

from stallscope.ingest.appmetrics.common import Labels
from stallscope.ingest.appmetrics.csv_metrics.rows import MAX_CACHED, Rows
from stallscope.ingest.appmetrics.units import unit_from_name
from stallscope.ingest.model import MetricPoint, MetricRow

K = TypeVar("K")
V = TypeVar("V")
_SPECIAL = ('"', "\0", "\r")
"""What makes the csv module do more than split a line: quotes, NULs (refused), lone carriage returns."""


def plain(text: str) -> bool:
    """Whether the csv module would read every line of `text` by splitting it at the delimiter."""
    return not any(special in text for special in _SPECIAL)


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


def read_run(
    rows: Rows, lines: list[str], delimiter: str, first: int
) -> Iterable[MetricPoint | MetricRow] | None:
    """The records of plain lines that all have the header's width, first numbered `first`; None when
    any line needs the general path (the caller then reads them all that way)."""
    header = rows.header
    width = header.width
    cells = delimiter.join(lines).split(delimiter)
    times = _times(rows, cells[header.time_index :: width])
    if times is None:
        return None
    count = len(lines)
    if header.name_index is not None:
        return _long(rows, cells, delimiter, times, first, count)
    return _wide(rows, cells, times, first, count)


def _times(rows: Rows, texts: list[str]) -> list[int] | None:
    """Epoch integers in the unit the file's first time set, to nanoseconds; None for anything else.

    Long-form files repeat each time on a row per series: then each distinct text is read once.
    """
    unit = rows.times.unit
    if unit is None or not texts:
        return None
    distinct = set(texts)
    try:
        if len(distinct) * 2 < len(texts):
            values = dict(zip(distinct, map(int, distinct), strict=True))
            magnitudes = list(map(abs, values.values()))
        else:
            values = None
            ints = list(map(int, texts))
            low = min(ints)
            # Epoch times are positive: the extremes are the magnitudes' then, without a list of them.
            magnitudes = [low, max(ints)] if low >= 0 else list(map(abs, ints))
    except ValueError:
        return None
    if not (unit.low <= min(magnitudes) and max(magnitudes) < unit.high):
        return None
    if values is None:
        return list(map(mul, ints, repeat(unit.scale_ns)))
    scaled = dict(zip(values, map(mul, values.values(), repeat(unit.scale_ns)), strict=True))
    return list(map(scaled.__getitem__, texts))


def _long(
    rows: Rows, cells: list[str], delimiter: str, times: list[int], first: int, count: int
) -> Iterable[MetricPoint] | None:
    header = rows.header
    width = header.width
    name_i = header.name_index
    assert name_i is not None
    try:
        values = list(map(float, cells[header.value_index :: width]))
    except ValueError:
        return None
    names = list(map(str.strip, cells[name_i::width]))
    if "" in names:
        return None
    labels: Iterable[Labels] = repeat(())
    if header.label_columns:
        labels = _label_sets(rows, cells, width, delimiter)
    units: Iterable[str | None]
    if header.unit_index is None:
        units = _units(rows, names)
    else:
        unit_of = rows.unit
        units = [
            cell or unit_of(name) for cell, name in zip(cells[header.unit_index :: width], names, strict=True)
        ]
    return map(MetricPoint, range(first, first + count), names, times, values, labels, units)


def _label_sets(rows: Rows, cells: list[str], width: int, delimiter: str) -> list[Labels]:
    """Each row's label set, each distinct set built once.

    Rows are keyed by their label cells joined with the delimiter (which no cell holds): strings, not
    tuples, so that a chunk's keys do not fill the garbage collector's young generation.
    """
    columns = rows.header.label_columns
    if len(columns) == 1:
        keys = cells[columns[0][0] :: width]
    else:
        keys = list(map(delimiter.join, zip(*(cells[i::width] for i, _ in columns), strict=True)))
    return _lookup(rows.joined_label_sets, keys, lambda key: _label_set(columns, key, delimiter))


def _label_set(columns: tuple[tuple[int, str], ...], key: str, delimiter: str) -> Labels:
    cells = key.split(delimiter)
    return tuple(sorted((k, cell) for (_, k), cell in zip(columns, cells, strict=True) if cell))


def _units(rows: Rows, names: list[str]) -> list[str | None]:
    return _lookup(rows.units, names, unit_from_name)


def _lookup(cache: dict[K, V], keys: list[K], make: Callable[[K], V]) -> list[V]:
    """`make(key)` for every key, from the shared cache, adding what it lacks while it has room."""
    missing = set(keys).difference(cache)
    if len(cache) + len(missing) > MAX_CACHED:
        cache = {key: cache[key] if key in cache else make(key) for key in set(keys)}
    else:
        for key in missing:
            cache[key] = make(key)
    return list(map(cache.__getitem__, keys))


def _wide(
    rows: Rows, cells: list[str], times: list[int], first: int, count: int
) -> Iterable[MetricRow] | None:
    header = rows.header
    columns = header.wide
    stride = header.width
    kept = {column.index for column in columns}
    for index in range(stride - 1, -1, -1):  # leave only the series' cells, row after row
        if index not in kept:
            del cells[index::stride]
            stride -= 1
    try:
        values = list(map(float, cells))
    except ValueError:
        return None  # an empty cell (no point), a decimal comma, or a bad value
    per_row = len(columns)
    if not per_row:
        return ()
    row_values = zip(*[iter(values)] * per_row, strict=True)  # a tuple per row, cut in C
    return map(MetricRow, range(first, first + count), times, repeat(rows.wide_series), row_values)
