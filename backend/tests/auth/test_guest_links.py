"""Guest links for vendors: read one incident (optionally some captures and views) and nothing else;
stop working when revoked or expired; every opening is in the audit log; download the bundle of
what they show when the link allows it."""

from __future__ import annotations

import io
import json
import subprocess
import zipfile
from datetime import datetime
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from stallscope.db import libpq_url
from stallscope.main import create_app
from tests.fixtures.factories import make_incident
from tests.fixtures.worker import wait_parsed
from tests.tokens.test_collector_uploads import SAMPLE

pytestmark = pytest.mark.storage_neutral


def _upload(api: TestClient, incident_id: int) -> dict[str, Any]:
    response = api.post(
        f"/api/incidents/{incident_id}/captures",
        params={"filename": "svc.txt", "host": "db-1"},
        content=SAMPLE,
        headers={"Content-Type": "application/octet-stream"},
    )
    return wait_parsed(api, response.json()["id"])


def _guest() -> TestClient:
    """A fresh browser: its own cookie jar."""
    return TestClient(create_app(), base_url="http://localhost", headers={"X-Requested-With": "guest"})


def test_a_guest_reads_its_incident_and_nothing_else(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    incident, other = make_incident(api)["id"], make_incident(api)["id"]
    capture = _upload(api, incident)
    elsewhere = _upload(api, other)
    created = api.post(f"/api/incidents/{incident}/guest-links", json={"label": "vendor support"})
    assert created.status_code == 201, created.text
    link = created.json()
    assert link["path"].startswith("/g/ssg_")
    assert link["expires_at"] > link["created_at"]
    with _guest() as guest:
        assert guest.get(f"/api/incidents/{incident}").status_code == 401
        opened = guest.post(f"/api/guest/{link['secret']}")
        assert opened.status_code == 200, opened.text
        me = opened.json()
        assert (me["role"], me["incident_id"], me["permissions"]) == ("guest", incident, ["read"])
        assert datetime.fromisoformat(me["expires_at"]) == datetime.fromisoformat(link["expires_at"])
        assert guest.get(f"/api/incidents/{incident}").status_code == 200
        assert guest.get(f"/api/flame?captures={capture['id']}").status_code == 200
        assert [i["id"] for i in guest.get("/api/incidents").json()] == [incident]
        assert guest.get(f"/api/incidents/{other}").status_code == 404
        assert guest.get(f"/api/flame?captures={elsewhere['id']}").status_code == 404
        # Read-only, no admin pages, no raw files.
        assert (
            guest.post(
                "/api/incidents", json={"title": "x", "started_at": "2026-11-21T08:00:00Z"}
            ).status_code
            == 403
        )
        assert guest.get("/api/users").status_code == 403
        assert guest.get(f"/api/captures/{capture['id']}/raw").status_code == 403
        assert guest.post(f"/api/incidents/{incident}/guest-links", json={}).status_code == 403


def test_a_revoked_or_expired_link_stops_working_and_its_uses_are_audited(
    api: TestClient, database_url: str
) -> None:
    incident = make_incident(api)["id"]
    link = api.post(f"/api/incidents/{incident}/guest-links", json={"label": "acme"}).json()
    with _guest() as guest:
        assert guest.post(f"/api/guest/{link['secret']}").status_code == 200
        assert guest.get(f"/api/incidents/{incident}").status_code == 200
        assert api.delete(f"/api/guest-links/{link['id']}").status_code == 200
        ended = guest.get(f"/api/incidents/{incident}")
        assert ended.status_code == 401  # the session the link opened ends with it, saying why
        assert "revoked" in ended.json()["detail"]
        again = guest.post(f"/api/guest/{link['secret']}")
        assert again.status_code == 401
        assert "revoked" in again.json()["detail"]

    expiring = api.post(f"/api/incidents/{incident}/guest-links", json={"label": "short"}).json()
    with _guest() as guest:
        assert guest.post(f"/api/guest/{expiring['secret']}").status_code == 200
        with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
            conn.execute(
                "UPDATE guest_links SET expires_at = now() - interval '1 minute' WHERE id = %s",
                (expiring["id"],),
            )
            conn.execute(
                "UPDATE user_sessions SET expires_at = now() - interval '1 minute' WHERE guest_link_id = %s",
                (expiring["id"],),
            )
        assert guest.get(f"/api/incidents/{incident}").status_code == 401
        expired = guest.post(f"/api/guest/{expiring['secret']}")
        assert expired.status_code == 401
        assert "expired" in expired.json()["detail"]

    entries = api.get("/api/audit", params={"incident": incident}).json()
    actions = [(e["action"], e["object_type"], e["actor_name"]) for e in entries]
    assert ("guest-view", "guest-link", "acme") in actions
    assert ("guest-view", "guest-link", "short") in actions
    assert ("revoke", "guest-link", "test-admin") in actions
    listed = {g["id"]: g for g in api.get(f"/api/incidents/{incident}/guest-links").json()}
    assert listed[link["id"]]["uses"] == 1
    assert listed[link["id"]]["revoked_at"] is not None


def test_a_link_limited_to_captures_and_views_keeps_to_them(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    incident = make_incident(api)["id"]
    shown, hidden = _upload(api, incident), _upload(api, incident)
    body = {"label": "flame only", "capture_ids": [shown["id"]], "views": ["flame"]}
    link = api.post(f"/api/incidents/{incident}/guest-links", json=body).json()
    with _guest() as guest:
        guest.post(f"/api/guest/{link['secret']}")
        assert [c["id"] for c in guest.get(f"/api/incidents/{incident}/captures").json()] == [shown["id"]]
        assert guest.get(f"/api/flame?captures={shown['id']}").status_code == 200
        assert guest.get(f"/api/flame?captures={hidden['id']}").status_code == 404
        timeline = guest.get(f"/api/timeline/tracks?incident={incident}&captures={shown['id']}")
        assert timeline.status_code == 403
        assert "only these views: flame" in timeline.json()["detail"]
    # Findings cover every capture of the incident: not for a link that shows some of them.
    some = api.post(f"/api/incidents/{incident}/guest-links", json={"capture_ids": [shown["id"]]}).json()
    with _guest() as guest:
        guest.post(f"/api/guest/{some['secret']}")
        assert guest.get(f"/api/incidents/{incident}/findings").status_code == 404
        assert guest.get(f"/api/timeline/tracks?incident={incident}").status_code == 404


def test_a_link_may_let_its_guest_download_the_bundle_of_what_it_shows(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    incident = make_incident(api)["id"]
    shown, _hidden = _upload(api, incident), _upload(api, incident)
    plain = api.post(f"/api/incidents/{incident}/guest-links", json={"capture_ids": [shown["id"]]}).json()
    body = {"capture_ids": [shown["id"]], "bundle": True}
    allowed = api.post(f"/api/incidents/{incident}/guest-links", json=body).json()
    assert (plain["bundle"], allowed["bundle"]) == (False, True)
    with _guest() as guest:
        assert guest.post(f"/api/guest/{plain['secret']}").json()["permissions"] == ["read"]
        refused = guest.post(f"/api/incidents/{incident}/bundle", json={})
        assert refused.status_code == 403, refused.text
    with _guest() as guest:
        assert guest.post(f"/api/guest/{allowed['secret']}").json()["permissions"] == ["export", "read"]
        answer = guest.post(f"/api/incidents/{incident}/bundle", json={"raw": True, "postmortem": True})
        assert answer.status_code == 200, answer.text
    bundle = zipfile.ZipFile(io.BytesIO(answer.content))
    manifest = json.loads(bundle.read("manifest.json"))
    assert len(manifest["captures"]) == 1, "the link shows one capture"
    names = bundle.namelist()
    assert not [n for n in names if n.startswith(("raw/", "postmortem"))], names
    assert any("findings" in note for note in manifest["left_out"]), manifest["left_out"]
