"""Restricted incidents: seen by their members and admins only, in lists, by id, through their
captures and through every view's query; others get 404, as for what does not exist."""

from __future__ import annotations

import subprocess

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.people import bearer, token_for
from tests.fixtures.worker import wait_parsed
from tests.tokens.test_collector_uploads import SAMPLE

pytestmark = pytest.mark.storage_neutral


def test_a_restricted_incident_is_invisible_to_non_members(
    api: TestClient, database_url: str, worker: subprocess.Popen[bytes]
) -> None:
    member = bearer(token_for(database_url, "vis-member", "responder"))
    outsider = bearer(token_for(database_url, "vis-outsider", "responder"))
    body = {"title": "security incident", "started_at": "2026-11-21T08:00:00Z", "visibility": "restricted"}
    created = api.post("/api/incidents", json={**body, "members": ["vis-member"]})
    assert created.status_code == 201, created.text
    incident = created.json()
    assert incident["visibility"] == "restricted"
    assert incident["members"] == ["test-admin", "vis-member"]  # whoever restricts it stays a member
    upload = api.post(
        f"/api/incidents/{incident['id']}/captures",
        params={"filename": "svc.txt"},
        content=SAMPLE,
        headers={"Content-Type": "application/octet-stream"},
    )
    capture = wait_parsed(api, upload.json()["id"])

    listed = lambda headers: [i["id"] for i in api.get("/api/incidents", headers=headers).json()]  # noqa: E731
    assert incident["id"] in listed(member)
    assert incident["id"] not in listed(outsider)
    for path in (
        f"/api/incidents/{incident['id']}",
        f"/api/incidents/{incident['id']}/captures",
        f"/api/incidents/{incident['id']}/findings",
        f"/api/captures/{capture['id']}",
        f"/api/flame?captures={capture['id']}",
        f"/api/timeline/tracks?incident={incident['id']}",
        f"/api/diff?a.captures={capture['id']}&b.captures={capture['id']}",
    ):
        assert api.get(path, headers=member).status_code == 200, path
        refused = api.get(path, headers=outsider)
        assert refused.status_code == 404, f"{path}: {refused.status_code}"
    # Nor can an outsider write to it.
    annotation = {"ts": "2026-11-21T08:00:00Z", "text": "x"}
    assert (
        api.post(
            f"/api/incidents/{incident['id']}/annotations", json=annotation, headers=outsider
        ).status_code
        == 404
    )


def test_whoever_restricts_an_incident_keeps_seeing_it(api: TestClient, database_url: str) -> None:
    creator = bearer(token_for(database_url, "vis-creator", "responder"))
    body = {"title": "mine", "started_at": "2026-11-21T08:00:00Z", "visibility": "restricted"}
    incident = api.post("/api/incidents", json=body, headers=creator).json()
    assert incident["members"] == ["vis-creator"]
    assert api.get(f"/api/incidents/{incident['id']}", headers=creator).status_code == 200


def test_an_unknown_member_is_refused_by_name(api: TestClient) -> None:
    body = {
        "title": "x",
        "started_at": "2026-11-21T08:00:00Z",
        "visibility": "restricted",
        "members": ["nobody-here"],
    }
    response = api.post("/api/incidents", json=body)
    assert response.status_code == 422
    assert "nobody-here" in response.json()["detail"]
