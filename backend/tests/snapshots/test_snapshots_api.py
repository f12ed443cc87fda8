"""Snapshots uploaded to an incident, parsed by the real worker, listed and diffed over the API."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed

SNAP = Path(__file__).resolve().parents[1] / "ingest" / "data" / "snapshot_text"


@pytest.fixture(scope="module")
def incident(api: TestClient, worker: subprocess.Popen[bytes]) -> dict[str, Any]:
    incident = make_incident(api)
    ids = {}
    for name in ("pair/healthy.txt", "pair/impacted.txt", "start_end.txt", "collector.json"):
        capture = upload_bytes(api, incident["id"], (SNAP / name).read_bytes(), name.rsplit("/", 1)[-1])
        parsed = wait_parsed(api, int(capture["id"]))
        assert parsed["status"] == "ready", parsed
        ids[name] = int(capture["id"])
    return {"id": incident["id"], "captures": ids}


def keys(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(row["section"], row["key"]) for row in rows]


def test_an_incident_lists_each_take_of_each_snapshot(api: TestClient, incident: dict[str, Any]) -> None:
    captures = incident["captures"]
    listed = api.get(f"/api/incidents/{incident['id']}/snapshots").json()
    rows = [(s["capture_id"], s["take"], s["label"], s["source"], s["host"]) for s in listed]
    assert rows == [
        (captures["pair/healthy.txt"], 0, None, "text", "vm"),
        (captures["pair/impacted.txt"], 0, None, "text", "vm"),
        (captures["start_end.txt"], 0, "start", "text", "vm"),
        (captures["start_end.txt"], 1, "end", "text", "vm"),
        (captures["collector.json"], 0, None, "collector", "vm"),
    ]
    start, end = (s for s in listed if s["capture_id"] == captures["start_end.txt"])
    assert end["taken_at_ns"] > start["taken_at_ns"]


def test_the_diff_between_hosts_puts_the_story_settings_first(
    api: TestClient, incident: dict[str, Any]
) -> None:
    captures = incident["captures"]
    a, b = captures["pair/healthy.txt"], captures["pair/impacted.txt"]
    response = api.get("/api/snapshots/diff", params={"a": str(a), "b": f"{b}:0"})
    assert response.status_code == 200, response.text
    diff = response.json()
    assert (diff["a"]["capture_id"], diff["b"]["capture_id"]) == (a, b)
    assert keys(diff["changed"]) == [
        ("transparent_hugepage", "defrag"),
        ("cpu", "governors"),
        ("vm", "dirty_background_ratio"),
        ("vm", "dirty_ratio"),
    ]
    assert all(row["hint"] for row in diff["changed"])
    assert ("bpf", "program · tracepoint fsync_lat") in keys(diff["added"])
    assert keys(diff["removed"]) == [("processes", "appserver · environment · LD_BIND_NOW")]
    assert len(diff["unchanged"]) > 30


def test_the_diff_between_the_start_and_end_of_one_snapshot(
    api: TestClient, incident: dict[str, Any]
) -> None:
    capture = incident["captures"]["start_end.txt"]
    diff = api.get("/api/snapshots/diff", params={"a": f"{capture}:0", "b": f"{capture}:1"}).json()
    assert (diff["a"]["label"], diff["b"]["label"]) == ("start", "end")
    assert diff["changed"] == []
    assert ("bpf", "program · tracepoint fsync_lat") in keys(diff["added"])


def test_the_collector_and_a_text_snapshot_of_the_same_host_agree(
    api: TestClient, incident: dict[str, Any]
) -> None:
    captures = incident["captures"]
    a, b = captures["collector.json"], captures["start_end.txt"]
    diff = api.get("/api/snapshots/diff", params={"a": str(a), "b": f"{b}:0"}).json()
    assert (diff["changed"], diff["added"], diff["removed"]) == ([], [], [])
    assert diff["a"]["source"] == "collector"


@pytest.mark.parametrize(
    ("a", "b", "status", "message"),
    [
        ("x", "1", 422, "expected CAPTURE or CAPTURE:TAKE"),
        ("999999", "1", 404, "capture 999999 does not exist"),
    ],
)
def test_bad_sides_are_named(
    api: TestClient, incident: dict[str, Any], a: str, b: str, status: int, message: str
) -> None:
    response = api.get("/api/snapshots/diff", params={"a": a, "b": b})
    assert response.status_code == status
    assert message in response.text


def test_a_take_the_capture_does_not_have(api: TestClient, incident: dict[str, Any]) -> None:
    capture = incident["captures"]["pair/healthy.txt"]
    response = api.get("/api/snapshots/diff", params={"a": str(capture), "b": f"{capture}:5"})
    assert response.status_code == 404
    assert f"side B: capture {capture} holds no snapshot take 5" in response.text


def test_a_document_with_a_strange_take_still_lists(api: TestClient, worker: subprocess.Popen[bytes]) -> None:
    """Uploaded JSON is untrusted: a take index that is not a small number must not break the list."""
    incident = make_incident(api)
    ids = []
    for index in ('"abc"', "1.5", "99999999999999999999"):
        body = (
            SNAP.joinpath("collector.json")
            .read_text()
            .replace('"version": 1,', f'"version": 1, "take": {{"index": {index}}},', 1)
        )
        capture = upload_bytes(api, incident["id"], body.encode(), "odd.json")
        assert wait_parsed(api, int(capture["id"]))["status"] == "ready"
        ids.append(int(capture["id"]))
    listed = api.get(f"/api/incidents/{incident['id']}/snapshots")
    assert listed.status_code == 200, listed.text
    assert [(s["capture_id"], s["take"]) for s in listed.json()] == [(i, 0) for i in ids]
    assert api.get("/api/snapshots/diff", params={"a": str(ids[0]), "b": str(ids[1])}).json()["changed"] == []
