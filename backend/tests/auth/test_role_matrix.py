"""Every API route of the OpenAPI schema, called as nobody, as a collector token, as a viewer, a
responder and an admin: 401 without credentials, 403 for a role without the route's permission, and
neither for a role with it. The expected permission of every route is written out below, so a new
route, or a route whose permission changes, fails here until someone decides what it should be."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from stallscope.auth.declared import declared_permissions
from stallscope.auth.roles import GRANTS, Permission, Role
from stallscope.main import create_app
from tests.fixtures.people import bearer, token_for

pytestmark = pytest.mark.storage_neutral

R, W, U, A, E = Permission.READ, Permission.RESPOND, Permission.UPLOAD, Permission.ADMIN, Permission.EXPORT
PUBLIC = None

EXPECTED: dict[tuple[str, str], Permission | None] = {
    ("GET", "/api/health"): PUBLIC,
    ("POST", "/api/auth/login"): PUBLIC,
    ("GET", "/api/auth/oidc"): PUBLIC,
    ("GET", "/api/auth/oidc/login"): PUBLIC,
    ("GET", "/api/auth/oidc/callback"): PUBLIC,
    ("POST", "/api/auth/logout"): R,
    ("GET", "/api/auth/me"): R,
    ("POST", "/api/auth/password"): R,
    ("GET", "/api/auth/tokens"): R,
    ("POST", "/api/auth/tokens"): R,
    ("DELETE", "/api/auth/tokens/{token_id}"): R,
    ("GET", "/api/users"): A,
    ("POST", "/api/users"): A,
    ("PATCH", "/api/users/{user_id}"): A,
    ("GET", "/api/audit"): A,
    ("POST", "/api/guest/{secret}"): PUBLIC,
    ("POST", "/api/incidents/{incident_id}/guest-links"): W,
    ("GET", "/api/incidents/{incident_id}/guest-links"): W,
    ("DELETE", "/api/guest-links/{link_id}"): W,
    ("GET", "/api/incidents"): R,
    ("POST", "/api/incidents"): W,
    ("GET", "/api/incidents/{incident_id}"): R,
    ("GET", "/api/incidents/{incident_id}/captures"): R,
    ("POST", "/api/incidents/{incident_id}/captures"): U,
    ("POST", "/api/collector/captures"): U,
    ("GET", "/api/captures/{capture_id}"): R,
    ("GET", "/api/captures/{capture_id}/documents"): R,
    ("GET", "/api/captures/{capture_id}/raw"): W,
    ("POST", "/api/captures/{capture_id}/reparse"): W,
    ("POST", "/api/captures/{capture_id}/shift"): W,
    ("POST", "/api/captures/{capture_id}/start"): W,
    ("GET", "/api/flame"): R,
    ("GET", "/api/flame/folded"): R,
    ("GET", "/api/flame/export"): R,
    ("GET", "/api/stacks/{stack_id}"): R,
    ("GET", "/api/facets"): R,
    ("GET", "/api/tokens"): W,
    ("POST", "/api/tokens"): W,
    ("DELETE", "/api/tokens/{token_id}"): W,
    ("GET", "/api/events"): R,
    ("GET", "/api/metrics/series"): R,
    ("GET", "/api/metrics/series/{series_id}/points"): R,
    ("GET", "/api/timeline/tracks"): R,
    ("GET", "/api/timeline"): R,
    ("GET", "/api/timeline/export"): R,
    ("GET", "/api/incidents/{incident_id}/annotations"): R,
    ("POST", "/api/incidents/{incident_id}/annotations"): W,
    ("PATCH", "/api/annotations/{annotation_id}"): W,
    ("DELETE", "/api/annotations/{annotation_id}"): W,
    ("GET", "/api/diff"): R,
    ("GET", "/api/threads"): R,
    ("GET", "/api/threads/strip"): R,
    ("GET", "/api/heatmap"): R,
    ("GET", "/api/heatmap/streams"): R,
    ("POST", "/api/shares"): W,
    ("POST", "/api/incidents/{incident_id}/bundle"): E,
    ("POST", "/api/incidents/{incident_id}/bundle/preview"): E,
    ("POST", "/api/bundles"): W,
    ("GET", "/api/shares/{link_id}"): R,
    ("GET", "/api/incidents/{incident_id}/snapshots"): R,
    ("GET", "/api/snapshots/diff"): R,
    ("GET", "/api/incidents/{incident_id}/findings"): R,
    ("GET", "/api/incidents/{incident_id}/findings/window"): R,
    ("PUT", "/api/incidents/{incident_id}/findings/baseline"): W,
    ("POST", "/api/incidents/{incident_id}/findings/{finding_id}/verdict"): W,
    ("GET", "/api/incidents/{incident_id}/postmortem.md"): W,
    ("GET", "/api/incidents/{incident_id}/postmortem.html"): W,
    ("GET", "/api/incidents/{incident_id}/postmortem.zip"): W,
    ("GET", "/api/signatures"): R,
    ("POST", "/api/signatures"): W,
    ("PUT", "/api/signatures/{signature_id}"): W,
    ("DELETE", "/api/signatures/{signature_id}"): W,
    ("GET", "/api/webhooks"): A,
    ("POST", "/api/webhooks"): A,
    ("PUT", "/api/webhooks/{webhook_id}"): A,
    ("DELETE", "/api/webhooks/{webhook_id}"): A,
    ("GET", "/api/alerts"): R,
    ("POST", "/api/alerts/{alert_id}/incident"): W,
    ("POST", "/api/incidents/{incident_id}/day-before"): W,
    ("GET", "/api/watch/streams"): R,
    ("GET", "/api/metrics"): R,
    ("PATCH", "/api/incidents/{incident_id}"): W,
    ("DELETE", "/api/incidents/{incident_id}"): W,
    ("POST", "/api/incidents/{incident_id}/restore"): W,
    ("DELETE", "/api/captures/{capture_id}"): W,
    ("POST", "/api/captures/{capture_id}/restore"): W,
    ("GET", "/api/trash"): A,
    ("DELETE", "/api/trash/incidents/{incident_id}"): A,
    ("DELETE", "/api/trash/captures/{capture_id}"): A,
    ("GET", "/api/retention"): A,
    ("PUT", "/api/retention"): A,
    ("GET", "/api/incidents/{incident_id}/storage"): R,
}

NO_SUCH_ID = "987654"
ROLES = (Role.VIEWER, Role.RESPONDER, Role.ADMIN)


@pytest.fixture(scope="module")
def client(database_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(), base_url="http://localhost", headers={"X-Requested-With": "matrix"}) as c:
        yield c


@pytest.fixture(scope="module")
def credentials(database_url: str, api: TestClient) -> dict[Role, dict[str, str]]:
    """A personal token per role, and a collector token (upload only)."""
    held = {role: bearer(token_for(database_url, f"matrix-{role}", role)) for role in ROLES}
    held[Role.COLLECTOR] = bearer(api.post("/api/tokens", json={"name": "matrix"}).json()["secret"])
    return held


def _call(client: TestClient, method: str, path: str, headers: dict[str, str]) -> int:
    url = re.sub(r"\{[^}]+\}", NO_SUCH_ID, path)
    body = {"json": {}} if method in {"POST", "PUT", "PATCH"} else {}
    return client.request(method, url, headers=headers, **body).status_code  # type: ignore[arg-type]


def test_every_route_declares_the_permission_written_here() -> None:
    declared = declared_permissions(create_app().openapi())
    assert declared == EXPECTED


@pytest.mark.parametrize(("method", "path"), sorted(EXPECTED), ids=lambda v: str(v))
def test_the_route_answers_each_role_as_its_permission_says(
    client: TestClient, credentials: dict[Role, dict[str, str]], method: str, path: str
) -> None:
    needed = EXPECTED[(method, path)]
    anonymous = _call(client, method, path, {})
    if needed is PUBLIC:
        assert anonymous != 401, f"{method} {path} is public"
        return
    assert anonymous == 401, f"{method} {path} as nobody: {anonymous}"
    for role, headers in credentials.items():
        status = _call(client, method, path, headers)
        if needed in GRANTS[role]:
            assert status not in {401, 403}, f"{method} {path} as {role}: {status}"
        else:
            assert status == 403, f"{method} {path} as {role}: {status}"
