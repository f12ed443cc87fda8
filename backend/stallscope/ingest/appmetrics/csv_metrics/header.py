"""A metrics CSV's header row: its delimiter, its time column, and long or wide form.

Long form has `name` and `value` columns (any case): one point per row, every other column a label
(`unit`, if present, is the unit). Wide form has one column per series, named by its header; a
header may carry labels the Prometheus way (`latency_ms{host="a"}`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from stallscope.ingest.appmetrics.common import TIME_KEYS, Labels
from stallscope.ingest.appmetrics.units import unit_from_name
from stallscope.ingest.model import ParseError

DELIMITERS = (",", ";", "\t")
_SELECTOR = re.compile(r"\s*([^{}\s][^{}]*?)\s*\{(.*)\}\s*\Z")
_LABEL = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_.\-]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(?:,|\Z)')


def sniff_delimiter(line: str) -> str:
    """The most frequent of `,`, `;` and tab in the header line (comma when there is none)."""
    return max(DELIMITERS, key=line.count) if any(d in line for d in DELIMITERS) else ","


@dataclass(frozen=True, slots=True)
class WideColumn:
    index: int
    name: str
    labels: Labels
    unit: str | None


@dataclass(frozen=True, slots=True)
class Header:
    """Where things are in each row. `name_index` is None for wide form."""

    width: int
    time_index: int
    name_index: int | None = None
    value_index: int = -1
    unit_index: int | None = None
    label_columns: tuple[tuple[int, str], ...] = ()
    wide: tuple[WideColumn, ...] = ()


def read_header(cells: list[str], line: int) -> Header:
    """The layout the header row `cells` sets; ParseError if it has no time column."""
    names = [cell.strip().lstrip("\ufeff") for cell in cells]
    lowered = [name.lower() for name in names]
    time_index = next((lowered.index(key) for key in TIME_KEYS if key in lowered), None)
    if time_index is None:
        raise ParseError(
            line,
            "no time column in the CSV header; name one of "
            + ", ".join(TIME_KEYS)
            + f" (any case); the header has {', '.join(repr(n) for n in names[:20])}",
        )
    width = len(names)
    if "name" in lowered and "value" in lowered:
        name_index, value_index = lowered.index("name"), lowered.index("value")
        unit_index = lowered.index("unit") if "unit" in lowered else None
        taken = {time_index, name_index, value_index, unit_index}
        labels = tuple((i, names[i]) for i in range(width) if i not in taken and names[i])
        return Header(width, time_index, name_index, value_index, unit_index, labels)
    wide = tuple(_wide_column(i, names[i]) for i in range(width) if i != time_index and names[i])
    if not wide:
        raise ParseError(
            line,
            "the CSV header has a time column but no series: "
            "add `name` and `value` columns, or one column per series",
        )
    return Header(width, time_index, wide=wide)


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
