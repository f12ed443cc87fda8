"""The housekeeping jobs: each one idempotent, so two consoles on one database may both run them."""

from __future__ import annotations

import logging
import time
from typing import Any

import psycopg

from stallscope.blobs.configured import blob_store
from stallscope.captures.parse_queue import send_parse
from stallscope.captures.recovery import find_and_requeue
from stallscope.config import Settings
from stallscope.db import raw_connection
from stallscope.lifecycle.tasks import RETENTION_TASK
from stallscope.maintenance.loop import Job
from stallscope.worker import enqueue, waiting_messages

log = logging.getLogger(__name__)

Conn = psycopg.Connection[tuple[Any, ...]]

INCOMING_SWEEP_INTERVAL_S = 300.0
ORPHAN_SWEEP_INTERVAL_S = 3600.0
PRUNE_INTERVAL_S = 3600.0
RETENTION_INTERVAL_S = 3600.0
ORPHAN_GRACE_S = 3600.0
"""A stored upload gets its row within milliseconds; an hour leaves room for any slow insert."""
MIN_INCOMING_AGE_S = 120.0
DELIVERED_MESSAGES_KEPT = "1 day"
HEARTBEATS_KEPT = "1 day"


def requeue_stalled_parses(database_url: str, stall_timeout_s: float) -> None:
    """Queue again what a dead worker or a lost message left `parsing` or `queued`."""
    try:
        queue_is_empty = waiting_messages() == 0
    except Exception as exc:  # the broker is away: nothing could be sent anyway
        log.info("broker unreachable (%s); stalled parses are checked again later", exc)
        return
    with raw_connection(database_url, autocommit=True) as conn:
        requeued = find_and_requeue(conn, queue_is_empty=queue_is_empty, stall_timeout_s=stall_timeout_s)
    for item in requeued:
        send_parse(item.capture_id, item.attempt)


def sweep_incoming(settings: Settings) -> None:
    """Remove what uploads that stopped arriving left behind (a console killed mid-upload)."""
    older_than = max(2 * settings.upload_idle_timeout_s, MIN_INCOMING_AGE_S)
    removed = blob_store(settings).remove_stale_incoming(older_than)
    if removed:
        log.info("removed %d leftovers of uploads that never finished", removed)


def sweep_orphan_blobs(settings: Settings, database_url: str) -> None:
    """Remove stored uploads no capture refers to (an upload whose row was never written)."""
    cutoff = time.time() - ORPHAN_GRACE_S
    store = blob_store(settings)
    candidates = {b.sha256 for b in store.stored_blobs() if b.mtime < cutoff}
    if not candidates:
        return
    with raw_connection(database_url, autocommit=True) as conn:
        referenced = {
            sha
            for (sha,) in conn.execute(
                "SELECT DISTINCT sha256 FROM captures WHERE sha256 = ANY(%s)", (list(candidates),)
            ).fetchall()
        }
    removed = sum(store.remove_unless_touched(sha, cutoff) for sha in candidates if sha not in referenced)
    if removed:
        log.info("removed %d stored uploads that no capture refers to", removed)


def prune_bookkeeping(database_url: str) -> None:
    """Drop delivered broker messages (the database broker keeps them) and old worker heartbeats."""
    with raw_connection(database_url, autocommit=True) as conn:
        conn.execute(f"DELETE FROM worker_heartbeats WHERE seen_at < now() - interval '{HEARTBEATS_KEPT}'")
        if conn.execute("SELECT to_regclass('kombu_message') IS NOT NULL").fetchone() == (True,):
            conn.execute(
                "DELETE FROM kombu_message WHERE visible = false "
                f"AND timestamp < now() - interval '{DELIVERED_MESSAGES_KEPT}'"
            )


def queue_retention() -> None:
    """Ask a worker to apply the retention policy (trash aged-out captures, purge the old trash)."""
    enqueue(RETENTION_TASK)


def console_jobs(settings: Settings, database_url: str) -> list[Job]:
    return [
        Job(
            "requeue stalled parses",
            settings.recovery_interval_s,
            lambda: requeue_stalled_parses(database_url, settings.parse_stall_timeout_s),
        ),
        Job("sweep unfinished uploads", INCOMING_SWEEP_INTERVAL_S, lambda: sweep_incoming(settings)),
        Job(
            "sweep orphaned uploads",
            ORPHAN_SWEEP_INTERVAL_S,
            lambda: sweep_orphan_blobs(settings, database_url),
        ),
        Job("prune bookkeeping", PRUNE_INTERVAL_S, lambda: prune_bookkeeping(database_url)),
        Job("queue retention", RETENTION_INTERVAL_S, queue_retention),
    ]
