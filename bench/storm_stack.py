"""The production wiring on loopback, for the upload storm: Redis, an S3-compatible object store,
PostgreSQL (with TimescaleDB when its build is beside the checkout), the API and two workers, each
console process in a data directory of its own as on separate hosts.

The object store is S3Proxy, the server the test command installs (`backend/tests/fixtures/
object_store.py`); the TimescaleDB build is the one the tests load. `Stack` stops everything it
started, in reverse order, whatever happened.
"""

from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

BENCH = Path(__file__).resolve().parent
BACKEND = BENCH.parent / "backend"
sys.path.insert(0, str(BACKEND))

from tests.fixtures.processes import free_port, wait_until  # noqa: E402

START_TIMEOUT_S = 120


@dataclass
class Stack:
    api_url: str
    database_url: str
    database_kind: str
    blob_url: str
    s3_environment: dict[str, str]
    logs: dict[str, Path] = field(default_factory=dict)


def _says_ready(log: Path) -> bool:
    return b"ready." in log.read_bytes()


def _wait(check: Callable[[], bool], what: str, process: subprocess.Popen[bytes], log: Path) -> None:
    wait_until(check, what, process, log, START_TIMEOUT_S)


@contextmanager
def _process(
    command: list[str], log: Path, env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    with open(log, "wb") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@contextmanager
def _database(folder: Path) -> Iterator[tuple[str, str]]:
    """(URL, what it is): TimescaleDB when the build is there, else the embedded PostgreSQL."""
    from stallscope.embedded import start_embedded_postgres
    from tests.fixtures.timescaledb_server import timescaledb_missing, timescaledb_server

    missing = timescaledb_missing()
    if missing is None:
        with timescaledb_server() as url:
            yield url, "PostgreSQL 18 with TimescaleDB"
        return
    print(f"TimescaleDB is not here ({missing}): plain PostgreSQL instead")
    yield start_embedded_postgres(folder / "pgdata"), "PostgreSQL 18 (embedded, no TimescaleDB)"


@contextmanager
def production_stack(folder: Path, workers: int = 2, worker_concurrency: int = 1) -> Iterator[Stack]:
    from stallscope.migrate import upgrade_to_head
    from tests.fixtures.object_store import missing_reason, s3proxy_server
    from tests.fixtures.redis_server import redis_server

    reason = missing_reason()
    if reason is not None:
        raise SystemExit(f"the object store cannot start: {reason} (run the README's test command once)")
    if shutil.which("redis-server") is None:
        raise SystemExit("redis-server is not installed (apt-get install redis-server)")
    objects = folder / "objects"
    objects.mkdir(parents=True)
    logs = {"redis": folder / "redis.log", "object store": objects / "s3proxy.log"}
    with ExitStack() as stack:
        database_url, kind = stack.enter_context(_database(folder))
        upgrade_to_head(database_url)
        redis_url = stack.enter_context(redis_server(folder))
        s3_environment = stack.enter_context(s3proxy_server(objects)).environment()
        blob_url = "s3://storm/raw"
        shared = {
            **os.environ,
            **s3_environment,
            "DATABASE_URL": database_url,
            "CELERY_BROKER_URL": redis_url,
            "STALLSCOPE_BLOB_URL": blob_url,
            "PYTHONPATH": str(BACKEND),
        }
        api_port = free_port()
        console = [sys.executable, "-m", "stallscope"]
        logs["api"] = folder / "api" / "out.log"
        logs["api"].parent.mkdir()
        api = stack.enter_context(
            _process(
                [*console, "serve", "--no-worker", "--port", str(api_port)],
                logs["api"],
                {**shared, "STALLSCOPE_DATA_DIR": str(logs["api"].parent)},
            )
        )
        api_url = f"http://127.0.0.1:{api_port}"
        _wait(lambda: _healthy(api_url, any_status=True), "API", api, logs["api"])
        for number in range(1, workers + 1):
            name = f"worker {number}"
            logs[name] = folder / f"worker-{number}" / "out.log"
            logs[name].parent.mkdir()
            worker = stack.enter_context(
                _process(
                    [*console, "worker", "--concurrency", str(worker_concurrency)],
                    logs[name],
                    {**shared, "STALLSCOPE_DATA_DIR": str(logs[name].parent)},
                )
            )
            _wait(functools.partial(_says_ready, logs[name]), name, worker, logs[name])
        _wait(lambda: _healthy(api_url), "API health", api, logs["api"])
        yield Stack(api_url, database_url, kind, blob_url, s3_environment, logs)


def _healthy(api_url: str, any_status: bool = False) -> bool:
    try:
        answer = httpx.get(f"{api_url}/api/health", timeout=2)
    except httpx.HTTPError:
        return False
    return any_status or answer.status_code == 200
