"""Bulk-load metric points and rows: series get ids per capture, values go in by COPY.

A row's values are stored exactly as its points would be: the same series (resolved in column order,
so ids come out in the same order too) and a stored point per value.

Past `max_metric_series` series, points of a series not yet seen are dropped and counted; their names
are not kept, so a file of endless series costs no more memory than one at the limit.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from stallscope.ingest.limits import CaptureLimits, Cut
from stallscope.ingest.model import MetricPoint, MetricRow, RowSeries
from stallscope.ingest.sample_store import Submit, ToTimestamp, write_now
from stallscope.ingest.stack_dictionary import db_text

BATCH_POINTS = 50_000
COPY_METRICS = "COPY metrics (capture_id, series_id, ts, value) FROM STDIN"
MAX_CACHED_LAYOUTS = 10_000
"""Row layouts whose series ids are remembered (importers may hand out a new layout per row)."""
MAX_CACHED_LAYOUT_COLUMNS = 2_000_000

SeriesKey = tuple[str, tuple[tuple[str, str], ...]]
RowIds = tuple[list[int | None], int]
"""A layout's series id per column (None: past the series limit) and how many columns are None."""


class MetricWriter:
    """Series rows are inserted in the caller's transaction, so a failed parse leaves none behind."""

    def __init__(
        self,
        copy_conn: psycopg.Connection[tuple[Any, ...]],
        capture_id: int,
        to_timestamp: ToTimestamp,
        max_series: int | None = None,
        submit: Submit = write_now,
    ) -> None:
        self._conn = copy_conn
        self._submit = submit
        self._capture_id = capture_id
        self._to_timestamp = to_timestamp
        self._max_series = CaptureLimits.from_settings().metric_series if max_series is None else max_series
        self._series: dict[SeriesKey, int] = {}
        self._row_series: dict[RowSeries, RowIds] = {}
        """Series ids of each row layout's columns (layouts compare by identity and are kept alive here)."""
        self._row_columns = 0
        self._pending: list[MetricPoint | MetricRow] = []
        self._pending_points = 0
        self._queued = 0
        self.first_ns: int | None = None
        self.last_ns: int | None = None
        self.dropped = Cut()
        """Points of series past `max_series`, not stored (a row counts once per value dropped)."""

    @property
    def count(self) -> int:
        """Points stored: those queued, less those a write dropped (counted apart, by the writing thread)."""
        return self._queued - self.dropped.records

    @property
    def series_count(self) -> int:
        return len(self._series)

    def add(self, point: MetricPoint | MetricRow) -> None:
        """Queue a point, or a row's values; a row without values stores nothing, as its (no) points would."""
        if isinstance(point, MetricRow):
            n = len(point.values)
            if not n:
                return
        else:
            n = 1
        self._pending.append(point)
        self._pending_points += n
        self._queued += n
        t = point.time_ns
        if self.first_ns is None or t < self.first_ns:
            self.first_ns = t
        if self.last_ns is None or t > self.last_ns:
            self.last_ns = t
        if self._pending_points >= BATCH_POINTS:
            self.flush()

    def _series_id(self, name: str, labels: tuple[tuple[str, str], ...], unit: str | None) -> int | None:
        """The series' id, inserting it if new; None if it is new and the capture is at its limit."""
        key = (name, labels)
        series_id = self._series.get(key)
        if series_id is None:
            if len(self._series) >= self._max_series:
                return None
            row = self._conn.execute(
                "INSERT INTO metric_series (capture_id, name, labels, unit) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (capture_id, name, labels) DO UPDATE SET unit = EXCLUDED.unit RETURNING id",
                (self._capture_id, db_text(name), Jsonb(dict(labels)), unit),
            ).fetchone()
            assert row is not None
            series_id = self._series[key] = int(row[0])
        return series_id

    def _row_ids(self, series: RowSeries) -> RowIds:
        found = self._row_series.get(series)
        if found is None:
            if len(self._row_series) >= MAX_CACHED_LAYOUTS or self._row_columns >= MAX_CACHED_LAYOUT_COLUMNS:
                self._row_series.clear()
                self._row_columns = 0
            ids = [
                self._series_id(name, labels, unit)
                for name, labels, unit in zip(series.names, series.labels, series.units, strict=True)
            ]
            found = self._row_series[series] = (ids, ids.count(None))
            self._row_columns += len(ids)
        return found

    def flush(self) -> None:
        """Hand the buffered points to be written (`SampleWriter` says by whom)."""
        if not self._pending:
            return
        batch = self._pending
        self._pending = []
        self._pending_points = 0
        self._submit(partial(self._write, batch))

    def _write(self, batch: list[MetricPoint | MetricRow]) -> None:
        # Series first, in the order the points came: the same ids as storing every point alone.
        ids: list[int | RowIds | None] = [
            self._row_ids(p.series) if isinstance(p, MetricRow) else self._series_id(p.name, p.labels, p.unit)
            for p in batch
        ]
        capture_id, to_timestamp, dropped = self._capture_id, self._to_timestamp, self.dropped
        with self._conn.cursor() as cur, cur.copy(COPY_METRICS) as copy:
            write = copy.write_row
            for record, series_id in zip(batch, ids, strict=True):
                if series_id is None:
                    dropped.add(record.line)
                    continue
                ts = to_timestamp(record.time_ns)
                if isinstance(record, MetricRow):
                    assert isinstance(series_id, tuple)
                    column_ids, missing = series_id
                    if missing:
                        self._drop_columns(record, missing)
                        for column_id, value in zip(column_ids, record.values, strict=True):
                            if column_id is not None:
                                write((capture_id, column_id, ts, value))
                    else:
                        for column_id, value in zip(column_ids, record.values, strict=True):
                            write((capture_id, column_id, ts, value))
                else:
                    assert isinstance(record, MetricPoint)
                    assert isinstance(series_id, int)
                    write((capture_id, series_id, ts, record.value))

    def _drop_columns(self, row: MetricRow, missing: int) -> None:
        self.dropped.add(row.line, missing)
