"""Compare importers' output as points, whichever shape (points or rows) an importer yields.

Row-shaped importers yield `MetricRow`s for speed; a row stands for exactly the points it expands
to, so tests written against points compare those.
"""

from __future__ import annotations

import io
from collections.abc import Iterable

from stallscope.ingest.model import MetricPoint, MetricRow, ParseReport, Record
from stallscope.ingest.registry import Importer


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


def parse_points(importer: Importer, text: str) -> tuple[list[MetricPoint], ParseReport]:
    """`text` through `importer`, as points, with the report it filled."""
    report = ParseReport()
    return as_points(importer.parse(io.BytesIO(text.encode()), report)), report


def messages(report: ParseReport) -> list[tuple[int, str]]:
    """A report's warnings as (line, message), for exact comparisons."""
    return [(w.line, w.message) for w in report.warnings]
