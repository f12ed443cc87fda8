"""Tabular metrics and events through the real worker: each shape, and the upload's `time_column`."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed

DATA = Path(__file__).resolve().parents[1] / "ingest" / "data"
TABULAR = DATA / "tabular"
TWO_TIMES = (
    b"ingested_at,occurred_at,lat_ms\n"
    b"2026-11-25T17:00:09Z,2026-11-25T17:00:01Z,3\n"
    b"2026-11-25T17:00:10Z,2026-11-25T17:00:02Z,4\n"
)
"""A shipper's time first, the application's own second: the rules take the first, a person the second."""


def parsed(api: TestClient, data: bytes, filename: str, **params: str) -> dict[str, Any]:
    capture = wait_parsed(api, upload_bytes(api, make_incident(api)["id"], data, filename, **params)["id"])
    assert capture["status"] in {"ready", "partial"}, capture
    return capture


def series_of(api: TestClient, capture: dict[str, Any]) -> list[dict[str, Any]]:
    response = api.get("/api/metrics/series", params={"captures": capture["id"]})
    assert response.status_code == 200, response.text
    result: list[dict[str, Any]] = response.json()
    return result


@pytest.mark.parametrize(
    "name", ["app_epoch_us.csv", "app_at_timestamp.csv", "app_when_ns.csv", "app_metrics.jsonl"]
)
def test_application_metrics_are_stored_with_their_units(
    api: TestClient, worker: subprocess.Popen[bytes], name: str
) -> None:
    capture = parsed(api, (TABULAR / name).read_bytes(), name)
    assert capture["status"] == "ready"
    assert capture["clock"]["mode"] == "realtime"
    assert capture["time_start"].startswith("2026-11-25T17:11:43.951")
    units = {s["name"]: (s["unit"], s["points"]) for s in series_of(api, capture)}
    assert units == {
        "fsync_p99_us": ("µs", 30),
        "request_p99_ms": ("ms", 30),
        "lock_wait_p99_us": ("µs", 30),
        "requests": (None, 30),
    }


def test_a_long_file_with_text_columns_keeps_them_as_labels(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    capture = parsed(api, (TABULAR / "cpu_long_text.csv").read_bytes(), "cpu.csv")
    assert capture["status"] == "ready"
    assert capture["dropped_lines"] == 0
    user = [s for s in series_of(api, capture) if s["name"] == "user_pct"]
    assert {s["labels"]["cpu"]: s["points"] for s in user} == {"all": 30, "0": 30, "1": 30}
    assert {s["unit"] for s in user} == {"%"}


def test_a_row_per_event_and_state_is_a_series_per_pair(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    capture = parsed(api, (TABULAR / "events_long_text.csv").read_bytes(), "io_counts.csv")
    assert capture["status"] == "ready"
    assert capture["format"] == "metrics-csv"
    assert capture["dropped_lines"] == 0
    counts = {(s["labels"]["event"], s["labels"]["state"]): s["points"] for s in series_of(api, capture)}
    assert counts == {(e, st): 30 for e in ("write", "fsync") for st in ("fast", "slow")}


def test_a_wide_file_with_text_columns_is_ready_and_says_what_it_skipped(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    capture = parsed(api, (TABULAR / "app_wide_text.csv").read_bytes(), "app.csv")
    assert capture["status"] == "ready"
    assert capture["dropped_lines"] == 0
    assert any("'host', 'phase' hold text" in w["message"] for w in capture["warnings"])
    assert {s["name"] for s in series_of(api, capture)} == {
        "fsync_p99_us",
        "request_p99_ms",
        "lock_wait_p99_us",
        "requests",
    }


def test_an_events_file_is_listed_and_drawn_as_a_latency_track(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    incident = make_incident(api)
    data = (TABULAR / "fsync_events.csv").read_bytes()
    capture = wait_parsed(api, upload_bytes(api, incident["id"], data, "fsync.csv", host="vm")["id"])
    assert capture["status"] == "ready", capture
    assert capture["format"] == "events-csv"
    assert capture["record_counts"]["events"] == 1200
    page = api.get("/api/events", params={"captures": capture["id"], "kind": "function", "limit": 5}).json()
    assert page["total"] == 1200
    slowest = page["events"][0]
    assert slowest["name"] in {"fsync", "write"}
    assert slowest["duration_ns"] == max(e["duration_ns"] for e in page["events"])
    assert set(slowest["attrs"]) >= {"bytes"}
    fsync = api.get("/api/events", params={"captures": capture["id"], "name": "fsync", "limit": 1}).json()
    assert isinstance(fsync["events"][0]["attrs"]["dirty_kB"], int)
    tracks = api.get("/api/timeline/tracks", params={"incident": incident["id"]}).json()
    (host,) = tracks["hosts"]
    latency = [t for t in host["tracks"] if t["type"] == "events" and t["kind"] == "function"]
    assert latency, host["tracks"]
    assert {n["name"] for t in latency for n in t["names"]} == {"fsync", "write"}
    assert sum(t["count"] for t in latency if t["name"] is None) == 1200


def test_sar_all_keeps_its_fibre_channel_rows(api: TestClient, worker: subprocess.Popen[bytes]) -> None:
    capture = parsed(api, (DATA / "sysstat" / "sar_A_fc.txt").read_bytes(), "sar.txt")
    assert capture["dropped_lines"] == 0
    fc = {s["name"]: s for s in series_of(api, capture) if s["name"].startswith("fc.")}
    assert set(fc) == {"fc.fch_rxf", "fc.fch_txf", "fc.fch_rxw", "fc.fch_txw"}
    assert fc["fc.fch_rxf"]["labels"] == {"fchost": "host0"}
    assert fc["fc.fch_rxf"]["points"] == 2


def test_the_time_column_given_at_upload_wins_and_survives_a_reparse(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    by_rules = parsed(api, TWO_TIMES, "two.csv")
    assert by_rules["time_start"].startswith("2026-11-25T17:00:09")
    given = parsed(api, TWO_TIMES, "two.csv", time_column="occurred_at")
    assert given["time_start"].startswith("2026-11-25T17:00:01")
    assert given["clock"]["time_column"] == "occurred_at"
    assert {"line": 0, "message": "time column: 'occurred_at' (as given at upload)"} in given["warnings"]
    assert [s["name"] for s in series_of(api, given)] == ["lat_ms"]
    assert api.post(f"/api/captures/{given['id']}/reparse").status_code == 202
    again = wait_parsed(api, given["id"])
    assert again["time_start"] == given["time_start"]


def test_a_time_column_that_is_not_there_fails_the_capture_naming_the_columns(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    incident = make_incident(api)
    capture = upload_bytes(api, incident["id"], TWO_TIMES, "two.csv", time_column="when")
    failed = wait_parsed(api, capture["id"])
    assert failed["status"] == "failed"
    assert "there is no column 'when' to read times from" in failed["error"]
    assert "'ingested_at', 'occurred_at', 'lat_ms'" in failed["error"]


def test_the_command_line_names_the_time_column(
    api: TestClient, worker: subprocess.Popen[bytes], console_url: str, tmp_path: Path, admin_token: str
) -> None:
    path = tmp_path / "two.csv"
    path.write_bytes(TWO_TIMES)
    incident = make_incident(api)
    command = [sys.executable, "-m", "stallscope", "upload", str(path), "--incident", str(incident["id"])]
    command += ["--server", console_url, "--time-column", "occurred_at", "--wait", "--quiet"]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        env=dict(os.environ, STALLSCOPE_TOKEN=admin_token),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert ": ready" in done.stdout
    (capture,) = api.get(f"/api/incidents/{incident['id']}/captures").json()
    assert capture["clock"]["time_column"] == "occurred_at"
    assert datetime.fromisoformat(capture["time_start"]).second == 1
