"""The fast path through a metrics CSV: a run of plain rows read a column at a time.

A wide CSV holds a value every few bytes, too many to spend a Python step on each. When a run of
lines holds no quotes, NULs or carriage returns (so the `csv` module would just split each at the
delimiter) and every line has the header's field count, the run is split once and each column is
converted with one `map`: epoch-integer times, numbers, names, label sets and units. A column whose
values repeat (percentages to two places, counts) is read through a cache by text, each distinct text
converted once; one of mostly new values goes through `float()` as it is. The points (long
form) or the rows (wide form, one `MetricRow` per line under the header's layout, one layout per
label set when the file has label columns) are then built by one `map` as well. If anything in the
run is unusual (an ISO time, a time in another unit, an empty or non-numeric cell, an empty name)
`read_run` returns None and the caller sends the run the general way, which says what is wrong with
which line. The results are the same either way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import repeat
from typing import TypeVar

from stallscope.ingest.appmetrics.common import Labels
from stallscope.ingest.appmetrics.csv_head import epoch_times
from stallscope.ingest.appmetrics.csv_metrics.rows import MAX_CACHED, MAX_NUMBERS, Numbers, Rows
from stallscope.ingest.appmetrics.units import unit_from_name
from stallscope.ingest.model import MetricPoint, MetricRow, RowSeries

NUMBER_SAMPLE = 128
"""Values of a column looked at to judge whether its values repeat."""

K = TypeVar("K")
V = TypeVar("V")


def read_run(
    rows: Rows, lines: list[str], delimiter: str, first: int
) -> Iterable[MetricPoint | MetricRow] | None:
    """The records of plain lines that all have the header's width, first numbered `first`; None when
    any line needs the general path (the caller then reads them all that way)."""
    header = rows.header
    width = header.width
    cells = delimiter.join(lines).split(delimiter)
    times = epoch_times(rows.times, cells[header.time_index :: width])
    if times is None:
        return None
    count = len(lines)
    if header.name_index is not None:
        return _long(rows, cells, delimiter, times, first, count)
    return _wide(rows, cells, delimiter, times, first, count)


def _long(
    rows: Rows, cells: list[str], delimiter: str, times: list[int], first: int, count: int
) -> Iterable[MetricPoint] | None:
    header = rows.header
    width = header.width
    name_i = header.name_index
    assert name_i is not None
    try:
        values = _numbers(rows.numbers, cells[header.value_index :: width])
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
    keys = _label_keys(columns, cells, width, delimiter)
    return _lookup(rows.joined_label_sets, keys, lambda key: _label_set(columns, key, delimiter))


def _label_keys(
    columns: tuple[tuple[int, str], ...], cells: list[str], width: int, delimiter: str
) -> list[str]:
    """Each row's label cells as one string (joined with the delimiter, which no cell holds)."""
    if len(columns) == 1:
        return cells[columns[0][0] :: width]
    return list(map(delimiter.join, zip(*(cells[i::width] for i, _ in columns), strict=True)))


def _label_set(columns: tuple[tuple[int, str], ...], key: str, delimiter: str) -> Labels:
    cells = key.split(delimiter)
    return tuple(sorted((k, cell) for (_, k), cell in zip(columns, cells, strict=True) if cell))


def _numbers(cache: Numbers, texts: list[str]) -> list[float]:
    """`float()` of every text (ValueError if one is not a number), through the cache when most of
    the column's first texts are in it or repeat among themselves.

    Those first texts are kept either way (while there is room), so that a column whose values come
    round again over later runs (a percentage to one place) finds them there; a column of mostly new
    values goes straight through `float()`, which a cache would only slow down.
    """
    sample = texts[:NUMBER_SAMPLE]
    new = [text for text in set(sample) if text not in cache]
    if len(new) * 2 > len(sample):
        if len(cache) + len(new) <= MAX_NUMBERS:
            for text in new:
                cache[text]  # read and kept
        return list(map(float, texts))
    return list(map(cache.__getitem__, texts))


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
    rows: Rows, cells: list[str], delimiter: str, times: list[int], first: int, count: int
) -> Iterable[MetricRow] | None:
    header = rows.header
    columns = header.wide
    stride = header.width
    series: Iterable[RowSeries] = repeat(rows.wide_series)
    label_columns = header.label_columns
    if label_columns:  # a layout per label set, each built once and found by the row's label cells
        keys = _label_keys(label_columns, cells, stride, delimiter)
        series = _lookup(
            rows.joined_series, keys, lambda key: rows.series_for(_label_set(label_columns, key, delimiter))
        )
    per_row = len(columns)
    if not per_row:
        return ()
    try:  # a column at a time: each column's values repeat (or not) in their own way
        value_columns = [_numbers(rows.numbers, cells[column.index :: stride]) for column in columns]
    except ValueError:
        return None  # an empty cell (no point), a decimal comma, or a bad value
    row_values = zip(*value_columns, strict=True)  # a tuple per row, built in C
    return map(MetricRow, range(first, first + count), times, series, row_values)
