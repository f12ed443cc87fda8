"""A metrics CSV's header row: its time column, and long or wide form.

Long form has `name` and `value` columns (any case): one point per row, every other column a label
(`unit`, if present, is the unit). Wide form has one column per series, named by its header; a
header may carry labels the Prometheus way (`latency_ms{host="a"}`). The time column is found by the
rules of `time_columns`, from the names and the first rows.

A column whose first rows hold mostly text (`running`, `db1`) is not a series. When rows share a time
(`time,cpu,user,system` with a row per CPU, or per state, per event), the text is what tells those
rows apart: such columns are labels, and so are numeric columns named like an identifier (`cpu`,
`pid`, `device`). When each row has its own time, a text column tells nothing apart and would make a
series per distinct text (a `message` column): it is skipped, with one warning naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from stallscope.ingest.appmetrics.common import Labels
from stallscope.ingest.appmetrics.csv_head import (
    DELIMITERS,
    column_samples,
    is_missing,
    is_number,
    sniff_delimiter,
)
from stallscope.ingest.appmetrics.time_columns import TimeColumn, find_time_column, is_time_name
from stallscope.ingest.appmetrics.units import unit_from_name
from stallscope.ingest.model import ParseError

__all__ = ["DELIMITERS", "Header", "WideColumn", "read_header", "sniff_delimiter"]

_SELECTOR = re.compile(r"\s*([^{}\s][^{}]*?)\s*\{(.*)\}\s*\Z")
_LABEL = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_.\-]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(?:,|\Z)')
IDENTIFIER_NAMES = frozenset(
    {
        "cpu",
        "core",
        "pid",
        "tid",
        "uid",
        "device",
        "dev",
        "disk",
        "iface",
        "interface",
        "host",
        "hostname",
        "instance",
        "node",
        "irq",
        "shard",
    }
)
"""Numeric columns that name a thing rather than measure it: labels when rows share a time."""


@dataclass(frozen=True, slots=True)
class WideColumn:
    index: int
    name: str
    labels: Labels
    unit: str | None


@dataclass(frozen=True, slots=True)
class Header:
    """Where things are in each row. `name_index` is None for wide form; `label_columns` are the
    label cells of either form; `skipped` the text columns wide form leaves out."""

    width: int
    time_index: int
    name_index: int | None = None
    value_index: int = -1
    unit_index: int | None = None
    label_columns: tuple[tuple[int, str], ...] = ()
    wide: tuple[WideColumn, ...] = ()
    time: TimeColumn | None = None
    skipped: tuple[str, ...] = ()


def read_header(
    names: list[str], line: int, samples: list[list[str]] | None = None, time_column: str | None = None
) -> Header:
    """The layout the header row's `names` set, with the first rows under it (`samples`) to tell
    text columns and find the time; ParseError if it has no time column (or not `time_column`)."""
    rows = samples or []
    width = len(names)
    columns = column_samples(rows, width)
    time = find_time_column(names, columns, time_column, line)
    time_index = time.index
    lowered = [name.lower() for name in names]
    if "name" in lowered and "value" in lowered:
        name_index, value_index = lowered.index("name"), lowered.index("value")
        unit_index = lowered.index("unit") if "unit" in lowered else None
        taken = {time_index, name_index, value_index, unit_index}
        labels = tuple((i, names[i]) for i in range(width) if i not in taken and names[i])
        return Header(width, time_index, name_index, value_index, unit_index, labels, time=time)
    shared_times = len({row[time_index] for row in rows}) < len(rows)
    label_columns: list[tuple[int, str]] = []
    skipped: list[str] = []
    wide: list[WideColumn] = []
    for i, name in enumerate(names):
        if i == time_index or not name:
            continue
        text = _holds_text(columns[i])
        if text and is_time_name(name):
            skipped.append(name)  # another time (a date beside the time): neither a series nor a label
        elif shared_times and (text or lowered[i] in IDENTIFIER_NAMES):
            label_columns.append((i, name))
        elif text:
            skipped.append(name)
        else:
            wide.append(_wide_column(i, name))
    if not wide:
        held = f" (text in {', '.join(repr(n) for n in skipped[:10])})" if skipped else ""
        raise ParseError(
            line,
            f"the CSV header has a time column ({time.name!r}) but no series{held}: "
            "add `name` and `value` columns, or one column of numbers per series",
        )
    return Header(
        width,
        time_index,
        label_columns=tuple(label_columns),
        wide=tuple(wide),
        time=time,
        skipped=tuple(skipped),
    )


def _holds_text(cells: list[str]) -> bool:
    """Whether most of a column's first values are text: one bad number does not make a column text
    (its row is dropped, with a warning), and `all` among CPU numbers is told by the column's name."""
    present = [cell for cell in cells if not is_missing(cell)]
    return sum(not is_number(cell) for cell in present) * 2 > len(present)


def _wide_column(index: int, header: str) -> WideColumn:
    selector = _SELECTOR.match(header)
    if selector is None:
        return WideColumn(index, header, (), unit_from_name(header))
    name, body = selector.group(1), selector.group(2)
    pairs: list[tuple[str, str]] = []
    at = 0
    while at < len(body.rstrip()):
        label = _LABEL.match(body, at)
        if label is None:  # not a label list after all: keep the header whole as the name
            return WideColumn(index, header, (), unit_from_name(header))
        pairs.append((label.group(1), label.group(2).replace('\\"', '"').replace("\\\\", "\\")))
        at = label.end()
    return WideColumn(index, name, tuple(sorted(pairs)), unit_from_name(name))
