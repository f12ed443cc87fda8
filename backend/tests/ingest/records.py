"""Compare importers' output as points, whichever shape (points or rows) an importer yields.

Row-shaped importers yield `MetricRow`s for speed; a row stands for exactly the points it expands
to, so tests written against points compare those.
"""

from __future__ import annotations

from collections.abc import Iterable

from stallscope.ingest.model import MetricPoint, MetricRow, Record


def as_points(records: Iterable[Record]) -> list[MetricPoint]:
    """The points `records` stand for, in order; fails on any record that is not a metric."""
    points: list[MetricPoint] = []
    for record in records:
        if isinstance(record, MetricRow):
            assert len(record.values) == len(record.series), record
            assert record.values, "a row without values"
            points.extend(record.points())
        else:
            assert isinstance(record, MetricPoint), record
            points.append(record)
    return points
