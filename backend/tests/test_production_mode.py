"""The production wiring: API and workers as separate processes, Celery over Redis.

This is what docker-compose.yml runs (minus the containers): `stallscope serve --no-worker` and
`stallscope worker` share only DATABASE_URL, CELERY_BROKER_URL and the data directory.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.fixtures.people import bearer
from tests.fixtures.processes import free_port, wait_until

PARSE_TIMEOUT_S = 120
CAPTURE = b"""svc 42/42 [001] 10.000100: 1000 cpu-clock:
\t    1111 handle (/usr/bin/svc)
\t    2222 main (/usr/bin/svc)

svc 42/42 [001] 10.000200: 1000 cpu-clock:
\t    1111 handle (/usr/bin/svc)
\t    2222 main (/usr/bin/svc)

"""


def test_api_and_worker_in_separate_processes_over_redis(
    database_url: str, redis_url: str, tmp_path: Path, admin_token: str
) -> None:
    port = free_port()
    env = dict(
        os.environ, DATABASE_URL=database_url, CELERY_BROKER_URL=redis_url, STALLSCOPE_DATA_DIR=str(tmp_path)
    )
    api_log, worker_log = tmp_path / "api.log", tmp_path / "worker.log"
    base = [sys.executable, "-m", "stallscope"]
    with open(api_log, "wb") as a, open(worker_log, "wb") as w:
        api = subprocess.Popen(
            [*base, "serve", "--no-worker", "--port", str(port)], env=env, stdout=a, stderr=subprocess.STDOUT
        )
        worker = subprocess.Popen([*base, "worker"], env=env, stdout=w, stderr=subprocess.STDOUT)
    try:
        server = f"http://127.0.0.1:{port}"

        def healthy() -> bool:
            try:
                return httpx.get(f"{server}/api/health", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(healthy, "API", api, api_log)
        wait_until(lambda: b"ready." in worker_log.read_bytes(), "worker", worker, worker_log)
        assert b"redis://" in worker_log.read_bytes(), "the worker must use the Redis broker"
        with httpx.Client(base_url=server, timeout=30, headers=bearer(admin_token)) as client:
            incident = client.post(
                "/api/incidents", json={"title": "prod path", "started_at": "2026-11-21T08:00:00Z"}
            ).json()
            capture = client.post(
                f"/api/incidents/{incident['id']}/captures",
                params={"filename": "svc.txt"},
                content=CAPTURE,
                headers={"Content-Type": "application/octet-stream"},
            ).json()
            deadline = time.monotonic() + PARSE_TIMEOUT_S
            while (status := client.get(f"/api/captures/{capture['id']}").json())["status"] in {
                "queued",
                "parsing",
            }:
                assert time.monotonic() < deadline, f"still {status['status']}:\n{worker_log.read_text()}"
                time.sleep(0.2)
            assert status["status"] == "ready", status
            flame = client.get("/api/flame", params={"captures": capture["id"]}).json()
            assert flame["total_samples"] == 2
    finally:
        for process in (api, worker):
            process.terminate()
        for process in (api, worker):
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
