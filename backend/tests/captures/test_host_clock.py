"""A host's clock anchors, uploaded as a capture, put its other captures on wall-clock time; a person's
start time does it for a capture nothing else aligns."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident, upload_bytes, upload_file
from tests.fixtures.worker import PARSE_TIMEOUT_S, wait_parsed

CLOCK = Path(__file__).resolve().parents[1] / "ingest" / "data" / "clock"
FIRST_SAMPLE_UTC = datetime.fromisoformat("2026-11-25T17:46:48.480424+00:00")
"""perf's wall-clock column for the recording's first sample (data/clock/README.md)."""


def seconds_from_first_sample(capture: dict[str, Any]) -> float:
    return abs((datetime.fromisoformat(capture["time_start"]) - FIRST_SAMPLE_UTC).total_seconds())


def wait_clock(api: TestClient, capture_id: int, mode: str) -> dict[str, Any]:
    """The capture once a parse has put it in clock `mode` and ended."""
    deadline = time.monotonic() + PARSE_TIMEOUT_S
    while True:
        capture = wait_parsed(api, capture_id)
        if capture["clock"].get("mode") == mode:
            return capture
        if time.monotonic() > deadline:
            raise AssertionError(f"capture {capture_id} still in clock mode {capture['clock'].get('mode')}")
        time.sleep(0.2)


def test_the_recorded_capture_aligns_the_same_by_anchors_and_by_perfs_wall_clock_column(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    incident = make_incident(api)["id"]
    by_tod = wait_parsed(api, upload_file(api, incident, CLOCK / "cpu_tod.perf.txt.gz", host="a")["id"])
    assert by_tod["clock"]["mode"] == "perf-tod"
    anchors = wait_parsed(api, upload_file(api, incident, CLOCK / "clock_anchors.csv", host="b")["id"])
    assert (anchors["status"], anchors["format"]) == ("ready", "clock-anchors")
    by_anchor = wait_parsed(api, upload_file(api, incident, CLOCK / "cpu.perf.txt.gz", host="b")["id"])
    assert by_anchor["clock"]["mode"] == "host-anchor"
    assert f"capture {anchors['id']} (clock_anchors.csv)" in by_anchor["clock"]["note"]
    assert seconds_from_first_sample(by_tod) < 1e-5
    assert seconds_from_first_sample(by_anchor) < 1e-5


def test_anchors_uploaded_later_re_time_the_hosts_earlier_captures_only(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    incident = make_incident(api)["id"]
    same_host = upload_file(api, incident, CLOCK / "cpu.perf.txt.gz", host="db-7")
    other_host = upload_file(api, incident, CLOCK / "cpu.perf.txt.gz", host="db-8")
    for capture in (same_host, other_host):
        assert wait_parsed(api, capture["id"])["clock"]["mode"] == "unaligned"
    upload_file(api, incident, CLOCK / "clock.json", host="db-7")
    realigned = wait_clock(api, same_host["id"], "host-anchor")
    assert seconds_from_first_sample(realigned) < 1e-5
    assert realigned["sample_count"] == wait_parsed(api, other_host["id"])["sample_count"]
    assert wait_parsed(api, other_host["id"])["clock"]["mode"] == "unaligned"


def test_a_start_given_at_upload_places_the_first_record_there(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    incident = make_incident(api)["id"]
    data = gzip.decompress((CLOCK / "cpu.perf.txt.gz").read_bytes())
    capture = upload_bytes(api, incident, data, "cpu.txt", start="2026-11-25T12:00:00Z")
    parsed = wait_parsed(api, capture["id"])
    assert parsed["clock"]["mode"] == "user-start"
    assert parsed["time_start"] == "2026-11-25T12:00:00Z"


def test_a_start_given_afterwards_re_times_the_capture_and_can_be_taken_back(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    incident = make_incident(api)["id"]
    capture = wait_parsed(api, upload_file(api, incident, CLOCK / "cpu.perf.txt.gz")["id"])
    assert capture["time_start"].startswith("1970-01-01")
    answer = api.post(f"/api/captures/{capture['id']}/start", json={"start": "2026-11-25T13:30:00.25"})
    assert answer.status_code == 202, answer.text
    started = wait_clock(api, capture["id"], "user-start")
    assert started["time_start"] == "2026-11-25T13:30:00.250000Z"  # no zone given: UTC
    assert api.post(f"/api/captures/{capture['id']}/start", json={"start": None}).status_code == 202
    assert wait_clock(api, capture["id"], "unaligned")["time_start"].startswith("1970-01-01")


def test_a_start_that_is_no_wall_clock_time_is_refused_naming_it(api: TestClient) -> None:
    incident = make_incident(api)["id"]
    answer = api.post(
        f"/api/incidents/{incident}/captures",
        params={"filename": "x.txt", "start": "13061.86"},
        content=b"x",
        headers={"Content-Type": "application/octet-stream"},
    )
    assert answer.status_code == 422
    assert "start" in answer.text
    assert "ISO 8601" in answer.text


def test_the_command_line_uploads_the_clock_file_first_and_aligns_the_rest(
    api: TestClient, worker: subprocess.Popen[bytes], console_url: str, admin_token: str
) -> None:
    incident = make_incident(api)["id"]
    command = [sys.executable, "-m", "stallscope", "upload", str(CLOCK / "cpu.perf.txt.gz")]
    command += ["--incident", str(incident), "--host", "db-7", "--clock", str(CLOCK / "clock_anchors.csv")]
    command += ["--kind", "cpu", "--server", console_url, "--wait", "--quiet"]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        env=dict(os.environ, STALLSCOPE_TOKEN=admin_token),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    anchors, cpu = sorted(api.get(f"/api/incidents/{incident}/captures").json(), key=lambda c: c["id"])
    assert (anchors["filename"], anchors["format"]) == ("clock_anchors.csv", "clock-anchors")
    assert (cpu["kind"], cpu["host"]) == ("cpu", "db-7")
    assert seconds_from_first_sample(wait_clock(api, cpu["id"], "host-anchor")) < 1e-5
