"""The trash: what is in it is hidden from lists and reads, listed for admins, and restored whole."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed
from tests.lifecycle.captures import cpu_capture, tag

pytestmark = pytest.mark.storage_neutral  # what is hidden, not how it is stored (test_purge runs on both)


def listed(api: TestClient) -> set[int]:
    return {i["id"] for i in api.get("/api/incidents").json()}


def capture_ids(api: TestClient, incident_id: int) -> list[int]:
    return [c["id"] for c in api.get(f"/api/incidents/{incident_id}/captures").json()]


def timeline_capture_ids(api: TestClient, incident_id: int) -> list[int]:
    tracks = api.get("/api/timeline/tracks", params={"incident": incident_id}).json()
    return sorted(c["id"] for host in tracks["hosts"] for c in host["captures"])


def test_a_trashed_capture_is_hidden_from_its_incident_and_the_views_until_restored(
    api: TestClient, worker: object
) -> None:
    incident = make_incident(api)
    kept, trashed = (upload_bytes(api, incident["id"], cpu_capture(tag()), f"{n}.txt") for n in "ab")
    for capture in (kept, trashed):
        wait_parsed(api, capture["id"])
    views = {"captures": str(trashed["id"])}

    assert api.delete(f"/api/captures/{trashed['id']}").status_code == 204
    assert capture_ids(api, incident["id"]) == [kept["id"]]
    assert api.get(f"/api/incidents/{incident['id']}").json()["capture_count"] == 1
    assert api.get(f"/api/captures/{trashed['id']}").status_code == 404
    assert api.get("/api/flame", params=views).status_code == 404
    assert timeline_capture_ids(api, incident["id"]) == [kept["id"]]
    trash = api.get("/api/trash").json()
    (entry,) = [c for c in trash["captures"] if c["id"] == trashed["id"]]
    deleted_at = datetime.fromisoformat(entry["deleted_at"])
    assert datetime.fromisoformat(entry["purge_after"]) - deleted_at == timedelta(days=trash["trash_days"])
    assert api.delete(f"/api/captures/{trashed['id']}").status_code == 404  # already in the trash

    assert api.post(f"/api/captures/{trashed['id']}/restore").status_code == 204
    assert capture_ids(api, incident["id"]) == [kept["id"], trashed["id"]]
    assert api.get("/api/flame", params=views).status_code == 200
    assert timeline_capture_ids(api, incident["id"]) == [kept["id"], trashed["id"]]
    assert trashed["id"] not in [c["id"] for c in api.get("/api/trash").json()["captures"]]
    assert api.post(f"/api/captures/{trashed['id']}/restore").status_code == 404  # not in the trash


def test_a_trashed_incident_is_hidden_with_its_captures_until_restored(
    api: TestClient, worker: object
) -> None:
    incident = make_incident(api)
    capture = upload_bytes(api, incident["id"], cpu_capture(tag()), "cpu.txt")
    wait_parsed(api, capture["id"])

    assert api.delete(f"/api/incidents/{incident['id']}").status_code == 204
    assert incident["id"] not in listed(api)
    assert api.get(f"/api/incidents/{incident['id']}").status_code == 404
    assert api.get(f"/api/incidents/{incident['id']}/captures").status_code == 404
    assert api.get(f"/api/captures/{capture['id']}").status_code == 404
    assert api.get("/api/flame", params={"captures": str(capture["id"])}).status_code == 404
    assert api.get("/api/timeline/tracks", params={"incident": incident["id"]}).status_code == 404
    assert api.get(f"/api/incidents/{incident['id']}/storage").status_code == 404
    trashed = [i for i in api.get("/api/trash").json()["incidents"] if i["id"] == incident["id"]]
    assert [i["capture_count"] for i in trashed] == [1]

    restored = api.post(f"/api/incidents/{incident['id']}/restore")
    assert restored.status_code == 200, restored.text
    assert restored.json()["capture_count"] == 1
    assert incident["id"] in listed(api)
    assert api.get(f"/api/captures/{capture['id']}").status_code == 200
    actions = [e["action"] for e in api.get("/api/audit", params={"incident": incident["id"]}).json()]
    assert actions[:2] == ["restore", "delete"]


def test_a_responder_trashes_but_only_an_admin_sees_the_trash_or_purges(
    api: TestClient, responder: TestClient
) -> None:
    incident = make_incident(api)
    assert responder.delete(f"/api/incidents/{incident['id']}").status_code == 204
    assert responder.get("/api/trash").status_code == 403
    assert responder.delete(f"/api/trash/incidents/{incident['id']}").status_code == 403
    assert responder.post(f"/api/incidents/{incident['id']}/restore").status_code == 200
