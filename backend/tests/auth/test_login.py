"""Signing in and out: the session cookie's flags, wrong passwords, the throttle, a disabled account,
a new password ending the other sessions, the first admin printed once, the CLI's accounts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from fastapi.testclient import TestClient

from stallscope.auth.first_admin import ensure_first_admin
from stallscope.db import get_session_factory, libpq_url
from stallscope.main import create_app
from tests.fixtures.people import PASSWORD, ensure_user

pytestmark = pytest.mark.storage_neutral


def _browser() -> TestClient:
    return TestClient(create_app(), base_url="http://localhost", headers={"X-Requested-With": "browser"})


def test_a_password_opens_a_session_in_an_http_only_strict_cookie(database_url: str) -> None:
    ensure_user(database_url, "lena", "responder")
    with _browser() as browser:
        signed_in = browser.post("/api/auth/login", json={"username": "Lena", "password": PASSWORD})
        assert signed_in.status_code == 200, signed_in.text
        cookie = signed_in.headers["set-cookie"].lower()
        assert "httponly" in cookie
        assert "samesite=strict" in cookie
        assert "path=/" in cookie
        me = browser.get("/api/auth/me").json()
        assert (me["name"], me["role"], me["via"]) == ("lena", "responder", "session")
        assert "respond" in me["permissions"]
        assert "admin" not in me["permissions"]
        assert browser.post("/api/auth/logout").status_code == 204
        assert browser.get("/api/auth/me").status_code == 401


def test_a_stolen_cookie_stops_working_at_logout_everywhere(database_url: str) -> None:
    ensure_user(database_url, "omar", "viewer")
    with _browser() as browser, _browser() as thief:
        browser.post("/api/auth/login", json={"username": "omar", "password": PASSWORD})
        thief.cookies.update(browser.cookies)
        assert thief.get("/api/auth/me").status_code == 200
        browser.post("/api/auth/logout")
        assert thief.get("/api/auth/me").status_code == 401


def test_wrong_passwords_are_throttled_even_for_the_right_one(database_url: str) -> None:
    ensure_user(database_url, "pia", "viewer")
    with _browser() as browser:
        for _ in range(5):
            wrong = browser.post("/api/auth/login", json={"username": "pia", "password": "not it at all"})
            assert wrong.status_code == 401
            assert wrong.json()["detail"] == "wrong user name or password"
        unknown = browser.post("/api/auth/login", json={"username": "nobody-at-all", "password": "x"})
        assert unknown.json()["detail"] == "wrong user name or password"  # no hint who exists
        throttled = browser.post("/api/auth/login", json={"username": "pia", "password": PASSWORD})
        assert throttled.status_code == 429
        assert int(throttled.headers["retry-after"]) > 0


def test_a_disabled_account_and_a_new_password_end_sessions(api: TestClient, database_url: str) -> None:
    user_id = ensure_user(database_url, "quinn", "responder")
    with _browser() as laptop, _browser() as phone:
        for device in (laptop, phone):
            assert (
                device.post("/api/auth/login", json={"username": "quinn", "password": PASSWORD}).status_code
                == 200
            )
        changed = laptop.post(
            "/api/auth/password", json={"current": PASSWORD, "new": "a brand new passphrase"}
        )
        assert changed.status_code == 200
        assert phone.get("/api/auth/me").status_code == 401
        laptop.post("/api/auth/login", json={"username": "quinn", "password": "a brand new passphrase"})
        assert api.patch(f"/api/users/{user_id}", json={"disabled": True}).status_code == 200
        assert laptop.get("/api/auth/me").status_code == 401
        refused = laptop.post(
            "/api/auth/login", json={"username": "quinn", "password": "a brand new passphrase"}
        )
        assert refused.json()["detail"] == "this account is disabled: ask an admin"


def test_the_last_admin_cannot_be_demoted(api: TestClient, database_url: str) -> None:
    with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
        admins = conn.execute("SELECT id FROM users WHERE role = 'admin' AND disabled_at IS NULL").fetchall()
    if len(admins) == 1:
        refused = api.patch(f"/api/users/{admins[0][0]}", json={"role": "viewer"})
        assert refused.status_code == 422
        assert "last active admin" in refused.json()["detail"]


def test_the_first_admin_is_made_once(database_url: str) -> None:
    with get_session_factory(database_url)() as session:
        assert ensure_first_admin(session, None) is None  # accounts exist: nothing made, nothing printed


def test_the_command_line_makes_and_lists_accounts(database_url: str) -> None:
    env = dict(os.environ, DATABASE_URL=database_url, STALLSCOPE_PASSWORD="from the environment")
    base = [sys.executable, "-m", "stallscope", "user"]
    made = subprocess.run(
        [*base, "create", "rhea", "--role", "viewer"], env=env, capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    listed = subprocess.run([*base, "list"], env=env, capture_output=True, text=True)
    assert "rhea" in listed.stdout
    assert "viewer" in listed.stdout
    again = subprocess.run(
        [*base, "create", "rhea", "--role", "viewer"], env=env, capture_output=True, text=True
    )
    assert again.returncode == 2
    assert "already exists" in again.stderr
    with _browser() as browser:
        signed_in = browser.post(
            "/api/auth/login", json={"username": "rhea", "password": "from the environment"}
        )
        assert signed_in.status_code == 200
    token = subprocess.run([*base, "token", "rhea", "--label", "ci"], env=env, capture_output=True, text=True)
    secret = next(line.strip() for line in token.stdout.splitlines() if line.strip().startswith("ssp_"))
    with _browser() as script:
        me = script.get("/api/auth/me", headers={"Authorization": f"Bearer {secret}"}).json()
        assert (me["name"], me["role"], me["via"]) == ("rhea", "viewer", "token")


def test_the_command_line_works_on_a_console_s_data_directory(tmp_path: Path) -> None:
    # The embedded database under --data-dir, made and migrated on the first call.
    data_dir = tmp_path / "console"
    data_dir.mkdir()
    data_dir.chmod(0o755)  # the embedded server runs as its own user when tests run as root
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    env["STALLSCOPE_PASSWORD"] = "a password for here"
    base = [sys.executable, "-m", "stallscope", "user"]
    made = subprocess.run(
        [*base, "create", "sol", "--role", "admin", "--data-dir", str(data_dir)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    listed = subprocess.run(
        [*base, "--data-dir", str(data_dir), "list"], env=env, capture_output=True, text=True, timeout=120
    )
    assert listed.returncode == 0, listed.stderr
    assert "sol" in listed.stdout
    assert "admin" in listed.stdout
