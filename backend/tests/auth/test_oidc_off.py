"""Without an identity provider configured, single sign-on says it is off and sends nobody anywhere."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

pytestmark = pytest.mark.storage_neutral


def test_without_a_provider_the_console_says_sign_on_is_off(anonymous: TestClient) -> None:
    assert anonymous.get("/api/auth/oidc").json()["enabled"] is False
    refused = anonymous.get("/api/auth/oidc/login", follow_redirects=False)
    assert refused.status_code == 303
    assert "not+configured" in refused.headers["location"]
