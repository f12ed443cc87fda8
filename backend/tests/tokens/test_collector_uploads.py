"""Upload tokens: created once, stored hashed, required by the collectors' endpoint, revocable."""

from __future__ import annotations

import subprocess
from pathlib import Path

import httpx
import psycopg
import pytest
from fastapi.testclient import TestClient

from stallscope.db import libpq_url
from tests.fixtures.factories import make_incident
from tests.fixtures.worker import wait_parsed

# Tokens, links, the browser guard, incident and annotation rows: nothing here depends on how
# records are stored, so the TimescaleDB half need not run it again.
pytestmark = pytest.mark.storage_neutral

SAMPLE = b"svc 7/7 [000] 5.000001: 1000 cpu-clock:\n\t    11 work (/usr/bin/svc)\n\n"


def collector_post(
    client: TestClient, incident_id: int, data: bytes, token: str | None, **params: str
) -> httpx.Response:
    """A collector's upload; with no token, as a client with no credentials at all."""
    headers = {"Content-Type": "application/octet-stream"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return client.post(
        "/api/collector/captures",
        params={"incident": str(incident_id), "filename": "svc.txt", **params},
        content=data,
        headers=headers,
    )


def test_token_secret_is_shown_once_and_only_its_hash_is_stored(api: TestClient, database_url: str) -> None:
    created = api.post("/api/tokens", json={"name": "db hosts"})
    assert created.status_code == 201
    secret = created.json()["secret"]
    assert secret.startswith("sst_")
    listed = api.get("/api/tokens").json()
    assert all("secret" not in t for t in listed)
    assert any(t["prefix"] == secret[:12] for t in listed)
    with psycopg.connect(libpq_url(database_url)) as conn:
        rows = conn.execute("SELECT digest::text, prefix FROM upload_tokens").fetchall()
    assert all(secret not in digest and secret != prefix for digest, prefix in rows)


def test_collector_uploads_need_a_valid_token(
    api: TestClient, anonymous: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    incident = make_incident(api)
    missing = collector_post(anonymous, incident["id"], SAMPLE, None)
    assert missing.status_code == 401
    assert "Authorization: Bearer" in missing.json()["detail"]
    assert collector_post(anonymous, incident["id"], SAMPLE, "sst_nope").status_code == 401

    token = api.post("/api/tokens", json={"name": "ci"}).json()
    accepted = collector_post(api, incident["id"], SAMPLE, token["secret"], host="db-7", kind="cpu")
    assert accepted.status_code == 202, accepted.text
    capture = wait_parsed(api, accepted.json()["id"])
    assert (capture["status"], capture["kind"], capture["host"]) == ("ready", "cpu", "db-7")
    assert api.get("/api/tokens").json()[-1]["last_used_at"] is not None

    assert api.delete(f"/api/tokens/{token['id']}").status_code == 200
    revoked = collector_post(anonymous, incident["id"], SAMPLE, token["secret"])
    assert revoked.status_code == 401
    assert "revoked" in revoked.json()["detail"]


def test_an_unauthenticated_upload_stores_nothing(
    api: TestClient, anonymous: TestClient, data_dir: Path
) -> None:
    incident = make_incident(api)
    marker = b"never-stored-" + bytes(range(48, 58)) * 10
    before = {p.name for p in (data_dir / "blobs").rglob("*") if p.is_file()}
    assert collector_post(anonymous, incident["id"], marker, None).status_code == 401
    after = {p.name for p in (data_dir / "blobs").rglob("*") if p.is_file()}
    assert after == before


def test_a_scoped_token_uploads_to_its_incident_and_host_only(api: TestClient, anonymous: TestClient) -> None:
    mine, other = make_incident(api)["id"], make_incident(api)["id"]
    body = {"name": "db-7 only", "incident_id": mine, "host": "db-7"}
    secret = api.post("/api/tokens", json=body).json()["secret"]
    assert collector_post(anonymous, mine, SAMPLE, secret, host="db-7").status_code == 202
    elsewhere = collector_post(anonymous, other, SAMPLE, secret, host="db-7")
    assert elsewhere.status_code == 403
    assert f"incident {mine} only" in elsewhere.json()["detail"]
    other_host = collector_post(anonymous, mine, SAMPLE, secret, host="db-8")
    assert other_host.status_code == 403
    assert "'db-7' only" in other_host.json()["detail"]
    # Upload-only: a collector token reads nothing.
    reading = anonymous.get(f"/api/incidents/{mine}", headers={"Authorization": f"Bearer {secret}"})
    assert reading.status_code == 403


def test_an_expired_token_is_refused_with_its_date(
    api: TestClient, anonymous: TestClient, database_url: str
) -> None:
    incident = make_incident(api)["id"]
    token = api.post("/api/tokens", json={"name": "short-lived"}).json()
    with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
        conn.execute(
            "UPDATE upload_tokens SET expires_at = now() - interval '1 day' WHERE id = %s", (token["id"],)
        )
    refused = collector_post(anonymous, incident, SAMPLE, token["secret"])
    assert refused.status_code == 401
    assert "expired on" in refused.json()["detail"]
