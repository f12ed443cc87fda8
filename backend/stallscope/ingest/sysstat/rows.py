"""What every sysstat table shares: turning one row's values into a `MetricRow` under a column layout.

Wide tables hold a value every dozen bytes, so a row is one record, not a point per value: its
columns' names, labels and units (a `RowSeries`) are worked out once per layout and row label. The
parsers' fast path builds a row in one call (`maker`, see `row_points`); any row that does not fit
(a wrong width, a decimal comma, a word that is not a number) goes through `row`, which says what is
wrong.
"""

from __future__ import annotations

from stallscope.ingest.appmetrics.row_points import MakeRecord, row_record_maker
from stallscope.ingest.model import MetricRow, ParseReport, RowSeries
from stallscope.ingest.sysstat.naming import Layout

Labels = tuple[tuple[str, str], ...]
_MAX_CACHED_ROW_LABELS = 10_000


class RowReader:
    """Rows under one layout, with each row label's columns (a `RowSeries`) worked out once.

    `fixed` labels go on every point (iostat's CPU line has no CPU column but is `cpu=all`);
    `header` is the header row's words (after the time), if the layout was read from one.
    """

    __slots__ = ("_fixed", "_makers", "header", "label_index", "layout", "names", "series_sets", "units")

    def __init__(self, layout: Layout, fixed: Labels = (), header: list[str] | None = None) -> None:
        self.layout = layout
        self._fixed = fixed
        self.names = tuple(column.name for column in layout.columns)
        self.units = tuple(column.unit for column in layout.columns)
        self.label_index = layout.label_index
        self.header = header or []
        self.series_sets: dict[str, RowSeries] = {}
        """The row's columns by row label ("" when the layout has no label column)."""
        self._makers: dict[int, MakeRecord] = {}

    def maker(self, skip: int) -> MakeRecord | None:
        """Builds a row from its words, the first `skip` of them not the layout's (such as the time);
        None when the layout has no value columns (such a row is left to `row`)."""
        found = self._makers.get(skip)
        if found is None:
            if not self.names:
                return None
            at = [skip + column.index for column in self.layout.columns]
            found = self._makers[skip] = row_record_maker(at)
        return found

    def series_of(self, row_label: str | None) -> RowSeries:
        """The columns of a row with this label (None: the layout has no label column)."""
        found = self.series_sets.get(row_label or "")
        return found if found is not None else self._row_series(row_label)

    def row(self, words: list[str], line: int, time_ns: int, report: ParseReport) -> MetricRow | None:
        """The row; None, and a warning, if any value is not a number (the row is dropped). None
        without a warning when the layout has no value columns (a row of no points)."""
        layout = self.layout
        if len(words) != layout.width:
            drop(report, line, f"expected {layout.width} columns under the header above, found {len(words)}")
            return None
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
                    return None
        if not values:
            return None
        series = self.series_of(None if layout.label_index is None else words[layout.label_index])
        return MetricRow(line, time_ns, series, values)

    def _row_series(self, row_label: str | None) -> RowSeries:
        key = row_label or ""
        found = self.series_sets.get(key)
        if found is None:
            base = self._fixed if row_label is None else ((self.layout.label_key, row_label), *self._fixed)
            labels = tuple(tuple(sorted(base + column.labels)) for column in self.layout.columns)
            found = RowSeries(self.names, labels, self.units)
            if len(self.series_sets) < _MAX_CACHED_ROW_LABELS:
                self.series_sets[key] = found
        return found


def drop(report: ParseReport, line: int, why: str) -> None:
    """Count a dropped line and say why, naming it."""
    report.dropped_lines += 1
    report.warn(line, f"{why}; dropped this line")
