"""What every sysstat table shares: turning one row's values into points under a column layout."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import repeat

from stallscope.ingest.model import MetricPoint, ParseReport
from stallscope.ingest.sysstat.naming import Layout

Labels = tuple[tuple[str, str], ...]
_MAX_CACHED_ROW_LABELS = 10_000


class RowReader:
    """Points of the rows under one layout, with each row label's label sets worked out once.

    `fixed` labels go on every point (iostat's CPU line has no CPU column but is `cpu=all`).
    """

    __slots__ = ("_fixed", "_labels", "_names", "_units", "layout")

    def __init__(self, layout: Layout, fixed: Labels = ()) -> None:
        self.layout = layout
        self._fixed = fixed
        self._names = [column.name for column in layout.columns]
        self._units = [column.unit for column in layout.columns]
        self._labels: dict[str, list[Labels]] = {}

    def points(self, words: list[str], line: int, time_ns: int, report: ParseReport) -> Iterator[MetricPoint]:
        """The row's points; none, and a warning, if any value is not a number (the row is dropped)."""
        layout = self.layout
        if len(words) != layout.width:
            drop(report, line, f"expected {layout.width} columns under the header above, found {len(words)}")
            return iter(())
        values: list[float] = []
        for column in layout.columns:
            text = words[column.index]
            try:
                values.append(float(text))
            except ValueError:
                try:  # locales such as de_DE print decimal commas
                    values.append(float(text.replace(",", ".")))
                except ValueError:
                    drop(report, line, f"{text!r} under {column.name} is not a number")
                    return iter(())
        labels = self._row_labels(None if layout.label_index is None else words[layout.label_index])
        return map(MetricPoint, repeat(line), self._names, repeat(time_ns), values, labels, self._units)

    def _row_labels(self, row_label: str | None) -> list[Labels]:
        key = row_label or ""
        found = self._labels.get(key)
        if found is None:
            base = self._fixed if row_label is None else ((self.layout.label_key, row_label), *self._fixed)
            found = [tuple(sorted(base + column.labels)) for column in self.layout.columns]
            if len(self._labels) < _MAX_CACHED_ROW_LABELS:
                self._labels[key] = found
        return found


def drop(report: ParseReport, line: int, why: str) -> None:
    """Count a dropped line and say why, naming it."""
    report.dropped_lines += 1
    report.warn(line, f"{why}; dropped this line")
