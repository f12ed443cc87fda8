"""Scaled out: the API and two workers share nothing but PostgreSQL, Redis and the object store.

Each process has a data directory of its own, as on three hosts; raw uploads live in a real
S3-compatible server (`fixtures/object_store.py`). A capture goes the whole way (upload, parse,
flame graph, re-parse, raw download, delete and purge), and a worker killed in the middle of a
parse leaves the capture to the other one.
"""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from stallscope.blobs.configured import make_store
from stallscope.blobs.s3 import S3BlobStore
from tests.fixtures.object_store import ObjectStoreServer
from tests.fixtures.people import bearer
from tests.fixtures.processes import free_port, wait_until

# What this shares is the object store; how records are stored is the other tests' concern (and the
# storm benchmark runs this wiring on TimescaleDB): the plain-PostgreSQL half runs it once.
pytestmark = pytest.mark.storage_neutral

STEP_TIMEOUT_S = 180
BIG_SAMPLES = 600_000
"""Enough for a parse of several seconds, so that it can be caught in the middle."""


@dataclass
class Process:
    name: str
    popen: subprocess.Popen[bytes]
    log: Path
    data_dir: Path

    def cpu_ticks(self) -> int:
        """CPU time of the process and everything it forked (its process group), in clock ticks."""
        total = 0
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue  # gone meanwhile
            if int(fields[2]) == self.popen.pid:  # fields[2] is the process group
                total += int(fields[11]) + int(fields[12])
        return total

    def kill_group(self) -> None:
        os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(10)


@pytest.fixture
def stack(
    database_url: str,
    redis_url: str,
    object_store_server: ObjectStoreServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[str, S3BlobStore, list[Process]]]:
    """The API and two workers, started as on three hosts; yields (API URL, the store, [api, a, b])."""
    blob_url = f"s3://scale-{uuid.uuid4().hex[:12]}/raw"
    shared = {
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": redis_url,
        "STALLSCOPE_BLOB_URL": blob_url,
        "STALLSCOPE_PARSE_STALL_TIMEOUT_S": "3",
        "STALLSCOPE_RECOVERY_INTERVAL_S": "1",
        **object_store_server.environment(),
    }
    port = free_port()
    base = [sys.executable, "-m", "stallscope"]
    commands = {
        "api": [*base, "serve", "--no-worker", "--port", str(port)],
        "worker-a": [*base, "worker", "--concurrency", "1"],
        "worker-b": [*base, "worker", "--concurrency", "1"],
    }
    processes: list[Process] = []
    try:
        for name, command in commands.items():
            data_dir = tmp_path / name
            data_dir.mkdir()
            log = data_dir / "out.log"
            env = {**os.environ, **shared, "STALLSCOPE_DATA_DIR": str(data_dir)}
            with open(log, "wb") as out:
                popen = subprocess.Popen(
                    command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
                )
            processes.append(Process(name, popen, log, data_dir))
        api = f"http://127.0.0.1:{port}"
        wait_until(lambda: _answers(api), "API", processes[0].popen, processes[0].log)
        for worker in processes[1:]:
            log = worker.log
            wait_until(lambda log=log: b"ready." in log.read_bytes(), worker.name, worker.popen, log)
        for name, value in object_store_server.environment().items():
            monkeypatch.setenv(name, value)
        store = make_store(blob_url, tmp_path / "unused")  # the test's own look into the bucket
        assert isinstance(store, S3BlobStore)
        yield api, store, processes
    finally:
        for process in processes:
            if process.popen.poll() is None:
                os.killpg(process.popen.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.popen.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.popen.pid, signal.SIGKILL)


def test_workers_on_other_hosts_parse_from_the_object_store_and_one_dying_loses_nothing(
    stack: tuple[str, S3BlobStore, list[Process]], admin_token: str
) -> None:
    api_url, store, processes = stack
    _, worker_a, worker_b = processes
    headers = {"X-Requested-With": "stallscope", **bearer(admin_token)}
    with httpx.Client(base_url=api_url, timeout=60, headers=headers) as client:
        incident = client.post(
            "/api/incidents", json={"title": "scaled out", "started_at": "2026-11-21T08:00:00Z"}
        ).json()["id"]

        # The whole way for a small capture: upload, parse, flame graph, raw bytes, re-parse.
        small_bytes = gzip.compress(_perf_script(200))
        small = _upload(client, incident, "small.txt.gz", small_bytes)
        assert _parsed(client, small)["status"] == "ready"
        assert _flame_total(client, small) == 200
        assert client.get(f"/api/captures/{small}/raw").content == small_bytes
        assert client.post(f"/api/captures/{small}/reparse").status_code == 202
        assert _parsed(client, small)["status"] == "ready"
        assert _flame_total(client, small) == 200

        # A worker killed mid-parse: the other finishes the capture.
        big = _upload(client, incident, "big.txt.gz", gzip.compress(_perf_script(BIG_SAMPLES), 1))
        _wait_for(lambda: _parsing_underway(client, big), "the big capture's parse to start")
        parser = _busiest(worker_a, worker_b)
        survivor = worker_b if parser is worker_a else worker_a
        parser.kill_group()
        after_kill = client.get(f"/api/captures/{big}").json()
        assert after_kill["status"] == "parsing", "killed in the middle, not after the end"
        done = _parsed(client, big)
        assert done["status"] == "ready", _why(done, processes[0], survivor)
        assert done["recovery_note"], "queued again because its worker died, then parsed by the other"
        assert _flame_total(client, big) == BIG_SAMPLES
        assert survivor.popen.poll() is None

        # Deleting: the trash keeps the bytes, a purge removes them from the object store.
        shas = {c["id"]: c["sha256"] for c in client.get(f"/api/incidents/{incident}/captures").json()}
        assert client.delete(f"/api/captures/{big}").status_code == 204
        assert store.head(shas[big]) is not None, "in the trash, still restorable"
        assert client.delete(f"/api/trash/captures/{big}").status_code == 204
        assert store.head(shas[big]) is None
        assert client.delete(f"/api/incidents/{incident}").status_code == 204
        assert client.delete(f"/api/trash/incidents/{incident}").status_code == 204
        assert store.head(shas[small]) is None

    for process in processes:
        assert not (process.data_dir / "blobs").exists(), f"{process.name} used a local blob directory"


def _answers(api: str) -> bool:
    try:
        return httpx.get(f"{api}/api/health", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def _perf_script(samples: int) -> bytes:
    """`perf script` text: `samples` samples over a few hundred distinct three-frame stacks."""
    lines = []
    for i in range(samples):
        lines.append(
            f"svc {100 + i % 7}/{100 + i % 7} [00{i % 4}] {10 + i / 10_000:.6f}: 1000 cpu-clock:\n"
            f"\t    {0x1000 + i % 311:x} leaf_{i % 311} (/usr/bin/svc)\n"
            f"\t    {0x2000 + i % 17:x} mid_{i % 17} (/usr/bin/svc)\n"
            "\t    3000 main (/usr/bin/svc)\n\n"
        )
    return "".join(lines).encode()


def _upload(client: httpx.Client, incident: int, name: str, body: bytes) -> int:
    response = client.post(
        f"/api/incidents/{incident}/captures",
        params={"filename": name},
        content=body,
        headers={"Content-Type": "application/octet-stream"},
    )
    assert response.status_code == 202, response.text
    capture_id: int = response.json()["id"]
    return capture_id


def _why(capture: dict[str, Any], *processes: Process) -> str:
    """The capture's error and recovery note, and the end of each process's log."""
    logs = "".join(f"\n--- {p.name}:\n{p.log.read_text()[-3000:]}" for p in processes)
    return f"{capture.get('error')} / {capture.get('recovery_note')}{logs}"


def _parsed(client: httpx.Client, capture: int) -> dict[str, Any]:
    found: dict[str, Any] = {}

    def done() -> bool:
        found.update(client.get(f"/api/captures/{capture}").json())
        return found["status"] not in {"queued", "parsing"}

    _wait_for(done, f"capture {capture} to be parsed")
    return found


def _parsing_underway(client: httpx.Client, capture: int) -> bool:
    state = client.get(f"/api/captures/{capture}").json()
    assert state["status"] in {"queued", "parsing"}, f"parsed before it could be interrupted: {state}"
    return bool(state["status"] == "parsing" and state["progress"] > 0)


def _busiest(*workers: Process) -> Process:
    """The worker whose processes are using the CPU: the one parsing."""
    before = [w.cpu_ticks() for w in workers]
    time.sleep(1.0)
    grew = [w.cpu_ticks() - b for w, b in zip(workers, before, strict=True)]
    return workers[grew.index(max(grew))]


def _flame_total(client: httpx.Client, capture: int) -> int:
    total: int = client.get("/api/flame", params={"captures": capture}).json()["total_samples"]
    return total


def _wait_for(check: Any, what: str) -> None:
    deadline = time.monotonic() + STEP_TIMEOUT_S
    while not check():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.2)
