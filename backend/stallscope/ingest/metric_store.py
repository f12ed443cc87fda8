"""Bulk-load metric points: series get ids per capture, points go in by COPY."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from stallscope.ingest.model import MetricPoint
from stallscope.ingest.sample_store import ToTimestamp
from stallscope.ingest.stack_dictionary import db_text

BATCH_POINTS = 50_000
COPY_METRICS = "COPY metrics (capture_id, series_id, ts, value) FROM STDIN"

SeriesKey = tuple[str, tuple[tuple[str, str], ...]]


class MetricWriter:
    """Series rows are inserted in the caller's transaction, so a failed parse leaves none behind."""

    def __init__(
        self, copy_conn: psycopg.Connection[tuple[Any, ...]], capture_id: int, to_timestamp: ToTimestamp
    ) -> None:
        self._conn = copy_conn
        self._capture_id = capture_id
        self._to_timestamp = to_timestamp
        self._series: dict[SeriesKey, int] = {}
        self._pending: list[MetricPoint] = []
        self.count = 0
        self.first_ns: int | None = None
        self.last_ns: int | None = None

    @property
    def series_count(self) -> int:
        return len(self._series)

    def add(self, point: MetricPoint) -> None:
        self._pending.append(point)
        self.count += 1
        t = point.time_ns
        if self.first_ns is None or t < self.first_ns:
            self.first_ns = t
        if self.last_ns is None or t > self.last_ns:
            self.last_ns = t
        if len(self._pending) >= BATCH_POINTS:
            self.flush()

    def _series_id(self, point: MetricPoint) -> int:
        key = (point.name, point.labels)
        series_id = self._series.get(key)
        if series_id is None:
            row = self._conn.execute(
                "INSERT INTO metric_series (capture_id, name, labels, unit) VALUES (%s, %s, %s, %s) "
                "ON CONFLICT (capture_id, name, labels) DO UPDATE SET unit = EXCLUDED.unit RETURNING id",
                (self._capture_id, db_text(point.name), Jsonb(dict(point.labels)), point.unit),
            ).fetchone()
            assert row is not None
            series_id = self._series[key] = int(row[0])
        return series_id

    def flush(self) -> None:
        if not self._pending:
            return
        ids = [self._series_id(p) for p in self._pending]
        capture_id, to_timestamp = self._capture_id, self._to_timestamp
        with self._conn.cursor() as cur, cur.copy(COPY_METRICS) as copy:
            for point, series_id in zip(self._pending, ids, strict=True):
                copy.write_row((capture_id, series_id, to_timestamp(point.time_ns), point.value))
        self._pending.clear()
