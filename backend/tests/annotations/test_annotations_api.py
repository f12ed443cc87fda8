"""Annotations: pinned to an instant of an incident, listed in time order, edited, deleted, validated."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident

# Tokens, links, the browser guard, incident and annotation rows: nothing here depends on how
# records are stored, so the TimescaleDB half need not run it again.
pytestmark = pytest.mark.storage_neutral


def create(api: TestClient, incident_id: int, **body: Any) -> dict[str, Any]:
    response = api.post(f"/api/incidents/{incident_id}/annotations", json=body)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def listed(api: TestClient, incident_id: int, **params: str) -> list[dict[str, Any]]:
    response = api.get(f"/api/incidents/{incident_id}/annotations", params=params)
    assert response.status_code == 200, response.text
    result: list[dict[str, Any]] = response.json()
    return result


def test_create_list_edit_delete(api: TestClient) -> None:
    incident = make_incident(api)
    later = create(
        api, incident["id"], ts="2026-11-21T08:00:02.500001Z", text="set LD_BIND_NOW=y", host="db1"
    )
    earlier = create(api, incident["id"], ts="2026-11-21T09:00:00+01:00", text="deploy <b>v2</b>")
    assert later["ts"] == "2026-11-21T08:00:02.500001Z"
    assert (later["host"], earlier["host"]) == ("db1", None)
    assert earlier["text"] == "deploy <b>v2</b>"  # stored as written; the UI renders it as text
    assert [a["id"] for a in listed(api, incident["id"])] == [earlier["id"], later["id"]]
    window = listed(api, incident["id"], start="2026-11-21T08:00:01Z", end="2026-11-21T08:00:03Z")
    assert [a["id"] for a in window] == [later["id"]]

    edited = api.patch(f"/api/annotations/{later['id']}", json={"text": "LD_BIND_NOW=y on db1 only"})
    assert edited.status_code == 200, edited.text
    assert edited.json()["text"] == "LD_BIND_NOW=y on db1 only"
    assert edited.json()["ts"] == later["ts"]

    assert api.delete(f"/api/annotations/{earlier['id']}").status_code == 204
    assert [a["id"] for a in listed(api, incident["id"])] == [later["id"]]
    assert api.delete(f"/api/annotations/{earlier['id']}").status_code == 404


def test_annotations_belong_to_their_incident(api: TestClient) -> None:
    one, two = make_incident(api), make_incident(api)
    create(api, one["id"], ts="2026-11-21T08:00:00Z", text="only here")
    assert listed(api, two["id"]) == []
    missing = api.get("/api/incidents/999999/annotations")
    assert missing.status_code == 404
    assert "999999" in missing.json()["detail"]
    assert (
        api.post(
            "/api/incidents/999999/annotations", json={"ts": "2026-11-21T08:00:00Z", "text": "x"}
        ).status_code
        == 404
    )


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"ts": "2026-11-21T08:00:00", "text": "naive"}, "time zone"),
        ({"ts": "2026-11-21T08:00:00Z", "text": ""}, "at least 1"),
        ({"ts": "2026-11-21T08:00:00Z", "text": "   "}, "blank"),
        ({"ts": "2026-11-21T08:00:00Z", "text": "x" * 2001}, "at most 2000"),
        ({"ts": "not a time", "text": "x"}, "datetime"),
        ({"text": "no time"}, "ts"),
    ],
)
def test_bad_annotations_are_refused_with_the_reason(
    api: TestClient, body: dict[str, Any], problem: str
) -> None:
    incident = make_incident(api)
    response = api.post(f"/api/incidents/{incident['id']}/annotations", json=body)
    assert response.status_code == 422
    assert problem in str(response.json()["detail"])


def test_longest_text_is_accepted_and_edits_are_validated_too(api: TestClient) -> None:
    incident = make_incident(api)
    note = create(api, incident["id"], ts="2026-11-21T08:00:00Z", text="y" * 2000)
    assert len(note["text"]) == 2000
    assert api.patch(f"/api/annotations/{note['id']}", json={"text": ""}).status_code == 422
    assert api.patch(f"/api/annotations/{note['id']}", json={"text": "z" * 2001}).status_code == 422
    assert api.patch("/api/annotations/999999", json={"text": "fine"}).status_code == 404
