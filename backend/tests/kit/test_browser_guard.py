"""Other web pages cannot read the console (Host check) or write to it (cross-site check)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from stallscope.main import create_app
from tests.fixtures.factories import make_incident
from tests.fixtures.people import bearer

# Tokens, links, the browser guard, incident and annotation rows: nothing here depends on how
# records are stored, so the TimescaleDB half need not run it again.
pytestmark = pytest.mark.storage_neutral


@pytest.fixture(scope="module")
def bare(database_url: str, admin_token: str) -> Iterator[TestClient]:
    """A client that sends what a browser on another site could: no marker header. It holds
    credentials, as a signed-in browser would: the guard must refuse regardless."""
    with TestClient(create_app(), base_url="http://localhost", headers=bearer(admin_token)) as client:
        yield client


def test_a_foreign_host_name_is_refused(bare: TestClient) -> None:
    response = bare.get("/api/incidents", headers={"Host": "attacker.example"})
    assert response.status_code == 400
    assert "attacker.example" in response.json()["detail"]
    assert "STALLSCOPE_ALLOWED_HOSTS" in response.json()["detail"]


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000"])
def test_the_console_answers_to_its_own_names(bare: TestClient, host: str) -> None:
    assert bare.get("/api/incidents", headers={"Host": host}).status_code == 200


def test_a_form_encoded_post_is_refused(api: TestClient, bare: TestClient) -> None:
    capture_url = f"/api/incidents/{make_incident(api)['id']}/captures?filename=x.txt"
    form = bare.post(capture_url, data={"a": "b"})
    assert form.status_code == 415
    text = bare.post(capture_url, content=b"cpu 1", headers={"Content-Type": "text/plain"})
    assert text.status_code == 415
    bodiless = bare.post("/api/captures/1/reparse")
    assert bodiless.status_code == 415
    assert "X-Requested-With" in bodiless.json()["detail"]


def test_a_write_from_another_origin_is_refused(bare: TestClient) -> None:
    response = bare.post(
        "/api/incidents",
        json={"title": "x", "started_at": "2026-11-21T08:00:00Z"},
        headers={"Origin": "http://attacker.example"},
    )
    assert response.status_code == 403
    null_origin = bare.post(
        "/api/incidents",
        json={"title": "x", "started_at": "2026-11-21T08:00:00Z"},
        headers={"Origin": "null"},
    )
    assert null_origin.status_code == 403


def test_writes_the_console_s_clients_send_are_taken(bare: TestClient) -> None:
    body = {"title": "same origin", "started_at": "2026-11-21T08:00:00Z"}
    assert bare.post("/api/incidents", json=body, headers={"Origin": "http://localhost"}).status_code == 201
    assert bare.post("/api/incidents", json=body).status_code == 201  # curl, the CLI
    incident = bare.post("/api/incidents", json=body).json()["id"]
    upload = bare.post(
        f"/api/incidents/{incident}/captures?filename=cpu.txt",
        content=b"cpu 1\n",
        headers={"Content-Type": "application/octet-stream"},
    )
    assert upload.status_code == 202, upload.text
    marked = bare.post(f"/api/captures/{upload.json()['id']}/reparse", headers={"X-Requested-With": "x"})
    assert marked.status_code == 202


def test_security_headers(bare: TestClient) -> None:
    for path in ("/", "/api/incidents", "/api/no-such-route"):
        headers = bare.get(path).headers
        csp = headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp
        assert "script-src 'self';" in csp, "no inline script in the console"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"
    refused = bare.get("/api/incidents", headers={"Host": "attacker.example"})
    assert "frame-ancestors 'none'" in refused.headers["content-security-policy"]
