"""The general way through a metrics CSV: row by row from the C `csv` reader, every rule checked.

A row that does not fit (wrong field count, bad time, a value that is not a number) is dropped with a
warning naming its line; in wide form an empty cell (or `-`, `n/a`, `null`…) just means no point. A
wide row with every cell filled is one `MetricRow` under the header's layout (the row's label set's,
when the file has label columns); one with empty cells is the points it has. A last line without its
newline is kept if it reads as a whole row, and reported as cut otherwise. The fast path (`fast`)
reads plain rows of a chunk at once and leaves every other row here; the caches are shared.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import itemgetter
from typing import TYPE_CHECKING

from stallscope.ingest.appmetrics.common import Labels, drop
from stallscope.ingest.appmetrics.csv_head import is_missing
from stallscope.ingest.appmetrics.csv_metrics.header import Header
from stallscope.ingest.appmetrics.csv_runs import checked, fits
from stallscope.ingest.appmetrics.timestamps import BadTime, TimeReader
from stallscope.ingest.appmetrics.units import unit_from_name
from stallscope.ingest.model import MetricPoint, MetricRow, ParseReport, RowSeries
from stallscope.ingest.text_lines import TextLines

if TYPE_CHECKING:
    from _csv import Reader

MAX_CACHED = 100_000
MAX_NUMBERS = 16_384
"""Distinct value texts kept per file: percentages to two places are 10,001."""


class Numbers(dict[str, float]):
    """Values by their text: looking up a text it lacks reads it (ValueError if it is not a number)
    and keeps it while there is room, so a column of repeated texts is read by one `map` of lookups."""

    def __missing__(self, text: str) -> float:
        value = float(text)
        if len(self) < MAX_NUMBERS:
            self[text] = value
        return value


class Rows:
    """One file's rows under its header, with what repeats (label sets, units) worked out once."""

    def __init__(self, header: Header, reader: TextLines, times: TimeReader, report: ParseReport) -> None:
        self.header = header
        self.reader = reader
        self.times = times
        self.report = report
        label_columns = header.label_columns
        self.label_key = itemgetter(*[i for i, _ in label_columns]) if label_columns else None
        self.label_sets: dict[object, Labels] = {}
        """Label sets by the label cells (a tuple of them, or the one cell when there is one column)."""
        self.joined_label_sets: dict[str, Labels] = {}
        """The same, for the fast path: by the label cells joined with the delimiter."""
        self.numbers = Numbers()
        """Values by their text, for the fast path when a file's values repeat."""
        self.units: dict[str, str | None] = {}
        """Units by series name, for names whose row has no unit cell."""
        wide = header.wide
        self.wide_series = RowSeries(
            tuple(column.name for column in wide),
            tuple(column.labels for column in wide),
            tuple(column.unit for column in wide),
        )
        """The columns of a wide row, shared by every row (with no label columns)."""
        self.labelled_series: dict[Labels, RowSeries] = {}
        """The columns of a wide row by the row's label set, when the file has label columns."""
        self.joined_series: dict[str, RowSeries] = {}
        """The same, for the fast path: by the label cells joined with the delimiter (a string's hash
        is kept, a label set's is worked out again at every lookup)."""

    def read(self, rows: Reader, offset: int) -> Iterator[MetricPoint | MetricRow]:
        """The records of `rows`, whose first line is line `offset + 1` of the file."""
        if self.header.name_index is not None:
            return self._long(rows, offset)
        return self._wide(rows, offset)

    def labels(self, key: object, row: list[str]) -> Labels:
        """The label set of a long-form row whose label cells are `key`."""
        found = self.label_sets.get(key)
        if found is None:
            found = tuple(sorted((k, row[i]) for i, k in self.header.label_columns if row[i]))
            if len(self.label_sets) < MAX_CACHED:
                self.label_sets[key] = found
        return found

    def series_for(self, labels: Labels) -> RowSeries:
        """The columns of a wide row whose label cells give `labels` (each column's own added)."""
        found = self.labelled_series.get(labels)
        if found is None:
            base = self.wide_series
            merged = tuple(tuple(sorted(labels + own)) if own else labels for own in base.labels)
            found = RowSeries(base.names, merged, base.units)
            if len(self.labelled_series) < MAX_CACHED:
                self.labelled_series[labels] = found
        return found

    def unit(self, name: str) -> str | None:
        """The unit a series name implies."""
        if name in self.units:
            return self.units[name]
        unit = unit_from_name(name)
        if len(self.units) < MAX_CACHED:
            self.units[name] = unit
        return unit

    def _fits(self, row: list[str], line: int) -> bool:
        """Whether the row has the header's width; a short last line is reported as cut."""
        return fits(row, line, self.header.width, self.reader, self.report)

    def _long(self, rows: Reader, offset: int) -> Iterator[MetricPoint]:
        header, times, report, label_key = self.header, self.times, self.report, self.label_key
        time_i, name_i, value_i, unit_i = (
            header.time_index,
            header.name_index,
            header.value_index,
            header.unit_index,
        )
        assert name_i is not None
        for row in checked(rows, offset, report):
            line = offset + rows.line_num
            if len(row) != header.width and not self._fits(row, line):
                continue
            try:
                time_ns = times.text(row[time_i], line)
                value = number(row[value_i])
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
            labels = self.labels(label_key(row), row) if label_key is not None else ()
            unit = row[unit_i] if unit_i is not None and row[unit_i] else self.unit(name)
            yield MetricPoint(line, name, time_ns, value, labels, unit)

    def _wide(self, rows: Reader, offset: int) -> Iterator[MetricPoint | MetricRow]:
        header, times, report, series = self.header, self.times, self.report, self.wide_series
        time_i, columns, label_key = header.time_index, header.wide, self.label_key
        for row in checked(rows, offset, report):
            line = offset + rows.line_num
            if len(row) != header.width and not self._fits(row, line):
                continue
            try:
                time_ns = times.text(row[time_i], line)
            except BadTime as exc:
                drop(report, line, str(exc))
                continue
            values: list[float] = []
            present: list[int] = []
            for at, column in enumerate(columns):
                cell = row[column.index]
                if not cell or is_missing(cell):
                    continue
                try:
                    values.append(number(cell))
                except ValueError:
                    drop(report, line, f"{cell!r} under {column.name!r} is not a number")
                    break
                present.append(at)
            else:
                row_series = (
                    series if label_key is None else self.series_for(self.labels(label_key(row), row))
                )
                if len(values) == len(columns):
                    yield MetricRow(line, time_ns, row_series, values)
                else:
                    names, label_sets, units = row_series.names, row_series.labels, row_series.units
                    for at, value in zip(present, values, strict=True):
                        yield MetricPoint(line, names[at], time_ns, value, label_sets[at], units[at])


def number(cell: str) -> float:
    """A cell as a float, allowing the decimal comma of `;`-separated files from some locales."""
    try:
        return float(cell)
    except ValueError:
        if "," not in cell:
            raise
        return float(cell.replace(",", "."))
