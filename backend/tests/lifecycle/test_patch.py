"""Editing an incident: the status steps and their first-time stamps, the text fields, visibility and
members, and one audit entry per change naming the fields changed."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident

pytestmark = pytest.mark.storage_neutral


def patch(api: TestClient, incident_id: int, **body: Any) -> dict[str, Any]:
    response = api.patch(f"/api/incidents/{incident_id}", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def changes(api: TestClient, incident_id: int) -> list[dict[str, Any]]:
    entries = api.get("/api/audit", params={"incident": incident_id, "action": "change"}).json()
    return [e["detail"] for e in reversed(entries)]


def test_each_status_stamps_its_time_once_and_going_back_keeps_the_stamps(
    api: TestClient, viewer: TestClient
) -> None:
    incident = make_incident(api)
    fresh = patch(api, incident["id"])
    assert fresh["status"] == "investigating"
    assert (fresh["identified_at"], fresh["mitigated_at"], fresh["resolved_at"]) == (None, None, None)

    identified = patch(api, incident["id"], status="identified")
    assert identified["identified_at"] is not None
    assert identified["mitigated_at"] is None
    mitigated = patch(api, incident["id"], status="mitigated")
    back = patch(api, incident["id"], status="investigating")
    assert back["status"] == "investigating"
    assert (back["identified_at"], back["mitigated_at"]) == (
        identified["identified_at"],
        mitigated["mitigated_at"],
    )
    again = patch(api, incident["id"], status="identified")
    assert again["identified_at"] == identified["identified_at"]  # the first time, not the latest
    resolved = patch(api, incident["id"], status="resolved")
    assert resolved["resolved_at"] is not None
    seen = viewer.get(f"/api/incidents/{incident['id']}").json()  # readers see the lifecycle too
    assert (seen["status"], seen["identified_at"], seen["resolved_at"]) == (
        "resolved",
        identified["identified_at"],
        resolved["resolved_at"],
    )
    (listed,) = [i for i in viewer.get("/api/incidents").json() if i["id"] == incident["id"]]
    assert listed["status"] == "resolved"
    assert [c["status"] for c in changes(api, incident["id"])] == [
        {"from": "investigating", "to": "identified"},
        {"from": "identified", "to": "mitigated"},
        {"from": "mitigated", "to": "investigating"},
        {"from": "investigating", "to": "identified"},
        {"from": "identified", "to": "resolved"},
    ]


def test_text_fields_change_and_the_audit_names_them(api: TestClient) -> None:
    incident = make_incident(api)
    out = patch(
        api,
        incident["id"],
        title="  checkout p99 at 2 s  ",
        severity="sev1",
        summary="the pool ran dry",
        root_cause="a connection leak in the retry path",
        remediation="close on every path; alert on pool use",
    )
    assert (out["title"], out["severity"], out["summary"]) == (
        "checkout p99 at 2 s",
        "sev1",
        "the pool ran dry",
    )
    assert out["root_cause"] == "a connection leak in the retry path"
    assert out["remediation"] == "close on every path; alert on pool use"
    assert api.get(f"/api/incidents/{incident['id']}").json()["title"] == "checkout p99 at 2 s"
    (entry,) = changes(api, incident["id"])
    assert set(entry) == {"title", "severity", "summary", "root_cause", "remediation"}
    assert entry["severity"] == {"from": "sev2", "to": "sev1"}
    assert entry["root_cause"] == {"changed": True}  # long texts are named, not copied

    patch(api, incident["id"], severity="sev1", title="checkout p99 at 2 s")  # nothing new
    assert len(changes(api, incident["id"])) == 1


def test_restricting_an_incident_keeps_whoever_restricts_it_and_its_members(
    api: TestClient, responder: TestClient, viewer: TestClient
) -> None:
    incident = make_incident(api)
    assert viewer.get(f"/api/incidents/{incident['id']}").status_code == 200
    out = patch(responder, incident["id"], visibility="restricted", members=["lifecycle-viewer"])
    assert out["visibility"] == "restricted"
    assert sorted(out["members"]) == ["lifecycle-responder", "lifecycle-viewer"]
    assert viewer.get(f"/api/incidents/{incident['id']}").status_code == 200
    patch(responder, incident["id"], members=[])
    assert viewer.get(f"/api/incidents/{incident['id']}").status_code == 404
    (entry, second) = changes(api, incident["id"])
    assert entry["visibility"] == {"from": "team", "to": "restricted"}
    assert second["members"] == {
        "from": ["lifecycle-responder", "lifecycle-viewer"],
        "to": ["lifecycle-responder"],
    }


def test_bad_values_are_refused_and_change_nothing(api: TestClient, viewer: TestClient) -> None:
    incident = make_incident(api)
    for body in (
        {"status": "closed"},
        {"severity": "sev9"},
        {"title": ""},
        {"title": "   "},
        {"members": ["nobody-here"]},
    ):
        assert api.patch(f"/api/incidents/{incident['id']}", json=body).status_code in {400, 422}, body
    assert viewer.patch(f"/api/incidents/{incident['id']}", json={"title": "x"}).status_code == 403
    assert changes(api, incident["id"]) == []
