"""What every sysstat table shares: turning one row's values into points under a column layout.

Wide tables yield a point every dozen bytes, so the parsers' fast path builds a row's points in one
call (`maker`, see `row_points`) and hands them on without a generator step per point; any row that
does not fit (a wrong width, a decimal comma, a word that is not a number) goes through `points`,
which says what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import repeat

from stallscope.ingest.appmetrics.row_points import MakeRow, row_maker
from stallscope.ingest.model import MetricPoint, ParseReport
from stallscope.ingest.sysstat.naming import Layout

Labels = tuple[tuple[str, str], ...]
_MAX_CACHED_ROW_LABELS = 10_000


class RowReader:
    """Points of the rows under one layout, with each row label's label sets worked out once.

    `fixed` labels go on every point (iostat's CPU line has no CPU column but is `cpu=all`);
    `header` is the header row's words (after the time), if the layout was read from one.
    """

    __slots__ = ("_fixed", "_makers", "header", "label_index", "label_sets", "layout", "names", "units")

    def __init__(self, layout: Layout, fixed: Labels = (), header: list[str] | None = None) -> None:
        self.layout = layout
        self._fixed = fixed
        self.names = [column.name for column in layout.columns]
        self.units = [column.unit for column in layout.columns]
        self.label_index = layout.label_index
        self.header = header or []
        self.label_sets: dict[str, list[Labels]] = {}
        """Each column's label set by row label ("" when the layout has no label column)."""
        self._makers: dict[int, MakeRow] = {}

    def maker(self, skip: int) -> MakeRow | None:
        """Builds a row's points from its words, the first `skip` of them not the layout's (such as
        the time); None when the layout has no value columns (such a row is left to `points`)."""
        found = self._makers.get(skip)
        if found is None:
            if not self.names:
                return None
            at = [skip + column.index for column in self.layout.columns]
            found = self._makers[skip] = row_maker(self.names, self.units, at, shared_labels=False)
        return found

    def labels_of(self, row_label: str | None) -> list[Labels]:
        """Each column's label set for a row with this label (None: the layout has no label column)."""
        found = self.label_sets.get(row_label or "")
        return found if found is not None else self._row_labels(row_label)

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
        labels = self.labels_of(None if layout.label_index is None else words[layout.label_index])
        return map(MetricPoint, repeat(line), self.names, repeat(time_ns), values, labels, self.units)

    def _row_labels(self, row_label: str | None) -> list[Labels]:
        key = row_label or ""
        found = self.label_sets.get(key)
        if found is None:
            base = self._fixed if row_label is None else ((self.layout.label_key, row_label), *self._fixed)
            found = [tuple(sorted(base + column.labels)) for column in self.layout.columns]
            if len(self.label_sets) < _MAX_CACHED_ROW_LABELS:
                self.label_sets[key] = found
        return found


def drop(report: ParseReport, line: int, why: str) -> None:
    """Count a dropped line and say why, naming it."""
    report.dropped_lines += 1
    report.warn(line, f"{why}; dropped this line")
