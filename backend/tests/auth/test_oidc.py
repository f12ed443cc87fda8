"""Single sign-on against a real OpenID Connect provider started locally: the console redirects to
it, signs the person in from its answer (checked ID token, PKCE, nonce), makes the account at the
first sign-on and takes its role from the provider's groups."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

from stallscope.config import get_settings
from stallscope.main import create_app
from tests.fixtures.oidc_provider import CLIENT_ID, CLIENT_SECRET, OidcProvider, sign_in_at_provider

pytestmark = pytest.mark.storage_neutral


@pytest.fixture(scope="module")
def sso(oidc_provider: OidcProvider, database_url: str) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STALLSCOPE_OIDC_ISSUER", oidc_provider.issuer)
        patch.setenv("STALLSCOPE_OIDC_CLIENT_ID", CLIENT_ID)
        patch.setenv("STALLSCOPE_OIDC_CLIENT_SECRET", CLIENT_SECRET)
        patch.setenv("STALLSCOPE_OIDC_SCOPES", "openid email profile groups")
        patch.setenv("STALLSCOPE_OIDC_LABEL", "Example SSO")
        patch.setenv("STALLSCOPE_OIDC_ADMIN_GROUPS", "sre-admins")
        get_settings.cache_clear()
        yield
    get_settings.cache_clear()


def _browser() -> TestClient:
    return TestClient(create_app(), base_url="http://localhost", headers={"X-Requested-With": "sso"})


def _sign_on(browser: TestClient, login: str, next_path: str = "/incidents") -> str:
    """The whole round trip; returns where the console sends the browser at the end."""
    start = browser.get("/api/auth/oidc/login", params={"next": next_path}, follow_redirects=False)
    assert start.status_code == 303, start.text
    back = urlsplit(sign_in_at_provider(start.headers["location"], login))
    done = browser.get(f"{back.path}?{back.query}", follow_redirects=False)
    assert done.status_code == 303, done.text
    return str(done.headers["location"])


def test_the_sign_in_page_learns_single_sign_on_is_on(sso: None) -> None:
    with _browser() as browser:
        assert browser.get("/api/auth/oidc").json() == {"enabled": True, "label": "Example SSO"}


def test_a_first_sign_on_makes_the_account_and_a_second_finds_it(sso: None, api: TestClient) -> None:
    with _browser() as browser:
        assert _sign_on(browser, "dana", "/incidents/3?tab=x") == "/incidents/3?tab=x"
        me = browser.get("/api/auth/me").json()
        assert (me["name"], me["role"], me["via"]) == ("dana", "viewer", "session")
    with _browser() as again:
        _sign_on(again, "dana")
        assert again.get("/api/auth/me").json()["user_id"] == me["user_id"]
    account = next(u for u in api.get("/api/users").json() if u["id"] == me["user_id"])
    assert (account["sso"], account["has_password"], account["email"]) == (True, False, "dana@example.test")


def test_the_provider_s_admin_group_makes_an_admin(sso: None) -> None:
    with _browser() as browser:
        _sign_on(browser, "admin-ola")
        assert browser.get("/api/auth/me").json()["role"] == "admin"


def test_a_forged_or_replayed_answer_is_refused(sso: None) -> None:
    with _browser() as browser:
        start = browser.get("/api/auth/oidc/login", follow_redirects=False)
        back = urlsplit(sign_in_at_provider(start.headers["location"], "eve"))
        query = parse_qs(back.query)
        forged = browser.get(
            "/api/auth/oidc/callback",
            params={"code": query["code"][0], "state": "not-the-state"},
            follow_redirects=False,
        )
        assert forged.status_code == 303
        assert forged.headers["location"].startswith("/login?error=")
        first = browser.get(f"{back.path}?{back.query}", follow_redirects=False)
        assert first.headers["location"] == "/"
        replayed = browser.get(f"{back.path}?{back.query}", follow_redirects=False)
        assert replayed.headers["location"].startswith("/login?error=")
