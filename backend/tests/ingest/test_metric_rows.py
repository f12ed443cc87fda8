"""A `MetricRow` is stored and counted exactly as the points it expands to would be.

The writer is fed rows, and then the same records expanded into points, against the real database
in a transaction that is rolled back; what each stored is read back and compared.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stallscope.db import raw_connection
from stallscope.ingest import metric_store
from stallscope.ingest.metric_store import MetricWriter
from stallscope.ingest.model import MetricPoint, MetricRow, Record, RowSeries, metric_points
from stallscope.ingest.tally import RecordTally
from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed

CPU = RowSeries(
    ("cpu.user", "cpu.system", "cpu.idle"),
    ((("cpu", "0"),), (("cpu", "0"),), (("cpu", "0"),)),
    ("%", "%", "%"),
)
MEM = RowSeries(("mem.free", "vm.r"), ((), ()), ("KiB", None))


Stored = tuple[list[tuple[Any, ...]], int, int, int | None, int | None]
"""The capture's stored series and points, then the writer's count, series count, first and last time."""


def _stored(database_url: str, capture_id: int, records: Iterable[Record]) -> Stored:
    """Write `records` as the parse job does (in a transaction that is rolled back), read them back."""
    with raw_connection(database_url) as conn:
        writer = MetricWriter(conn, capture_id, lambda ns: datetime.fromtimestamp((ns or 0) / 1e9, UTC))
        for record in records:
            assert isinstance(record, MetricPoint | MetricRow)
            writer.add(record)
        writer.flush()
        stored = conn.execute(
            "SELECT s.name, s.labels, s.unit, m.ts, m.value FROM metric_series s "
            "JOIN metrics m ON m.series_id = s.id AND m.capture_id = s.capture_id "
            "WHERE s.capture_id = %s ORDER BY s.id, m.ts",
            (capture_id,),
        ).fetchall()
        conn.rollback()
    return stored, writer.count, writer.series_count, writer.first_ns, writer.last_ns


@pytest.fixture(scope="module")
def capture_id(api: TestClient, worker: subprocess.Popen[bytes]) -> int:
    incident = make_incident(api)
    capture = upload_bytes(api, incident["id"], b"x 1/1 [000] 1.0: 1 cpu-clock:\n\t1 f (/x)\n\n", "c.txt")
    return int(wait_parsed(api, capture["id"])["id"])


def _expanded(records: Iterable[Record]) -> Iterator[Record]:
    for record in records:
        yield from metric_points(record)


def _mixed() -> list[Record]:
    return [
        MetricPoint(1, "vm.r", 5_000, 2.0, (), None),
        MetricRow(2, 3_000, CPU, [1.5, 2.5, 96.0]),
        MetricRow(3, 4_000, MEM, (1024.0, 3.0)),
        MetricRow(4, 1_000, CPU, [2.0, 3.0, 95.0]),
        MetricRow(5, 9_000, RowSeries((), (), ()), []),  # no columns: nothing, as no points would be
        MetricPoint(6, "cpu.user", 8_000, 4.0, (("cpu", "0"),), "%"),
        MetricRow(7, 2_000, RowSeries(CPU.names, CPU.labels, CPU.units), [0.0, 0.5, 99.5]),
    ]


def test_row_expands_to_its_points_in_column_order() -> None:
    row = MetricRow(3, 1_000, CPU, [1.0, 2.0, 97.0])
    assert list(row.points()) == [
        MetricPoint(3, "cpu.user", 1_000, 1.0, (("cpu", "0"),), "%"),
        MetricPoint(3, "cpu.system", 1_000, 2.0, (("cpu", "0"),), "%"),
        MetricPoint(3, "cpu.idle", 1_000, 97.0, (("cpu", "0"),), "%"),
    ]


def test_row_series_needs_one_label_set_and_unit_per_name() -> None:
    with pytest.raises(ValueError, match="one name"):
        RowSeries(("a", "b"), ((),), (None, None))


@pytest.mark.parametrize("batch", [1, 2, 3, 50_000])
def test_rows_store_exactly_as_their_points(
    monkeypatch: pytest.MonkeyPatch, database_url: str, capture_id: int, batch: int
) -> None:
    monkeypatch.setattr(metric_store, "BATCH_POINTS", batch)
    as_rows = _stored(database_url, capture_id, _mixed())
    as_points = _stored(database_url, capture_id, _expanded(_mixed()))
    stored, count, series, first, last = as_rows
    assert (count, series, first, last) == (13, 5, 1_000, 8_000)
    assert len(stored) == 13
    assert as_rows == as_points  # same series (created in the same order), same points


def test_rows_tally_as_their_points() -> None:
    rows, points = RecordTally(), RecordTally()
    for record in _mixed():
        rows.add(record)
    for record in _expanded(_mixed()):
        points.add(record)
    assert rows == points
    assert (rows.metric_points, len(rows.series)) == (13, 5)
