"""Short links: made once per view, opened through the console's page (which asks the API where the
link goes, signed in), never pointed outside the console, and opening only for people who may see
the incident they name."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident
from tests.fixtures.people import bearer, token_for

# Tokens, links, the browser guard, incident and annotation rows: nothing here depends on how
# records are stored, so the TimescaleDB half need not run it again.
pytestmark = pytest.mark.storage_neutral


def _target(incident_id: int) -> str:
    return f"/flame?v=3&incident={incident_id}&from=2026-11-21T08:00:01.000000Z&q=a%26b&zoom=main"


def test_a_view_gets_one_short_link_that_the_console_opens(api: TestClient, anonymous: TestClient) -> None:
    target = _target(make_incident(api)["id"])
    first = api.post("/api/shares", json={"target": target})
    assert first.status_code == 201, first.text
    link = first.json()
    assert link["target"] == target
    assert link["path"] == f"/s/{link['id']}"
    assert len(link["id"]) == 8
    again = api.post("/api/shares", json={"target": target}).json()
    assert again["id"] == link["id"]
    assert api.get(f"/api/shares/{link['id']}").json()["target"] == target
    # Followed without signing in: the console's page, which does not say where the link goes.
    followed = anonymous.get(link["path"], follow_redirects=False)
    assert followed.status_code in (200, 503)
    assert "incident=" not in followed.text
    assert anonymous.get(f"/api/shares/{link['id']}").status_code == 401


def test_links_outside_the_console_or_to_unknown_pages_are_refused(api: TestClient) -> None:
    for target in (
        "https://evil.example/",
        "//evil.example/x",
        "javascript:alert(1)",
        "/api/flame?x",
        "flame",
    ):
        response = api.post("/api/shares", json={"target": target})
        assert response.status_code == 422, target


def test_an_unknown_link_says_so(api: TestClient) -> None:
    assert api.get("/api/shares/nope").status_code == 404


def test_a_link_to_a_restricted_incident_opens_for_its_members_only(
    api: TestClient, database_url: str
) -> None:
    token_for(database_url, "share-member", "viewer")
    incident = api.post(
        "/api/incidents",
        json={
            "title": "customer data",
            "started_at": "2026-11-21T08:00:00Z",
            "visibility": "restricted",
            "members": ["share-member"],
        },
    ).json()
    link = api.post("/api/shares", json={"target": _target(incident["id"])}).json()
    member = bearer(token_for(database_url, "share-member", "viewer"))
    outsider = bearer(token_for(database_url, "share-outsider", "viewer"))
    assert api.get(f"/api/shares/{link['id']}", headers=member).status_code == 200
    refused = api.get(f"/api/shares/{link['id']}", headers=outsider)
    assert refused.status_code == 404
    assert "does not exist" in refused.json()["detail"]
