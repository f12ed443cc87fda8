"""Purging an incident or a capture removes every row it left, in any table, and its unshared blobs.

Runs on both back ends (the test command's two halves). On TimescaleDB the captures' chunks are
compressed first, so the deletes are shown to reach compressed chunks, and the per-second continuous
aggregate is checked too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from stallscope.timeseries import ROLLUP_VIEW
from tests.fixtures.db import Conn
from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed
from tests.lifecycle.captures import (
    blob_file,
    cpu_capture,
    rollup_rows,
    rows_by_table,
    tag,
    upload_every_kind,
)

DAY = "2031-05-07"
OFFSET = "+1935878300s"
"""Perf time 100 s lands at the start of DAY: a day (a chunk, on TimescaleDB) no other test writes."""
KEPT_BY_DESIGN = {"audit_log"}
"""The audit log outlives what it tells about (it has no foreign key, and refuses deletes)."""


def compress_chunks_of_day(db: Conn) -> int:
    """Compress the hypertable chunks holding DAY; returns how many."""
    chunks = db.execute(
        "SELECT format('%%I.%%I', chunk_schema, chunk_name) FROM timescaledb_information.chunks "
        "WHERE hypertable_name IN ('samples', 'events', 'metrics') AND NOT is_compressed "
        "AND range_start <= %s::timestamptz AND range_end > %s::timestamptz",
        (f"{DAY} 00:00:01Z", f"{DAY} 00:00:01Z"),
    ).fetchall()
    for (chunk,) in chunks:
        db.execute("SELECT compress_chunk(%s)", (chunk,))
    return len(chunks)


def test_purging_an_incident_leaves_no_row_in_any_table_and_no_blob(
    api: TestClient, worker: object, db: Conn, data_dir: Path, timescaledb: bool
) -> None:
    incident = make_incident(api)
    captures = upload_every_kind(api, incident["id"], DAY, offset=OFFSET)
    assert (
        api.post(
            f"/api/incidents/{incident['id']}/annotations", json={"ts": f"{DAY}T00:01:41Z", "text": "deploy"}
        ).status_code
        == 201
    )
    ids = [c["id"] for c in captures]
    before = rows_by_table(db, "capture_id", ids)
    for table in ("samples", "events", "metrics", "metric_series", "capture_documents", "timeline_rollups"):
        assert before[table] > 0, (table, before)
    if timescaledb:
        assert rollup_rows(db, ids) > 0
        assert compress_chunks_of_day(db) >= 2  # samples' and events' chunks at least
    blobs = [blob_file(data_dir, c["sha256"]) for c in captures]
    assert all(path.is_file() for path in blobs)

    assert api.delete(f"/api/incidents/{incident['id']}").status_code == 204
    assert api.delete(f"/api/trash/incidents/{incident['id']}").status_code == 204

    left = {t: n for t, n in rows_by_table(db, "capture_id", ids).items() if n}
    assert left == {}
    left = {t: n for t, n in rows_by_table(db, "incident_id", [incident["id"]]).items() if n}
    assert set(left) <= KEPT_BY_DESIGN, left
    assert db.execute("SELECT count(*) FROM captures WHERE id = ANY(%s)", (ids,)).fetchone() == (0,)
    if timescaledb:
        assert rollup_rows(db, ids) == 0
        row = db.execute(f"SELECT count(*) FROM {ROLLUP_VIEW} WHERE capture_id = ANY(%s)", (ids,)).fetchone()
        assert row == (0,)
    assert [path for path in blobs if path.exists()] == []
    purge = api.get("/api/audit", params={"incident": incident["id"], "action": "purge"}).json()
    assert [e["detail"]["captures"] for e in purge] == [ids]


def test_a_blob_two_captures_share_stays_until_the_last_is_purged(
    api: TestClient, worker: object, data_dir: Path
) -> None:
    incident = make_incident(api)
    data = cpu_capture(tag())
    first, second = (upload_bytes(api, incident["id"], data, name) for name in ("a.txt", "b.txt"))
    for capture in (first, second):
        wait_parsed(api, capture["id"])
    assert first["sha256"] == second["sha256"]
    blob = blob_file(data_dir, first["sha256"])

    for capture in (first, second):
        assert api.delete(f"/api/captures/{capture['id']}").status_code == 204
    assert api.delete(f"/api/trash/captures/{first['id']}").status_code == 204
    assert blob.is_file()  # the second capture, in the trash but not purged, still holds it
    assert api.delete(f"/api/trash/captures/{second['id']}").status_code == 204
    assert not blob.exists()


def test_only_what_is_in_the_trash_can_be_purged(api: TestClient, worker: object) -> None:
    incident = make_incident(api)
    capture = upload_bytes(api, incident["id"], cpu_capture(tag()), "live.txt")
    wait_parsed(api, capture["id"])
    assert api.delete(f"/api/trash/captures/{capture['id']}").status_code == 404
    assert api.delete(f"/api/trash/incidents/{incident['id']}").status_code == 404
    assert api.get(f"/api/captures/{capture['id']}").status_code == 200


def test_storage_counts_rows_and_shared_blobs_once(
    api: TestClient, worker: object, timescaledb: bool
) -> None:
    incident = make_incident(api)
    data = cpu_capture(tag())
    captures: list[dict[str, Any]] = [
        upload_bytes(api, incident["id"], data, name) for name in ("one.txt", "same-bytes.txt")
    ]
    for capture in captures:
        wait_parsed(api, capture["id"])
    storage = api.get(f"/api/incidents/{incident['id']}/storage").json()
    assert storage["captures"] == 2
    assert storage["raw_bytes"] == len(data)  # one blob, counted once
    assert storage["shared_raw_bytes"] == 0
    assert storage["rows"]["samples"] == 10
    assert (ROLLUP_VIEW in storage["rows"]) == timescaledb
