"""The collector against a running console: record a workload it did not write, upload, read it back.

The console is the real application behind a real HTTP server, on the test database, with the real
Celery worker parsing what arrives. The workload has lock-contending threads, a write+fsync thread
and a CPU-bound one, each naming itself. Parts the kernel forbids are skipped with the reason.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.collector import build_collector, collector_module
from tests.fixtures.factories import make_incident
from tests.fixtures.worker import wait_parsed

REPO = Path(__file__).resolve().parents[3]
WORKLOAD = REPO / "collectors" / "tests" / "workload.py"
RECORD_SECONDS = 4


@pytest.fixture(scope="module")
def recorded(
    console_url: str,
    api: TestClient,
    worker: subprocess.Popen[bytes],
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, Any]:
    """Record the workload with the collector's defaults and return the parsed captures by kind."""
    tmp = tmp_path_factory.mktemp("collector-e2e")
    collector = build_collector(tmp)
    perf, why = collector_module(collector, "stallscope_collect.perf.tool").find_perf()
    if perf is None:
        pytest.skip(f"perf is not usable here: {why}")
    permissions = collector_module(collector, "stallscope_collect.perf.permissions")
    refused, _ = permissions.permission_problems(
        ["cpu", "offcpu"], False, permissions.read_paranoid(), permissions.perf_privileged()
    )
    if refused:
        pytest.skip(f"perf refuses a default mode here: {refused}")
    incident = make_incident(api)
    token = api.post("/api/tokens", json={"name": "collector end-to-end"}).json()["secret"]
    workload = subprocess.Popen(
        [sys.executable, str(WORKLOAD), str(tmp)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        assert workload.stdout is not None
        assert workload.stdout.readline().strip() == "ready"
        env = {k: v for k, v in os.environ.items() if not k.startswith("STALLSCOPE_")}
        env["STALLSCOPE_TOKEN"] = token
        run = subprocess.run(
            [
                sys.executable,
                str(collector),
                "record",
                "--server",
                console_url,
                "--incident",
                str(incident["id"]),
                "--pid",
                str(workload.pid),
                "--duration",
                str(RECORD_SECONDS),
                "--host",
                "e2e-host",
                "--output",
                str(tmp / "out"),
                "--spool",
                str(tmp / "spool"),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
            check=False,
        )
    finally:
        workload.kill()
        workload.wait()
    assert run.returncode == 0, f"collector failed:\n{run.stdout}\n{run.stderr}"
    captures = api.get(f"/api/incidents/{incident['id']}/captures").json()
    parsed = [wait_parsed(api, c["id"]) for c in captures]
    for capture in parsed:
        assert capture["status"] in ("ready", "partial"), capture
        assert capture["host"] == "e2e-host"
        assert capture["clock"]["mode"] in ("anchor", "realtime", "none"), capture["clock"]
    return {
        "incident": incident["id"],
        "captures": parsed,
        "collector_output": run.stderr,
        "pid": workload.pid,
    }


def by_format(recorded: dict[str, Any], fmt: str) -> dict[str, Any]:
    found = [c for c in recorded["captures"] if c["format"] == fmt]
    assert found, f"no {fmt} capture among {[c['format'] for c in recorded['captures']]}"
    return found[0]


def test_cpu_samples_of_the_workload(recorded: dict[str, Any], api: TestClient) -> None:
    cpu = by_format(recorded, "perf-script")
    assert cpu["sample_count"] > 0
    facets = api.get("/api/facets", params={"captures": str(cpu["id"])}).json()
    comms = {t["comm"] for t in facets["threads"]}
    assert "wl-cpu" in comms
    flame = api.get("/api/flame", params={"captures": str(cpu["id"]), "comm": "wl-cpu"}).json()
    assert flame["total_samples"] > 0


def test_off_cpu_intervals_in_s_and_d_with_plausible_stacks(
    recorded: dict[str, Any], api: TestClient
) -> None:
    sched = by_format(recorded, "perf-sched")
    # By the workload's pid: a scheduler capture also holds every thread that switched with it, and
    # the test command's other half records the same workload (same thread names) at the same time.
    params = {"captures": str(sched["id"]), "comm_regex": "^wl-", "pid": recorded["pid"]}
    result = api.get("/api/threads", params=params).json()
    assert result["source"] == "sched"
    threads = {t["comm"]: t for t in result["threads"]}
    # Found by pid at all: the text's headers carry pid/tid.
    assert "wl-lock" in threads, [(t["comm"], t["tid"], t["pid"]) for t in result["threads"]]
    lock = threads["wl-lock"]
    assert {t["pid"] for t in result["threads"]} == {recorded["pid"]}
    assert lock["states"]["sleeping"] > 0
    sleeping_tops = lock["top_stacks"]["sleeping"]
    assert 1 <= len(sleeping_tops) <= 5
    assert [top["ns"] for top in sleeping_tops] == sorted((top["ns"] for top in sleeping_tops), reverse=True)
    sleeping_stack = " ".join(sleeping_tops[0]["frames"])
    assert any(word in sleeping_stack for word in ("futex", "nanosleep", "hrtimer")), sleeping_tops
    fsync = threads["wl-fsync"]
    assert fsync["states"]["uninterruptible"] > 0, fsync["states"]
    d_tops = fsync["top_stacks"]["uninterruptible"]
    assert all(top["count"] >= 1 and top["longest_ns"] <= top["ns"] for top in d_tops)
    d_stack = " ".join(d_tops[0]["frames"])
    assert any(word in d_stack for word in ("fsync", "io_schedule", "jbd2", "wait_on_page", "folio_wait")), (
        d_stack
    )
    for thread in result["threads"]:
        assert sum(thread["states"].values()) == thread["wall_ns"]


def test_thread_state_shares_from_the_proc_sampler(recorded: dict[str, Any], api: TestClient) -> None:
    sampler = by_format(recorded, "stallscope-proc")
    result = api.get("/api/threads", params={"captures": str(sampler["id"])}).json()
    assert result["source"] == "proc-sampler"
    threads = {t["comm"]: t for t in result["threads"]}
    assert threads["wl-cpu"]["states"]["running"] / threads["wl-cpu"]["wall_ns"] > 0.5
    assert {"wl-lock", "wl-fsync"} <= set(threads)


def test_metric_series_and_the_snapshot(recorded: dict[str, Any], api: TestClient) -> None:
    sampler = by_format(recorded, "stallscope-proc")
    series = api.get("/api/metrics/series", params={"captures": str(sampler["id"])}).json()
    names = {s["name"] for s in series}
    assert {"cpu.user", "mem.MemAvailable", "thread.state"} <= names
    snapshot = by_format(recorded, "stallscope-snapshot")
    documents = api.get(f"/api/captures/{snapshot['id']}/documents").json()
    assert documents, "the snapshot capture holds no document"
    sections = documents[0]["content"].get("sections", documents[0]["content"])
    assert {"kernel", "transparent_hugepage"} <= set(sections), sorted(sections)


def test_the_collector_reports_what_it_sent(recorded: dict[str, Any]) -> None:
    uploads = [line for line in recorded["collector_output"].splitlines() if "uploaded " in line]
    assert len(uploads) == len(recorded["captures"]), recorded["collector_output"]
    assert not any("(0 B)" in line for line in uploads), uploads
