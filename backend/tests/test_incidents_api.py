"""Incidents through the API."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident

# Tokens, links, the browser guard, incident and annotation rows: nothing here depends on how
# records are stored, so the TimescaleDB half need not run it again.
pytestmark = pytest.mark.storage_neutral


def test_create_then_list_and_get(api: TestClient) -> None:
    created = make_incident(api, title="fsync takes 10 s", severity="sev1")
    assert created["capture_count"] == 0
    listed = api.get("/api/incidents").json()
    assert created["id"] in [i["id"] for i in listed]
    fetched = api.get(f"/api/incidents/{created['id']}").json()
    assert fetched["title"] == "fsync takes 10 s"
    assert fetched["severity"] == "sev1"


def test_validation_errors_name_the_field(api: TestClient) -> None:
    response = api.post(
        "/api/incidents", json={"title": "", "severity": "sev9", "started_at": "2026-11-21T08:00:00"}
    )
    assert response.status_code == 422
    fields = {tuple(e["loc"]) for e in response.json()["detail"]}
    assert ("body", "title") in fields
    assert ("body", "severity") in fields
    assert ("body", "started_at") in fields


def test_missing_incident_is_404(api: TestClient) -> None:
    response = api.get("/api/incidents/987654")
    assert response.status_code == 404
    assert response.json() == {"detail": "incident 987654 does not exist"}


def test_openapi_docs_are_served(api: TestClient) -> None:
    assert api.get("/docs").status_code == 200
    paths = api.get("/openapi.json").json()["paths"]
    assert "/api/flame" in paths
    assert "/api/incidents/{incident_id}/captures" in paths
