"""`GET /api/diff?source=off-cpu` on a stored scheduler capture: blocked time in µs, `within` honoured."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.diff.texts import SCHED
from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed


@pytest.fixture(scope="module")
def sched_capture(api: TestClient, worker: subprocess.Popen[bytes]) -> int:
    incident = make_incident(api)
    capture = upload_bytes(api, incident["id"], SCHED.encode(), "sched.txt")
    parsed = wait_parsed(api, capture["id"])
    assert parsed["status"] in {"ready", "partial"}, parsed
    assert parsed["format"] == "perf-sched"
    return int(capture["id"])


def off_cpu_diff(api: TestClient, capture: int, **sides: str) -> dict[str, Any]:
    params = {
        "a.captures": str(capture),
        "b.captures": str(capture),
        "source": "off-cpu",
        "normalize": "none",
    }
    params.update({k.replace("_", ".", 1): v for k, v in sides.items()})
    response = api.get("/api/diff", params=params)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def function(result: dict[str, Any], name: str) -> dict[str, Any]:
    rows: list[dict[str, Any]] = [f for f in result["functions"] if f["name"] == name]
    assert len(rows) == 1, f"{name} once among {[f['name'] for f in result['functions']]}"
    return rows[0]


def test_within_splits_blocked_time_by_offset_in_the_second(api: TestClient, sched_capture: int) -> None:
    # worker's D interval starts 0 µs into its second, its S interval 500000 µs in.
    result = off_cpu_diff(
        api, sched_capture, a_within="0-400000", a_comm="worker", b_within="!0-400000", b_comm="worker"
    )
    assert (result["unit"], result["source"], result["event"]) == ("us", "off-cpu", None)
    assert set(result["events"]) >= {"D", "S"}
    assert (result["a"]["total"], result["b"]["total"]) == (10_000, 100_000)
    assert (result["a"]["samples"], result["b"]["samples"]) == (1, 1)
    fsync = function(result, "__x64_sys_fsync")
    assert (fsync["total_a"], fsync["total_b"], fsync["total_delta"]) == (10_000, 0, -10_000)
    futex = function(result, "__x64_sys_futex")
    assert (futex["total_a"], futex["total_b"], futex["total_delta"]) == (0, 100_000, 100_000)
    schedule = function(result, "__schedule")
    assert (schedule["self_a"], schedule["self_b"], schedule["self_delta"]) == (10_000, 100_000, 90_000)
    worker = next(c for c in result["root"]["children"] if c["name"] == "worker")
    assert (worker["a"], worker["b"], worker["delta"]) == (10_000, 100_000, 90_000)


def test_state_filter_applies_to_both_sides(api: TestClient, sched_capture: int) -> None:
    result = off_cpu_diff(api, sched_capture, a_comm="worker", b_comm="main", state="S")
    assert (result["a"]["total"], result["b"]["total"]) == (100_000, 490_000)
    assert result["state"] == "S"
    result = off_cpu_diff(api, sched_capture, a_comm="worker", b_comm="main", state="D")
    assert (result["a"]["total"], result["b"]["total"]) == (10_000, 0)
    assert function(result, "io_schedule")["total_delta"] == -10_000
