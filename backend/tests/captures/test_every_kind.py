"""Each kind of capture through the real worker into storage, and back out of the APIs."""

from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed

DATA = Path(__file__).resolve().parents[1] / "ingest" / "data"
SCHED_HEAD_BYTES = 3 << 20


def parsed(api: TestClient, data: bytes, filename: str, **params: str) -> dict[str, Any]:
    incident = make_incident(api)
    capture = wait_parsed(api, upload_bytes(api, incident["id"], data, filename, **params)["id"])
    assert capture["status"] in {"ready", "partial"}, capture
    return capture


def head_of_samples(path: Path, size: int) -> bytes:
    """The first `size` bytes of a perf script capture, cut at a sample boundary."""
    with gzip.open(path, "rb") as stream:
        data = stream.read(size)
    return data[: data.rindex(b"\n\n") + 2]


def test_scheduler_capture_gives_off_cpu_intervals_and_flame_graph(
    api: TestClient, worker: subprocess.Popen[bytes], corpus: Path
) -> None:
    data = head_of_samples(corpus / "captures" / "offcpu5s.perf.txt.gz", SCHED_HEAD_BYTES)
    capture = parsed(api, data, "offcpu.txt")
    assert capture["format"] == "perf-sched"
    assert capture["record_counts"]["events.off-cpu"] > 0
    flame = api.get("/api/flame", params={"captures": capture["id"], "source": "off-cpu"}).json()
    assert flame["unit"] == "us"
    assert flame["total"] > 0
    assert {"S", "D"} <= set(flame["events"]), flame["events"]
    blocked_d = api.get(
        "/api/flame", params={"captures": capture["id"], "source": "off-cpu", "state": "D"}
    ).json()
    assert 0 < blocked_d["total"] < flame["total"]
    slowest = api.get(
        "/api/events", params={"captures": capture["id"], "kind": "off-cpu", "limit": 20}
    ).json()
    durations = [e["duration_ns"] for e in slowest["events"] if e["duration_ns"] is not None]
    assert durations == sorted(durations, reverse=True)
    blocking = api.get(f"/api/stacks/{slowest['events'][0]['stack_id']}").json()
    assert blocking, "the slowest off-CPU interval has a blocking stack"
    assert any(frame["kind"] == "kernel" for frame in blocking)
    assert api.get("/api/stacks/999999999").status_code == 404


def test_perf_trace_capture_lists_syscalls_slowest_first(
    api: TestClient, worker: subprocess.Popen[bytes], corpus: Path
) -> None:
    with gzip.open(corpus / "captures" / "perf_trace.mmap_fsync_futex.txt.gz", "rb") as stream:
        data = b"".join(stream.readline() for _ in range(3000))
    capture = parsed(api, data, "trace.txt")
    assert capture["format"].startswith("perf-trace")
    page = api.get("/api/events", params={"captures": capture["id"], "kind": "syscall", "limit": 50}).json()
    assert page["total"] == capture["record_counts"]["events"]
    names = {e["name"] for e in page["events"]}
    assert names <= {"mmap", "fsync", "futex"}
    durations = [e["duration_ns"] for e in page["events"]]
    assert durations == sorted(durations, reverse=True)


def test_proc_sampler_capture_gives_metric_series(api: TestClient, worker: subprocess.Popen[bytes]) -> None:
    t0 = 1_763_712_000_000_000_000
    lines = [json.dumps({"stallscope": "proc-sampler", "version": 1, "host": "db-7", "interval_ms": 50})]
    for i in range(40):
        t = t0 + i * 50_000_000
        lines.append(json.dumps({"t": t, "name": "mem.MemFree", "labels": {}, "value": 1000 - i}))
        state = "D" if i % 4 == 0 else "S"
        labels = {"pid": "9", "tid": "9", "comm": "db", "state": state}
        lines.append(json.dumps({"t": t, "name": "thread.state", "labels": labels, "value": 1}))
    capture = parsed(api, ("\n".join(lines) + "\n").encode(), "proc.jsonl", kind="proc")
    assert capture["format"] == "stallscope-proc"
    assert capture["clock"]["mode"] == "realtime"
    series = api.get("/api/metrics/series", params={"captures": capture["id"]}).json()
    by_name = {(s["name"], s["labels"].get("state")): s for s in series}
    assert by_name[("mem.MemFree", None)]["points"] == 40
    assert by_name[("thread.state", "D")]["points"] == 10
    points = api.get(
        f"/api/metrics/series/{by_name[('mem.MemFree', None)]['id']}/points", params={"buckets": 4}
    ).json()
    assert 4 <= len(points["points"]) <= 5
    assert points["points"][0]["max"] == 1000
    assert min(p["min"] for p in points["points"]) == 961


@pytest.mark.parametrize("name", ["mpstat_P_ALL.txt", "iostat_x_t.txt", "vmstat_t.txt", "sar_u_r_B.txt"])
def test_sysstat_capture_gives_series(api: TestClient, worker: subprocess.Popen[bytes], name: str) -> None:
    capture = parsed(api, (DATA / "sysstat" / name).read_bytes(), name)
    assert capture["format"] == "sysstat"
    assert capture["record_counts"]["metric_series"] > 0
    assert capture["time_start"] is not None
