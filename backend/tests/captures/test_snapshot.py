"""The collector's system snapshot is kept whole and served back as a document."""

from __future__ import annotations

import json
import subprocess

from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed

SNAPSHOT = {
    "stallscope": "snapshot",
    "version": 1,
    "host": "db-7",
    "taken_at_ns": 1_763_712_000_000_000_000,
    "sections": {"thp": {"enabled": "always [madvise] never", "defrag": "[always] defer madvise never"}},
}


def test_snapshot_round_trip(api: TestClient, worker: subprocess.Popen[bytes]) -> None:
    incident = make_incident(api)
    capture = upload_bytes(
        api, incident["id"], json.dumps(SNAPSHOT).encode(), "snapshot.json", kind="snapshot"
    )
    parsed = wait_parsed(api, capture["id"])
    assert (parsed["status"], parsed["format"]) == ("ready", "stallscope-snapshot")
    assert parsed["record_counts"] == {"documents": 1}
    documents = api.get(f"/api/captures/{capture['id']}/documents").json()
    assert documents == [{"kind": "snapshot", "content": SNAPSHOT}]


def test_a_broken_snapshot_names_the_line(api: TestClient, worker: subprocess.Popen[bytes]) -> None:
    incident = make_incident(api)
    broken = b'{"stallscope": "snapshot",\n "version": 1,\n "sections": {'
    parsed = wait_parsed(api, upload_bytes(api, incident["id"], broken, "snap.json")["id"])
    assert parsed["status"] == "failed"
    assert parsed["error"].startswith("snap.json: line 3:")
