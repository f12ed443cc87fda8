"""`stallscope upload` against a console served over real HTTP: a wrong incident fails before a byte
of the file is sent, naming the incident; an upload-only token, which may not read incidents, still
uploads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident

# Accounts, tokens and an incident row: nothing here depends on how records are stored.
pytestmark = pytest.mark.storage_neutral

SAMPLE = "svc 7/7 [000] 5.000001: 1000 cpu-clock:\n\t    11 work (/usr/bin/svc)\n\n"
UPLOAD_TIMEOUT_S = 120


def big_capture(folder: Path) -> Path:
    """Three chunks' worth of samples: the progress line shows whether any of it was sent."""
    path = folder / "cpu.txt"
    path.write_text(SAMPLE * (3 * (1 << 20) // len(SAMPLE) + 1))
    return path


def upload(console_url: str, token: str, *argv: str | Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "stallscope", "upload", *map(str, argv), "--server", console_url]
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        env=dict(os.environ, STALLSCOPE_TOKEN=token),
        timeout=UPLOAD_TIMEOUT_S,
    )


def test_an_incident_that_does_not_exist_fails_before_the_file_is_sent(
    console_url: str, admin_token: str, tmp_path: Path
) -> None:
    done = upload(console_url, admin_token, big_capture(tmp_path), "--incident", "987654321")
    assert done.returncode == 1
    assert done.stdout == ""
    assert "incident 987654321 does not exist" in done.stderr
    assert console_url in done.stderr
    assert "nothing was uploaded" in done.stderr
    assert "% of" not in done.stderr, "no progress line: not one chunk was read"
    assert "Traceback" not in done.stderr


def test_a_file_that_is_not_there_fails_before_anything_is_sent(
    api: TestClient, console_url: str, admin_token: str, tmp_path: Path
) -> None:
    incident = make_incident(api)
    present = big_capture(tmp_path)
    done = upload(console_url, admin_token, present, tmp_path / "gone.txt", "--incident", str(incident["id"]))
    assert done.returncode == 1
    assert done.stderr.strip().endswith("gone.txt: No such file or directory")
    assert api.get(f"/api/incidents/{incident['id']}/captures").json() == [], "the first file was not sent"


def test_an_existing_incident_gets_the_upload(
    api: TestClient, console_url: str, admin_token: str, tmp_path: Path
) -> None:
    incident = str(make_incident(api)["id"])
    done = upload(console_url, admin_token, big_capture(tmp_path), "--incident", incident, "--quiet")
    assert done.returncode == 0, done.stderr
    assert "capture" in done.stdout
    (capture,) = api.get(f"/api/incidents/{incident}/captures").json()
    assert capture["filename"] == "cpu.txt"


def test_an_upload_only_token_skips_the_check_and_uploads(
    api: TestClient, console_url: str, tmp_path: Path
) -> None:
    incident = make_incident(api)
    secret = api.post("/api/tokens", json={"name": "db hosts"}).json()["secret"]
    done = upload(console_url, secret, big_capture(tmp_path), "--incident", str(incident["id"]), "--quiet")
    assert done.returncode == 0, done.stderr
    assert len(api.get(f"/api/incidents/{incident['id']}/captures").json()) == 1
    # Where it may not send, the console's own refusal is what the person reads.
    missing = upload(console_url, secret, big_capture(tmp_path), "--incident", "987654321", "--quiet")
    assert missing.returncode == 1
    assert "987654321" in missing.stderr
    assert "Traceback" not in missing.stderr
