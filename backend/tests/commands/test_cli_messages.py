"""What the server commands say when something is wrong: the reason first, in words, one line, no
traceback, against a console served over real HTTP and the test database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.processes import free_port

# Tokens and refusals: nothing here depends on how records are stored.
pytestmark = pytest.mark.storage_neutral

RUN_TIMEOUT_S = 120


def stallscope(*args: str | Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in {"STALLSCOPE_DEBUG", "STALLSCOPE_TOKEN"}}
    return subprocess.run(
        [sys.executable, "-m", "stallscope", *map(str, args)],
        capture_output=True,
        text=True,
        env={**environment, **env},
        timeout=RUN_TIMEOUT_S,
    )


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("stallscope: "), lines[0]
    return lines[0]


def test_a_console_that_is_not_there_is_named_with_what_to_check() -> None:
    server = f"http://127.0.0.1:{free_port()}"
    line = one_line(stallscope("reparse", "5", "--server", server))
    assert line == (
        f"stallscope: cannot reach the console at {server}: connection refused. Is it running? "
        "(--server or STALLSCOPE_SERVER says where it is)"
    )


def test_a_refusal_says_the_consoles_reason_first(console_url: str, admin_token: str) -> None:
    line = one_line(stallscope("reparse", "987654321", "--server", console_url, STALLSCOPE_TOKEN=admin_token))
    assert line == (
        "stallscope: capture 987654321 does not exist "
        "(the console answered 404 to POST /api/captures/987654321/reparse)"
    )


def test_no_credentials_say_how_to_get_some(console_url: str) -> None:
    line = one_line(stallscope("reparse", "1", "--server", console_url))
    assert "(the console answered 401 to POST /api/captures/1/reparse)" in line
    assert line.endswith(
        "; set STALLSCOPE_TOKEN to an API token (the Account page, or `stallscope user token NAME`)"
    )


def test_a_token_that_does_not_exist(database_url: str) -> None:
    line = one_line(stallscope("token", "revoke", "987654321", DATABASE_URL=database_url))
    assert line == "stallscope: token 987654321 does not exist"


def test_a_database_that_cannot_be_reached_is_said_so(database_url: str) -> None:
    nowhere = f"postgresql://stallscope@127.0.0.1:{free_port()}/stallscope"
    for command in (["token", "list"], ["migrate"]):
        line = one_line(stallscope(*command, DATABASE_URL=nowhere))
        assert line.startswith("stallscope: cannot reach the database (DATABASE_URL): connection failed")
        assert "sqlalche.me" not in line
