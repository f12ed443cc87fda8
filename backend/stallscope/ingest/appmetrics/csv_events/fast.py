"""The fast path through an events CSV: a run of plain rows read a column at a time.

An event per row of fifty bytes leaves about a microsecond and a half per event at 30 MB/s: not
enough for a Python step per cell. So a run of plain rows of the header's width (see `csv_runs`) is
split once, each column converted with one `map` (epoch-integer times, durations, ids, names), and
the events built by one `map` of the layout's generated builder (`event_maker`) over the columns.
Durations written with a fixed number of decimals are read as whole numbers of a finer unit;
counters (`attrs`) that repeat are read once per distinct text. Anything unusual (an ISO time, an
empty or padded name, a duration or id that does not read, or out of range) makes `read_run` return
None, and the run goes the general way (`rows`), which says what is wrong with which line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from itertools import repeat
from operator import mul
from typing import Any

from stallscope.ingest.appmetrics.csv_events.cells import CPU_RANGE, ID_RANGE, attr_value
from stallscope.ingest.appmetrics.csv_events.rows import EventRows
from stallscope.ingest.appmetrics.csv_head import epoch_times
from stallscope.ingest.model import TimedEvent
from stallscope.ingest.value_ranges import INT64_MAX

_FIXED = [re.compile(rf"(?:\d{{1,15}}\.\d{{{n}}}\n)*\d{{1,15}}\.\d{{{n}}}", re.ASCII) for n in range(10)]
"""A column of decimals with `n` digits after the point (n from 1 to 9), a line each."""
_EXACT_BELOW = 1 << 50
"""Below this many nanoseconds (13 days), a float's rounding of `value * scale` (the general way)
gives the same whole number as the decimal digits do."""


def read_run(rows: EventRows, lines: list[str], delimiter: str, first: int) -> Iterable[TimedEvent] | None:
    """The events of plain lines that all have the header's width, the first numbered `first`; None
    when any line needs the general path (the caller then reads them all that way)."""
    layout = rows.layout
    width = layout.width
    cells = delimiter.join(lines).split(delimiter)
    count = len(lines)
    starts = epoch_times(rows.times, cells[layout.time.index :: width])
    if starts is None:
        return None
    names = cells[layout.name :: width]
    if not _clean(names, empty_ok=False):
        return None  # empty, or padded: the general way strips it or says what is wrong
    durations = _durations(cells[layout.duration :: width], layout.duration_scale_ns)
    if durations is None:
        return None
    fields: list[Iterable[object]] = []
    for field in rows.fields:
        column = _field(cells[getattr(layout, field) :: width], field)
        if column is None:
            return None
        fields.append(column)
    counters = [_attr_column(cells[at::width]) for at, _ in layout.attrs]
    make = rows.maker(tuple(i for i, column in enumerate(counters) if None in column))
    return map(make, range(first, first + count), names, starts, durations, *fields, *counters)


def _field(texts: list[str], field: str) -> Iterable[object] | None:
    """A field's column as the general way reads each cell (`rows`); None when one needs it."""
    if field == "comm":
        return texts if _clean(texts, empty_ok=True) else None
    if field == "result":
        return [text.strip() or None for text in texts]
    return _ids(texts, CPU_RANGE if field == "cpu" else ID_RANGE)


def _clean(texts: list[str], empty_ok: bool) -> bool:
    """Whether every text is as the general way would keep it: no padding (and not empty, unless
    `empty_ok`). Names repeat: each distinct one is looked at once."""
    distinct = set(texts)
    return (empty_ok or "" not in distinct) and all(text == text.strip() for text in distinct)


def _durations(texts: list[str], scale_ns: int) -> list[int] | None:
    """A column of durations in nanoseconds, as `cells.duration_ns` reads each (whole numbers exactly,
    fractions rounded); None if any is empty, not a number, negative or too long."""
    whole = _whole_numbers(texts, 0, INT64_MAX // scale_ns)
    if whole is not None:
        return whole if scale_ns == 1 else list(map(mul, whole, repeat(scale_ns)))
    fixed = _fixed_point(texts, scale_ns)
    if fixed is not None:
        return fixed
    try:
        numbers = list(map(float, texts))
    except ValueError:
        return None
    if not math.isfinite(sum(numbers)) or not (min(numbers) >= 0.0 and max(numbers) * scale_ns <= INT64_MAX):
        return None  # a NaN or an infinity makes the sum one
    return list(map(round, map(mul, numbers, repeat(float(scale_ns)))))


def _fixed_point(texts: list[str], scale_ns: int) -> list[int] | None:
    """Durations all written with the same number of decimals (`40.500`, as `printf "%.3f"` writes
    them), read without floats: the digits less the point are a whole number of a finer unit. None
    for anything else, and for sizes where rounding a float (the general way) might not give the same.
    """
    point = texts[0].find(".")
    decimals = len(texts[0]) - point - 1
    if point < 1 or not 0 < decimals < len(_FIXED) or scale_ns % 10**decimals:
        return None
    joined = "\n".join(texts)
    if _FIXED[decimals].fullmatch(joined) is None:
        return None
    values = list(map(int, joined.replace(".", "").split("\n")))
    factor = scale_ns // 10**decimals
    if max(values) * factor >= _EXACT_BELOW:
        return None
    return values if factor == 1 else list(map(mul, values, repeat(factor)))


def _whole_numbers(texts: list[str], low: int, high: int) -> list[int] | None:
    try:
        values = list(map(int, texts))
    except ValueError:
        return None
    if values and not (low <= min(values) and max(values) <= high):
        return None
    return values


def _ids(texts: list[str], bounds: tuple[int, int]) -> Iterable[int] | None:
    """A column of ids, each distinct one read once: a pid is often the same on every row."""
    distinct = list(set(texts))
    values = _whole_numbers(distinct, bounds[0], bounds[1])
    if values is None:
        return None
    if len(values) == 1:
        return repeat(values[0], len(texts))
    return list(map(dict(zip(distinct, values, strict=True)).__getitem__, texts))


def _attr_column(texts: list[str]) -> list[Any]:
    """A column's `attrs` values, as `cells.attr_value` reads each (None for an empty cell).

    Counters often repeat (a block size, a status code): then each distinct text is read once;
    otherwise whole numbers go a column at a time, and anything else cell by cell.
    """
    distinct = set(texts)
    if len(distinct) * 4 <= len(texts):
        return list(map({text: attr_value(text) for text in distinct}.__getitem__, texts))
    try:
        return list(map(int, texts))
    except ValueError:
        pass
    if "" in distinct:
        present = [text for text in texts if text]
        try:
            numbers = iter(list(map(int, present)))
        except ValueError:
            return list(map(attr_value, texts))
        return [next(numbers) if text else None for text in texts]
    return list(map(attr_value, texts))
