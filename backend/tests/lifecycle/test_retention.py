"""The retention task, queued the way the console's maintenance loop queues it and run by the real
worker, removes exactly what its policy says: captures of incidents resolved long enough ago, old
failed uploads and old watch-stream captures go to the trash, and what has been in the trash longer
than its days is purged. Nothing else changes."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stallscope.maintenance.jobs import queue_retention
from tests.fixtures.db import Conn
from tests.fixtures.factories import make_incident
from tests.fixtures.worker import wait_parsed
from tests.lifecycle.captures import blob_file, cpu_capture, tag
from tests.timeline.capture_text import upload_parsed

POLICY = {"resolved_after_days": 5, "failed_after_days": 5, "watch_days": 5, "trash_days": 7}
RUN_TIMEOUT_S = 90


@pytest.fixture
def policy(api: TestClient) -> Iterator[dict[str, Any]]:
    before = api.get("/api/retention").json()
    assert api.put("/api/retention", json=POLICY).status_code == 200
    yield POLICY
    assert api.put("/api/retention", json=before).status_code == 200


def capture(api: TestClient, incident_id: int) -> dict[str, Any]:
    return upload_parsed(api, incident_id, cpu_capture(tag()), "cpu.txt")


def watch_capture(api: TestClient, host: str) -> dict[str, Any]:
    """A capture uploaded to the host's watch stream, parsed."""
    response = api.post(
        "/api/collector/captures",
        params={"watch": "true", "host": host, "filename": "cpu.txt"},
        content=cpu_capture(tag()),
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 202, response.text
    found: dict[str, Any] = wait_parsed(api, response.json()["id"])
    return found


def age(db: Conn, table: str, column: str, row_id: int, days: float) -> None:
    db.execute(
        f"UPDATE {table} SET {column} = now() - make_interval(days => %s) WHERE id = %s", (days, row_id)
    )


def resolve(api: TestClient, incident_id: int) -> None:
    response = api.patch(f"/api/incidents/{incident_id}", json={"status": "resolved"})
    assert response.status_code == 200, response.text


def state(db: Conn, capture_ids: list[int]) -> dict[int, str]:
    """Each capture: live, trashed or gone."""
    rows = dict(
        db.execute(
            "SELECT id, deleted_at IS NOT NULL FROM captures WHERE id = ANY(%s)", (capture_ids,)
        ).fetchall()
    )
    return {c: "gone" if c not in rows else "trashed" if rows[c] else "live" for c in capture_ids}


def incident_state(db: Conn, incident_ids: list[int]) -> dict[int, str]:
    rows = dict(
        db.execute(
            "SELECT id, deleted_at IS NOT NULL FROM incidents WHERE id = ANY(%s)", (incident_ids,)
        ).fetchall()
    )
    return {i: "gone" if i not in rows else "trashed" if rows[i] else "live" for i in incident_ids}


def test_the_retention_task_removes_what_the_policy_says_and_nothing_else(
    api: TestClient, worker: object, db: Conn, data_dir: Path, policy: dict[str, Any]
) -> None:
    old_resolved, recent_resolved, reopened, open_ = (make_incident(api)["id"] for _ in range(4))
    trashed_long_ago, trashed_lately = (make_incident(api)["id"] for _ in range(2))
    c = {
        "of old resolved": capture(api, old_resolved),
        "of recent resolved": capture(api, recent_resolved),
        "of reopened": capture(api, reopened),
        "old but open": capture(api, open_),
        "failed long ago": capture(api, open_),
        "failed lately": capture(api, open_),
        "trashed long ago": capture(api, open_),
        "trashed lately": capture(api, open_),
        "of incident trashed long ago": capture(api, trashed_long_ago),
        "old watch": watch_capture(api, "retention-host"),
        "recent watch": watch_capture(api, "retention-host"),
    }
    ids = {name: found["id"] for name, found in c.items()}

    for incident in (old_resolved, recent_resolved, reopened):
        resolve(api, incident)
    age(db, "incidents", "resolved_at", old_resolved, 10)
    age(db, "incidents", "resolved_at", recent_resolved, 2)
    assert api.patch(f"/api/incidents/{reopened}", json={"status": "identified"}).status_code == 200
    age(db, "incidents", "resolved_at", reopened, 10)  # resolved once, long ago, but no longer
    age(db, "captures", "created_at", ids["old but open"], 30)
    age(db, "captures", "created_at", ids["old watch"], 10)
    age(db, "captures", "created_at", ids["recent watch"], 2)
    for name, days in (("failed long ago", 10), ("failed lately", 2)):
        db.execute("UPDATE captures SET status = 'failed' WHERE id = %s", (ids[name],))
        age(db, "captures", "created_at", ids[name], days)
    for name, days in (("trashed long ago", 8), ("trashed lately", 2)):
        assert api.delete(f"/api/captures/{ids[name]}").status_code == 204
        age(db, "captures", "deleted_at", ids[name], days)
    for incident, days in ((trashed_long_ago, 8), (trashed_lately, 2)):
        assert api.delete(f"/api/incidents/{incident}").status_code == 204
        age(db, "incidents", "deleted_at", incident, days)
    purged_blobs = [
        blob_file(data_dir, c[n]["sha256"]) for n in ("trashed long ago", "of incident trashed long ago")
    ]
    assert all(path.is_file() for path in purged_blobs)

    queue_retention()  # what the console's maintenance loop sends every hour
    deadline = time.monotonic() + RUN_TIMEOUT_S
    while incident_state(db, [trashed_long_ago])[trashed_long_ago] != "gone" or any(
        path.exists() for path in purged_blobs
    ):
        assert time.monotonic() < deadline, "the worker did not run the retention task"
        time.sleep(0.2)

    assert state(db, list(ids.values())) == {
        ids["of old resolved"]: "trashed",
        ids["of recent resolved"]: "live",
        ids["of reopened"]: "live",
        ids["old but open"]: "live",
        ids["failed long ago"]: "trashed",
        ids["failed lately"]: "live",
        ids["trashed long ago"]: "gone",
        ids["trashed lately"]: "trashed",
        ids["of incident trashed long ago"]: "gone",
        ids["old watch"]: "trashed",
        ids["recent watch"]: "live",
    }
    everyone = [old_resolved, recent_resolved, reopened, open_, trashed_long_ago, trashed_lately]
    assert incident_state(db, everyone) == {
        old_resolved: "live",  # its captures go, the incident and its write-up stay
        recent_resolved: "live",
        reopened: "live",
        open_: "live",
        trashed_long_ago: "gone",
        trashed_lately: "trashed",
    }
    entries = api.get("/api/audit", params={"actor": "console"}).json()
    by_console = {
        (e["action"], e["object_type"], e["object_id"]) for e in entries if e["actor_kind"] == "system"
    }
    assert {
        ("delete", "capture", str(ids["of old resolved"])),
        ("delete", "capture", str(ids["failed long ago"])),
        ("delete", "capture", str(ids["old watch"])),
        ("purge", "capture", str(ids["trashed long ago"])),
        ("purge", "incident", str(trashed_long_ago)),
    } <= by_console
    mine = {str(i) for i in ids.values()} | {str(i) for i in everyone}
    assert {key for key in by_console if key[2] in mine} == {
        ("delete", "capture", str(ids["of old resolved"])),
        ("delete", "capture", str(ids["failed long ago"])),
        ("delete", "capture", str(ids["old watch"])),
        ("purge", "capture", str(ids["trashed long ago"])),
        ("purge", "incident", str(trashed_long_ago)),
    }


def test_the_policy_is_read_and_written_whole(api: TestClient, policy: dict[str, Any]) -> None:
    assert api.get("/api/retention").json() == POLICY
    assert api.put("/api/retention", json={"trash_days": 3}).status_code == 422  # no partial bodies
    assert api.put("/api/retention", json={**POLICY, "trash_days": -1}).status_code == 422
    assert api.get("/api/retention").json() == POLICY
