"""`stallscope serve`: the whole console in one command, kept alive by itself.

Takes the data directory's lock, starts (or reuses) the embedded PostgreSQL unless DATABASE_URL is
set, applies migrations, runs a Celery worker as a child process and the API in this one. A
supervisor thread starts the worker or the embedded database again when either dies, and a
maintenance thread queues again the parses a dead worker left behind and sweeps orphaned files.
Ctrl-C stops all of it (`console_stop`); the data stays in the data directory for the next start.
"""

from __future__ import annotations

import logging
import os

import uvicorn

from stallscope.auth.first_admin import banner, ensure_first_admin
from stallscope.blobs.configured import blob_store
from stallscope.config import Settings, get_settings
from stallscope.console_log import CONSOLE_LOGGER
from stallscope.console_stop import API_GRACE_S, ConsoleServer, ConsoleStop
from stallscope.datadir_lock import DataDirLock
from stallscope.db import get_session_factory
from stallscope.embedded import EmbeddedPostgres
from stallscope.maintenance.jobs import console_jobs
from stallscope.maintenance.loop import MaintenanceLoop
from stallscope.migrate import schema_revision, upgrade_to_head
from stallscope.supervision import EmbeddedDatabase, SupervisedPart, Supervisor, WorkerProcess

log = logging.getLogger(CONSOLE_LOGGER)

KEEP_ALIVE_S = 5


def _use_database(url: str) -> Settings:
    os.environ["DATABASE_URL"] = url
    get_settings.cache_clear()
    return get_settings()


def ensure_database(settings: Settings) -> Settings:
    """Return settings with a database URL, starting the embedded server when none is configured."""
    if settings.database_url:
        return settings
    log.info("no DATABASE_URL: using the embedded PostgreSQL in %s", settings.pgdata_dir)
    return _use_database(EmbeddedPostgres(settings.pgdata_dir).url)


def serve(with_worker: bool = True, verbose: bool = False) -> int:
    """Run the console until Ctrl-C; raises DataDirInUse when another console holds the directory."""
    settings = get_settings()
    lock = DataDirLock(settings.data_dir)
    lock.acquire()
    parts: list[SupervisedPart] = []
    embedded: EmbeddedPostgres | None = None
    data, blobs = settings.data_dir, blob_store(settings)
    blobs.prepare()  # before the database: a store that cannot be reached stops the start, saying why
    if settings.database_url:
        log.info("data directory %s (uploads in %s); the database is DATABASE_URL's", data, blobs)
    else:
        log.info(
            "data directory %s (uploads in %s, the embedded PostgreSQL in %s)",
            data,
            blobs,
            settings.pgdata_dir,
        )
        embedded = EmbeddedPostgres(settings.pgdata_dir)
        settings = _use_database(embedded.url)
        parts.append(EmbeddedDatabase(embedded))
    assert settings.database_url is not None
    _migrate(settings.database_url)
    _first_admin(settings)
    worker = None
    if with_worker:
        worker = WorkerProcess(_worker_env(settings), settings.worker_concurrency, quiet=not verbose)
        parts.append(worker)
    supervisor = Supervisor(parts)
    maintenance = MaintenanceLoop(console_jobs(settings, settings.database_url))
    stop = ConsoleStop(supervisor, maintenance, worker, embedded, lock, settings.stop_grace_s)
    supervisor.start()
    maintenance.start()
    where = f"http://{settings.host}:{settings.port}/"
    try:
        from stallscope.main import create_app

        config = uvicorn.Config(
            create_app(),
            host=settings.host,
            port=settings.port,
            log_level="info" if verbose else "warning",
            timeout_keep_alive=KEEP_ALIVE_S,
            timeout_graceful_shutdown=API_GRACE_S,
        )
        ready = _ready_note(worker, verbose)
        server = ConsoleServer(config, stop.begin, lambda: log.info("Stallscope is at %s %s", where, ready))
        try:
            server.run()
        except SystemExit:
            if server.started:
                raise
            log.error(
                "could not listen at %s (the error above says why; another program on the port? "
                "--port or STALLSCOPE_PORT chooses another)",
                where,
            )
            return 1
    finally:
        stop.finish()
    return 0


def _ready_note(worker: WorkerProcess | None, verbose: bool) -> str:
    parts = "with its parse worker" if worker is not None else "without a parse worker (--no-worker)"
    more = "" if verbose else "; `serve --verbose` also shows the database, worker and request logs"
    return f"{parts}; Ctrl-C stops it{more}"


def _migrate(url: str) -> None:
    before = schema_revision(url)
    upgrade_to_head(url)
    after = schema_revision(url)
    if before == after:
        log.info("database schema up to date (revision %s)", after)
    else:
        log.info("database schema migrated from revision %s to %s", before or "(none)", after)


def _first_admin(settings: Settings) -> None:
    assert settings.database_url is not None
    with get_session_factory(settings.database_url)() as session:
        password = ensure_first_admin(session, settings.admin_password)
        session.commit()
    if password is not None:
        print(banner(f"http://{settings.host}:{settings.port}/", password), flush=True)


def _worker_env(settings: Settings) -> dict[str, str]:
    env = dict(os.environ)
    env["DATABASE_URL"] = settings.database_url or ""
    env["STALLSCOPE_DATA_DIR"] = str(settings.data_dir)
    return env
