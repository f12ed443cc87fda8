"""Upload → stored blob → real Celery worker → samples in PostgreSQL → flame graph."""

from __future__ import annotations

import gzip
import subprocess
from pathlib import Path

import psycopg
import zstandard
from fastapi.testclient import TestClient

from stallscope.db import libpq_url
from tests.fixtures.factories import make_incident, upload_bytes, upload_file
from tests.fixtures.worker import wait_parsed

INFERNO = "perf-script/inferno/collapse-perf"


def sample_rows(database_url: str, capture_id: int) -> int:
    with psycopg.connect(libpq_url(database_url)) as conn:
        row = conn.execute("SELECT count(*) FROM samples WHERE capture_id = %s", (capture_id,)).fetchone()
        assert row is not None
        return int(row[0])


def test_upload_returns_at_once_then_the_worker_parses_it(
    api: TestClient, worker: subprocess.Popen[bytes], corpus: Path
) -> None:
    incident = make_incident(api)
    capture = upload_file(api, incident["id"], corpus / INFERNO / "go-stacks.txt", host="db-7")
    assert capture["status"] == "queued"
    assert capture["host"] == "db-7"
    parsed = wait_parsed(api, capture["id"])
    assert parsed["status"] == "ready", parsed
    assert parsed["format"] == "perf-script"
    assert parsed["sample_count"] > 0
    assert parsed["progress"] == 1
    listed = api.get(f"/api/incidents/{incident['id']}/captures").json()
    assert [c["id"] for c in listed] == [capture["id"]]
    assert api.get(f"/api/incidents/{incident['id']}").json()["capture_count"] == 1


def test_folded_download_matches_the_reference_collapse(
    api: TestClient, worker: subprocess.Popen[bytes], corpus: Path
) -> None:
    incident = make_incident(api)
    capture = upload_file(api, incident["id"], corpus / INFERNO / "go-stacks.txt")
    assert wait_parsed(api, capture["id"])["status"] == "ready"
    response = api.get("/api/flame/folded", params={"captures": str(capture["id"])})
    assert response.status_code == 200
    expected = (corpus / INFERNO / "results" / "go-stacks-collapsed.txt").read_text()
    assert response.text == expected


def test_gzip_and_zstd_uploads_are_stored_as_sent_and_parse_the_same(
    api: TestClient, worker: subprocess.Popen[bytes], corpus: Path
) -> None:
    raw = (corpus / INFERNO / "go-stacks.txt").read_bytes()
    incident = make_incident(api)
    plain = upload_bytes(api, incident["id"], raw, "go.txt")
    gz = upload_bytes(api, incident["id"], gzip.compress(raw), "go.txt.gz")
    zst = upload_bytes(api, incident["id"], zstandard.ZstdCompressor().compress(raw), "go.txt.zst")
    assert (gz["compression"], zst["compression"]) == ("gzip", "zstd")
    assert gz["size_uncompressed"] == zst["size_uncompressed"] == len(raw)
    counts = {wait_parsed(api, c["id"])["sample_count"] for c in (plain, gz, zst)}
    assert len(counts) == 1
    stored = api.get(f"/api/captures/{gz['id']}/raw")
    assert gzip.decompress(stored.content) == raw


def test_reparse_replaces_samples_instead_of_duplicating_them(
    api: TestClient, worker: subprocess.Popen[bytes], corpus: Path, database_url: str
) -> None:
    incident = make_incident(api)
    capture = upload_file(api, incident["id"], corpus / INFERNO / "java-inline.txt")
    first = wait_parsed(api, capture["id"])
    rows = sample_rows(database_url, capture["id"])
    assert rows == first["sample_count"] > 0
    flame_before = api.get("/api/flame", params={"captures": str(capture["id"])}).json()
    for _ in range(2):
        assert api.post(f"/api/captures/{capture['id']}/reparse").status_code == 202
        again = wait_parsed(api, capture["id"])
        assert again["status"] == first["status"]
    assert sample_rows(database_url, capture["id"]) == rows
    flame_after = api.get("/api/flame", params={"captures": str(capture["id"])}).json()
    assert flame_after["total"] == flame_before["total"]
    assert flame_after["root"] == flame_before["root"]


def test_unknown_incident_is_a_404(api: TestClient) -> None:
    response = api.post("/api/incidents/999999/captures", params={"filename": "x.txt"}, content=b"x")
    assert response.status_code == 404
    assert "incident 999999" in response.json()["detail"]
