"""Small captures of each kind, their upload, and what the database holds of them."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from stallscope.timeseries import ROLLUP_VIEW
from tests.fixtures.db import Conn
from tests.timeline.capture_text import perf_sample, sched_switch, upload_parsed

SNAPSHOT = Path(__file__).resolve().parents[1] / "ingest" / "data" / "snapshot_text" / "head_v.txt"
_tags = itertools.count(1)


def tag() -> str:
    """A name no other upload uses, so each capture's bytes (and blob) are its own."""
    return f"lc{next(_tags)}x{id(_tags) % 100_000}"


def cpu_capture(name: str) -> bytes:
    """Perf script CPU samples over three seconds from perf time 100 s."""
    return "".join(perf_sample(name, 40, 41, 100.0 + i * 0.7) for i in range(5)).encode()


def sched_capture(name: str) -> bytes:
    """Two threads switching on one CPU: scheduler events (off-CPU intervals)."""
    return "".join(
        [
            sched_switch(name, 51, 0, "100.000000", "S", "worker", 52),
            sched_switch("worker", 52, 0, "100.200000", "R", name, 51),
            sched_switch(name, 51, 0, "100.500000", "D", "worker", 52),
            sched_switch("worker", 52, 0, "100.900000", "S", name, 51),
        ]
    ).encode()


def metrics_capture(name: str, day: str) -> bytes:
    """A `sadf -d -- -r` memory table, three seconds of it."""
    rows = [f"{name};1;{day} 00:01:4{i} UTC;{2188 + i};{2356 + i};{740 + i};3.00" for i in range(3)]
    return (
        "# hostname;interval;timestamp;kbmemfree;kbavail;kbmemused;%memused\n" + "\n".join(rows) + "\n"
    ).encode()


def snapshot_capture(name: str) -> bytes:
    """A `head -v` system snapshot, with one value of its own."""
    return SNAPSHOT.read_bytes() + f"\n==> /proc/sys/kernel/hostname <==\n{name}\n".encode()


def upload_every_kind(api: TestClient, incident_id: int, day: str, **params: str) -> list[dict[str, Any]]:
    """A CPU profile, a scheduler capture, a metrics table and a snapshot, parsed."""
    name = tag()
    return [
        upload_parsed(api, incident_id, cpu_capture(name), f"{name}-cpu.txt", **params),
        upload_parsed(api, incident_id, sched_capture(name), f"{name}-sched.txt", **params),
        upload_parsed(api, incident_id, metrics_capture(name, day), f"{name}-mem.csv"),
        upload_parsed(api, incident_id, snapshot_capture(name), f"{name}-snapshot.txt"),
    ]


def tables_with(db: Conn, column: str) -> list[str]:
    """Every table of the console's schema with this column: a table added later is covered too."""
    rows = db.execute(
        "SELECT c.table_name FROM information_schema.columns c JOIN information_schema.tables t "
        "ON t.table_schema = c.table_schema AND t.table_name = c.table_name "
        "WHERE c.table_schema = current_schema() AND c.column_name = %s AND t.table_type = 'BASE TABLE' "
        "ORDER BY 1",
        (column,),
    ).fetchall()
    return [str(r[0]) for r in rows]


def rows_by_table(db: Conn, column: str, ids: list[int]) -> dict[str, int]:
    return {
        table: int(
            db.execute(f'SELECT count(*) FROM "{table}" WHERE {column} = ANY(%s)', (ids,)).fetchone()[0]
        )  # type: ignore[index]
        for table in tables_with(db, column)
    }


def rollup_table(db: Conn) -> str | None:
    """The per-second sample rollup's table, None without TimescaleDB."""
    if db.execute("SELECT 1 FROM pg_extension WHERE extname = 'timescaledb'").fetchone() is None:
        return None
    return ROLLUP_VIEW


def rollup_rows(db: Conn, capture_ids: list[int]) -> int:
    table = rollup_table(db)
    assert table is not None
    row = db.execute(f"SELECT count(*) FROM {table} WHERE capture_id = ANY(%s)", (capture_ids,)).fetchone()
    assert row is not None
    return int(row[0])


def blob_file(data_dir: Path, sha256: str) -> Path:
    return data_dir / "blobs" / sha256[:2] / sha256[2:4] / sha256
