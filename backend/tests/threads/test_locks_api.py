"""Futex waits by lock from `perf trace`: the calls' own durations, grouped by their address."""

from __future__ import annotations

import subprocess
from pathlib import Path

from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident, upload_file
from tests.fixtures.worker import wait_parsed


def test_perf_trace_futex_waits_by_address(
    api: TestClient, worker: subprocess.Popen[bytes], corpus: Path
) -> None:
    incident = make_incident(api)
    path = corpus / "captures" / "perf_trace.mmap_fsync_futex.txt.gz"
    capture = wait_parsed(api, upload_file(api, incident["id"], path, host="lab-2")["id"])
    result = api.get("/api/threads", params={"captures": str(capture["id"])}).json()
    assert (result["source"], result["threads"]) == ("none", [])
    top = result["locks"][0]
    assert (top["kind"], top["address"], top["host"], top["waits"]) == (
        "address",
        "0x55956171f0a0",
        "lab-2",
        4_251,
    )
    assert top["waiter_count"] == 16
    assert {w["comm"] for w in top["waiters"]} == {"mutex16"}
    assert top["total_ns"] == sum(w["total_ns"] for w in top["waiters"])
    assert all(lock["total_ns"] <= top["total_ns"] for lock in result["locks"])
    assert not any("no scheduler intervals" in note for note in result["notes"])
    named = api.get("/api/threads", params={"captures": str(capture["id"]), "comm_regex": "^python"}).json()
    assert {w["comm"] for lock in named["locks"] for w in lock["waiters"]} == {"python3"}
