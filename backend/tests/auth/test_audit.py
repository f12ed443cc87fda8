"""The audit log: changes, shares, exports and guest views land in it with who and when, and nothing
can rewrite or remove an entry."""

from __future__ import annotations

import subprocess

import psycopg
import pytest
from fastapi.testclient import TestClient

from stallscope.db import libpq_url
from tests.fixtures.factories import make_incident
from tests.fixtures.worker import wait_parsed
from tests.tokens.test_collector_uploads import SAMPLE

pytestmark = pytest.mark.storage_neutral


def test_what_people_do_is_in_the_audit_log(api: TestClient, worker: subprocess.Popen[bytes]) -> None:
    incident = make_incident(api)["id"]
    upload = api.post(
        f"/api/incidents/{incident}/captures",
        params={"filename": "svc.txt", "host": "db-3"},
        content=SAMPLE,
        headers={"Content-Type": "application/octet-stream"},
    ).json()
    wait_parsed(api, upload["id"])
    api.post(f"/api/incidents/{incident}/annotations", json={"ts": "2026-11-21T08:00:00Z", "text": "restart"})
    assert api.get(f"/api/captures/{upload['id']}/raw").status_code == 200
    api.post("/api/shares", json={"target": f"/flame?incident={incident}"})
    entries = api.get("/api/audit", params={"incident": incident}).json()
    seen = {(e["action"], e["object_type"]) for e in entries}
    assert {
        ("create", "incident"),
        ("create", "capture"),
        ("create", "annotation"),
        ("export", "capture"),
        ("share", "short-link"),
    } <= seen
    assert {e["actor_name"] for e in entries} == {"test-admin"}
    assert entries == sorted(entries, key=lambda e: e["id"], reverse=True)  # newest first
    only_exports = api.get("/api/audit", params={"incident": incident, "action": "export"}).json()
    assert [e["object_id"] for e in only_exports] == [str(upload["id"])]


def test_the_audit_log_cannot_be_rewritten(api: TestClient, database_url: str) -> None:
    make_incident(api)
    with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
        for statement in ("UPDATE audit_log SET actor_name = 'someone else'", "DELETE FROM audit_log"):
            with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
                conn.execute(statement)
