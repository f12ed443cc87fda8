"""`stallscope serve`: the whole console in one command.

Starts (or reuses) the embedded PostgreSQL unless DATABASE_URL is set, applies migrations, runs a
Celery worker as a child process and the API in this one. Ctrl-C stops all three; the data stays
in the data directory for the next start.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys

import uvicorn

from stallscope.config import Settings, get_settings
from stallscope.embedded import start_embedded_postgres
from stallscope.migrate import upgrade_to_head

log = logging.getLogger(__name__)

WORKER_STOP_TIMEOUT_S = 30


def ensure_database(settings: Settings) -> Settings:
    """Return settings with a database URL, starting the embedded server when none is configured."""
    if settings.database_url:
        return settings
    log.info("no DATABASE_URL: using the embedded PostgreSQL in %s", settings.pgdata_dir)
    url = start_embedded_postgres(settings.pgdata_dir)
    os.environ["DATABASE_URL"] = url
    get_settings.cache_clear()
    return get_settings()


def start_worker_process(settings: Settings) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env["DATABASE_URL"] = settings.database_url or ""
    env["STALLSCOPE_DATA_DIR"] = str(settings.data_dir)
    command = [
        sys.executable,
        "-m",
        "stallscope",
        "worker",
        "--concurrency",
        str(settings.worker_concurrency),
    ]
    return subprocess.Popen(command, env=env)


def stop_worker_process(worker: subprocess.Popen[bytes]) -> None:
    if worker.poll() is not None:
        return
    worker.send_signal(signal.SIGTERM)
    try:
        worker.wait(WORKER_STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        log.warning("worker did not stop within %ss; killing it", WORKER_STOP_TIMEOUT_S)
        worker.kill()
        worker.wait()


def serve(with_worker: bool = True) -> int:
    settings = ensure_database(get_settings())
    settings.blob_dir.mkdir(parents=True, exist_ok=True)
    assert settings.database_url is not None
    upgrade_to_head(settings.database_url)
    worker = start_worker_process(settings) if with_worker else None
    try:
        from stallscope.main import create_app

        log.info("Stallscope is at http://%s:%s/", settings.host, settings.port)
        uvicorn.run(create_app(), host=settings.host, port=settings.port, log_level="info")
    finally:
        if worker is not None:
            stop_worker_process(worker)
    return 0
