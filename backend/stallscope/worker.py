"""The Celery app, configured from settings, and the one decorator every task uses.

In the embedded mode the broker is kombu's SQLAlchemy transport on the console's own PostgreSQL:
no Redis or RabbitMQ to install, and queued parses survive a restart because they are rows.
"""

from __future__ import annotations

import functools
import logging
import os
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any, NoReturn, ParamSpec, TypeVar

from celery import Celery

from stallscope.config import Settings, get_settings
from stallscope.db import sqlalchemy_url

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

TASK_MODULES = [
    "stallscope.captures.tasks",
    "stallscope.findings.tasks",
    "stallscope.lifecycle.tasks",
    "stallscope.watch.tasks",
]

celery_app = Celery("stallscope", include=TASK_MODULES)


def broker_url(settings: Settings) -> str:
    if settings.broker_url:
        return settings.broker_url
    if not settings.database_url:
        raise RuntimeError("neither CELERY_BROKER_URL nor DATABASE_URL is set")
    return "sqla+" + sqlalchemy_url(settings.database_url)


def configure_celery(settings: Settings | None = None) -> Celery:
    settings = settings or get_settings()
    celery_app.conf.update(
        broker_url=broker_url(settings),
        broker_connection_retry_on_startup=True,
        task_ignore_result=True,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        worker_hijack_root_logger=False,
        task_serializer="json",
        accept_content=["json"],
    )
    return celery_app


def stallscope_task(name: str) -> Callable[[Callable[P, R]], Any]:
    """Register a task under a dotted name, with timing logs; failures are the task's to record."""

    def decorate(func: Callable[P, R]) -> Any:
        @functools.wraps(func)
        def timed(*args: P.args, **kwargs: P.kwargs) -> R:
            started = time.monotonic()
            try:
                return func(*args, **kwargs)
            finally:
                log.info("task %s%s took %.2fs", name, args, time.monotonic() - started)

        return celery_app.task(name=name)(timed)

    return decorate


def quiet_worker_arguments() -> list[str]:
    """`worker_main`'s arguments for a worker that says only what goes wrong: no banner, no line per
    task, and one line instead of Celery's seven when it runs as root."""
    from celery.exceptions import SecurityWarning

    warnings.filterwarnings("ignore", category=SecurityWarning)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        log.warning("the parse worker runs as root and reads what uploaders send; run it as another user")
    return ["--quiet", "worker", "--loglevel=WARNING"]


def exit_at_once() -> NoReturn:
    """Leave once the worker has stopped (`fast_exit`): Celery has stopped and joined its pool, and
    billiard's exit handler would only join the pool's idle helper threads one after another while
    `serve` waits. Pool processes still alive (there should be none) get the usual exit instead."""
    from billiard.process import active_children

    from stallscope.fast_exit import leave

    if active_children():
        sys.exit(0)
    leave(0)


def enqueue(name: str, *args: Any, countdown: float | None = None) -> None:
    """Send a task by name; with `countdown`, a worker runs it no sooner than that many seconds."""
    configure_celery()
    celery_app.send_task(name, args=list(args), countdown=countdown)


BROKER_CHECK_TIMEOUT_S = 3.0


def waiting_messages() -> int:
    """Messages waiting in the default queue (not those a worker holds); raises when unreachable."""
    app = configure_celery()
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=BROKER_CHECK_TIMEOUT_S)
        channel = conn.default_channel
        try:
            declared = channel.queue_declare(queue=app.conf.task_default_queue, passive=True)
        except conn.channel_errors:
            return 0  # the queue does not exist yet: nothing was ever sent to it
        return int(declared.message_count)
