"""The day before for any incident: a watched host's round from the same time the day before is
copied in as `<host> (day before)`, made the findings' baseline, and diffed against the host."""

from __future__ import annotations

import subprocess
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

from tests.analysis.findings.lab import variant
from tests.fixtures.factories import make_incident
from tests.fixtures.worker import wait_parsed

# Copies and baselines are rows like any capture's; how samples are stored is the other tests' concern.
pytestmark = pytest.mark.storage_neutral

BAD = variant("lock-convoy", "bad") / "offcpu.perf.txt.gz"
FIXED = variant("lock-convoy", "fixed") / "offcpu.perf.txt.gz"


def _upload(api: TestClient, path: Path, **params: str) -> dict[str, Any]:
    response = api.post(
        "/api/collector/captures",
        params={"filename": path.name, **params},
        content=path.read_bytes(),
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 202, response.text
    parsed: dict[str, Any] = wait_parsed(api, response.json()["id"])
    assert parsed["status"] in {"ready", "partial"}, parsed
    return parsed


def _a_day_before(api: TestClient, watched: dict[str, Any], incident_capture: dict[str, Any]) -> None:
    """Move the watch round on the wall clock to end a day (less five minutes) before the capture."""
    ends = [datetime.fromisoformat(c["time_end"]) for c in (watched, incident_capture)]
    shift = (ends[1] - timedelta(days=1) + timedelta(minutes=5) - ends[0]).total_seconds()
    moved = api.post(f"/api/captures/{watched['id']}/shift", json={"shift": f"{shift:+.6f}s"})
    assert moved.status_code == 202, moved.text
    assert wait_parsed(api, watched["id"])["status"] in {"ready", "partial"}


def test_a_watched_hosts_day_before_becomes_the_baseline(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    incident = make_incident(api)["id"]
    bad = _upload(api, BAD, incident=str(incident), host="db-9")
    _upload(api, BAD, incident=str(incident), host="db-10")  # not watched
    round_before = _upload(api, FIXED, watch="true", host="db-9")
    _a_day_before(api, round_before, bad)

    answer = api.post(f"/api/incidents/{incident}/day-before")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert [a["host"] for a in body["added"]] == ["db-9"]
    (added,) = body["added"]
    assert added["baseline_host"] == "db-9 (day before)"
    assert len(added["captures"]) == 1
    assert body["skipped"] == ["db-10: not watched (no `stallscope-collect watch` stream)"]
    assert body["baseline_hosts"] == ["db-9 (day before)"]
    copy = wait_parsed(api, added["captures"][0])
    assert (copy["host"], copy["sha256"]) == ("db-9 (day before)", round_before["sha256"])

    diff = {k: v[0] for k, v in parse_qs(urlsplit(added["diff_url"]).query).items()}
    assert (diff["a.captures"], diff["b.captures"]) == (str(copy["id"]), str(bad["id"]))
    compared = api.get("/api/diff", params={k: v for k, v in diff.items() if k.startswith(("a.", "b."))})
    assert compared.status_code == 200, compared.text

    again = api.post(f"/api/incidents/{incident}/day-before").json()
    assert again["added"] == []
    assert "db-9: the day before is in the incident already" in again["skipped"]


def test_without_a_round_near_that_time_the_host_is_skipped_saying_so(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    incident = make_incident(api)["id"]
    _upload(api, BAD, incident=str(incident), host="db-11")
    _upload(api, FIXED, watch="true", host="db-11")  # the same day: nothing a day before
    body = api.post(f"/api/incidents/{incident}/day-before").json()
    assert body["added"] == []
    (reason,) = body["skipped"]
    assert reason.startswith("db-11: its watch stream has no round within an hour of ")
    assert body["baseline_hosts"] == []


def test_a_watch_stream_is_not_its_own_day_before(api: TestClient, worker: subprocess.Popen[bytes]) -> None:
    stream = _upload(api, FIXED, watch="true", host="db-12")["incident_id"]
    answer = api.post(f"/api/incidents/{stream}/day-before")
    assert answer.status_code == 422
    assert "watch stream of db-12" in answer.text
