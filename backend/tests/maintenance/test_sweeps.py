"""What uploads leave behind is swept: temp files of cut uploads, stored files no capture took."""

from __future__ import annotations

import os
import time
from pathlib import Path

import psycopg
from fastapi.testclient import TestClient

from stallscope.blobs.configured import blob_store
from stallscope.blobs.local import LocalBlobStore
from stallscope.config import get_settings
from stallscope.db import libpq_url
from stallscope.maintenance.jobs import ORPHAN_GRACE_S, prune_bookkeeping, sweep_incoming, sweep_orphan_blobs
from tests.fixtures.factories import make_incident, upload_bytes

CAPTURE = b"svc 42/42 [001] 10.000100: 1000 cpu-clock:\n\t    1111 main (/usr/bin/svc)\n\n"


def _age(path: Path, seconds: float) -> None:
    past = time.time() - seconds
    os.utime(path, (past, past))


def test_temp_files_of_uploads_that_stopped_are_removed(database_url: str) -> None:
    settings = get_settings()
    incoming = settings.blob_dir / "incoming"
    incoming.mkdir(parents=True, exist_ok=True)
    stale, live = incoming / "upload-cut-by-a-crash", incoming / "upload-still-arriving"
    stale.write_bytes(b"half an upload")
    live.write_bytes(b"arriving")
    _age(stale, 3600)
    sweep_incoming(settings)
    assert not stale.exists()
    assert live.exists()
    live.unlink()


def test_stored_uploads_no_capture_refers_to_are_removed(api: TestClient, database_url: str) -> None:
    settings = get_settings()
    kept = upload_bytes(api, make_incident(api)["id"], CAPTURE, "kept.txt")
    store = blob_store(settings)
    assert isinstance(store, LocalBlobStore)
    writer = store.start_upload(settings.max_upload_bytes)
    writer.write(b"an upload whose capture row was never written\n")
    orphan = Path(writer.commit().location)
    young_writer = store.start_upload(settings.max_upload_bytes)
    young_writer.write(b"an upload whose row is being written right now\n")
    young = Path(young_writer.commit().location)
    kept_path = store.path_of(kept["sha256"])
    for path in (orphan, kept_path):
        _age(path, ORPHAN_GRACE_S + 60)
    sweep_orphan_blobs(settings, database_url)
    assert not orphan.exists()
    assert young.exists(), "inside the grace period a row may still be on its way"
    assert kept_path.exists()
    assert api.get(f"/api/captures/{kept['id']}/raw").status_code == 200
    young.unlink()


def test_bookkeeping_prune_keeps_live_heartbeats(database_url: str) -> None:
    with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
        conn.execute(
            "INSERT INTO worker_heartbeats (name, hostname, pid, concurrency, started_at, seen_at) VALUES "
            "('gone:1', 'gone', 1, 1, now() - interval '3 days', now() - interval '2 days'), "
            "('live:2', 'live', 2, 1, now(), now())"
        )
        prune_bookkeeping(database_url)
        names = {n for (n,) in conn.execute("SELECT name FROM worker_heartbeats").fetchall()}
        conn.execute("DELETE FROM worker_heartbeats WHERE name = 'live:2'")
    assert "gone:1" not in names
    assert "live:2" in names
