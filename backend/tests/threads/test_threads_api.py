"""Thread-state breakdowns and strips over stored captures with answers worked out by hand."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed
from tests.ingest.test_sched_intervals import SCHEDULE, sample, switch

MS = 1_000_000


def waking(waker: str, waker_tid: int, cpu: int, time: str, comm: str, tid: int) -> str:
    args = f"comm={comm} pid={tid} prio=120 target_cpu={cpu:03d}"
    return sample(waker, waker_tid, cpu, time, "sched:sched_waking", args, ("try_to_wake_up",))


# worker (tid 100): S 1.0-1.5, runnable 1.5-2.0 (woken by main), running 2.0-2.25, D 2.25-2.5,
# runnable 2.5-3.0 (woken from an idle CPU), running 3.0-3.5, then off the CPU until the end.
# main (tid 200): seen running when it wakes worker at 1.5 (inferred running to its switch-out at
# 2.0), preempted (runnable) 2.0-2.25, running 2.25-3.0, then asleep until the end.
SCHED = "".join(
    [
        switch("worker", 100, 0, "1.000000", "S", "swapper/0", 0),
        waking("main", 200, 1, "1.500000", "worker", 100),
        switch("main", 200, 1, "2.000000", "R+", "worker", 100),
        switch("worker", 100, 1, "2.250000", "D", "main", 200),
        waking("swapper/0", 0, 0, "2.500000", "worker", 100),
        switch("main", 200, 1, "3.000000", "S", "worker", 100),
        switch("worker", 100, 1, "3.500000", "S", "swapper/1", 0),
    ]
)

T0 = 1_767_225_600_000_000_000  # 2026-01-01T00:00:00Z in ns


def proc_sampler() -> bytes:
    header = {"stallscope": "proc-sampler", "version": 1, "host": "h", "interval_ms": 50, "target_pids": [7]}
    lines = [json.dumps(header)]
    for i, state in enumerate("RRSDR"):
        labels = {"pid": "7", "tid": "8", "comm": "db", "state": state}
        lines.append(
            json.dumps({"t": T0 + i * 50 * MS, "name": "thread.state", "labels": labels, "value": 1})
        )
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture(scope="module")
def captures(api: TestClient, worker: subprocess.Popen[bytes]) -> dict[str, int]:
    incident = make_incident(api)
    sched = upload_bytes(api, incident["id"], SCHED.encode(), "sched.txt")
    sampler = upload_bytes(api, incident["id"], proc_sampler(), "proc.jsonl")
    ids = {"sched": int(sched["id"]), "sampler": int(sampler["id"])}
    for capture_id in ids.values():
        assert wait_parsed(api, capture_id)["status"] in ("ready", "partial")
    return ids


def threads(api: TestClient, capture_id: int, **params: Any) -> dict[str, Any]:
    response = api.get("/api/threads", params={"captures": str(capture_id), **params})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def by_tid(result: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {t["tid"]: t for t in result["threads"]}


def test_states_add_up_to_each_threads_wall_time(api: TestClient, captures: dict[str, int]) -> None:
    result = threads(api, captures["sched"])
    assert result["source"] == "sched"
    worker, main = by_tid(result)[100], by_tid(result)[200]
    assert worker["wall_ns"] == 2500 * MS
    assert worker["states"] == {
        "running": 750 * MS,
        "runnable": 1000 * MS,
        "sleeping": 500 * MS,
        "uninterruptible": 250 * MS,
        "other": 0,
        "unknown": 0,
    }
    assert main["wall_ns"] == 1500 * MS
    assert (main["states"]["runnable"], main["states"]["running"]) == (250 * MS, 1250 * MS)
    assert (main["inferred"]["running"], main["inferred_intervals"]) == (500 * MS, 1)
    assert sum(worker["inferred"].values()) == 0
    assert worker["pid"] is None
    assert any(note.startswith("Process ids are unknown") for note in result["notes"])  # tid-only headers
    for thread in result["threads"]:
        assert sum(thread["states"].values()) == thread["wall_ns"]


def test_latency_wakers_and_blocking_stacks(api: TestClient, captures: dict[str, int]) -> None:
    worker = by_tid(threads(api, captures["sched"]))[100]
    assert worker["latency"] == {
        "count": 2,
        "p50_ns": 500 * MS,
        "p90_ns": 500 * MS,
        "p99_ns": 500 * MS,
        "max_ns": 500 * MS,
    }
    assert {(w["tid"], w["comm"]) for w in worker["wakers"]} == {(200, "main"), (0, "swapper/0")}
    (sleeping,) = worker["top_stacks"]["sleeping"]
    assert sleeping["frames"] == list(reversed(SCHEDULE))
    (blocked,) = worker["top_stacks"]["uninterruptible"]
    assert (blocked["ns"], blocked["count"], blocked["longest_ns"], blocked["share"]) == (
        250 * MS,
        1,
        250 * MS,
        1.0,
    )
    main = by_tid(threads(api, captures["sched"]))[200]
    assert main["latency"]["count"] == 1
    assert main["latency"]["max_ns"] == 250 * MS


def test_stored_whole_capture_totals_match_the_intervals(api: TestClient, captures: dict[str, int]) -> None:
    stored = threads(api, captures["sched"])
    live = threads(api, captures["sched"], start="1970-01-01T00:00:00Z", end="1970-01-02T00:00:00Z")
    strip_times = ("start", "end")
    assert {k: v for k, v in stored.items() if k not in strip_times} == {
        k: v for k, v in live.items() if k not in strip_times
    }
    assert {t["capture_id"] for t in stored["threads"]} == {captures["sched"]}


def test_the_same_tid_on_two_hosts_is_two_threads(api: TestClient, worker: subprocess.Popen[bytes]) -> None:
    incident = make_incident(api)
    ids = []
    for host in ("db-1", "db-2"):
        capture = upload_bytes(api, incident["id"], SCHED.encode(), f"sched-{host}.txt", host=host)
        ids.append(int(wait_parsed(api, capture["id"])["id"]))
    result = api.get("/api/threads", params={"captures": ",".join(map(str, ids)), "comm_regex": "^worker$"})
    workers = result.json()["threads"]
    assert sorted((t["host"], t["tid"]) for t in workers) == [("db-1", 100), ("db-2", 100)]
    assert all(t["wall_ns"] == 2500 * MS for t in workers)


def test_a_time_range_clips_every_thread(api: TestClient, captures: dict[str, int]) -> None:
    result = threads(api, captures["sched"], start="1970-01-01T00:00:02Z", end="1970-01-01T00:00:03Z")
    worker = by_tid(result)[100]
    assert worker["wall_ns"] == 1000 * MS
    assert (worker["states"]["running"], worker["states"]["uninterruptible"]) == (250 * MS, 250 * MS)
    assert worker["states"]["runnable"] == 500 * MS
    assert worker["states"]["sleeping"] == 0


def test_comm_regex_and_a_bad_one(api: TestClient, captures: dict[str, int]) -> None:
    assert [t["tid"] for t in threads(api, captures["sched"], comm_regex="^wor")["threads"]] == [100]
    response = api.get("/api/threads", params={"captures": str(captures["sched"]), "comm_regex": "("})
    assert response.status_code == 422
    assert response.json()["detail"] == (
        "the thread name filter is not a valid regular expression: "
        "missing ), unterminated subpattern at position 0"
    )


def test_the_proc_sampler_is_the_fallback_and_says_so(api: TestClient, captures: dict[str, int]) -> None:
    result = threads(api, captures["sampler"])
    assert result["source"] == "proc-sampler"
    (db,) = result["threads"]
    assert (db["pid"], db["tid"], db["comm"]) == (7, 8, "db")
    assert db["wall_ns"] == 250 * MS
    assert (db["states"]["running"], db["states"]["sleeping"], db["states"]["uninterruptible"]) == (
        150 * MS,
        50 * MS,
        50 * MS,
    )
    assert any("/proc sampler" in note for note in result["notes"])


def test_a_thread_strip_follows_its_states(api: TestClient, captures: dict[str, int]) -> None:
    response = api.get("/api/threads/strip", params={"captures": str(captures["sched"]), "tid": 100})
    assert response.status_code == 200, response.text
    strip = response.json()
    assert [s["state"] for s in strip["segments"]] == [
        "sleeping",
        "runnable",
        "running",
        "uninterruptible",
        "runnable",
        "running",
    ]
    assert not any(s["inferred"] for s in strip["segments"])
    main = api.get("/api/threads/strip", params={"captures": str(captures["sched"]), "tid": 200}).json()
    assert [(s["state"], s["inferred"]) for s in main["segments"]] == [
        ("running", True),
        ("runnable", False),
        ("running", False),
    ]
    assert strip["segments"][0]["start"].startswith("1970-01-01T00:00:01")
    sampled = api.get("/api/threads/strip", params={"captures": str(captures["sampler"]), "tid": 8}).json()
    assert [s["state"] for s in sampled["segments"]] == ["running", "sleeping", "uninterruptible", "running"]


def test_captures_without_thread_data_say_what_to_upload(api: TestClient) -> None:
    incident = make_incident(api)
    cpu = upload_bytes(
        api, incident["id"], b"app 1/1 [000] 1.0: 1 cpu-clock:\n\t1 main (/bin/app)\n\n", "c.txt"
    )
    wait_parsed(api, cpu["id"])
    result = threads(api, int(cpu["id"]))
    assert result["source"] == "none"
    assert result["threads"] == []
    assert result["locks"] == []
    assert "scheduler" in result["notes"][0]
