"""Celery task for retention: apply the policy, commit, then remove the blobs no capture holds."""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime

from stallscope.blobs.configured import blob_store
from stallscope.blobs.store import BlobStore
from stallscope.config import get_settings
from stallscope.db import get_session_factory
from stallscope.deps import database_url
from stallscope.findings.tasks import COMPUTE_TASK
from stallscope.lifecycle import blobs, service
from stallscope.lifecycle.schemas import RetentionReport
from stallscope.worker import enqueue, stallscope_task

log = logging.getLogger(__name__)

RETENTION_TASK = "lifecycle.retention"


def run_retention(url: str, store: BlobStore, now: datetime | None = None) -> RetentionReport:
    """One run: everything the policy removes goes in one transaction; the blobs after it."""
    started = time.time()
    with get_session_factory(url)() as session:
        trashed, purged = service.apply_retention(session, now or datetime.now(UTC))
        session.commit()
        removed = blobs.remove_unreferenced(session, store, purged.shas, started)
    for incident_id in sorted({incident for _, incident in trashed}):
        enqueue(COMPUTE_TASK, incident_id)  # their findings no longer count what went to the trash
    report = RetentionReport(
        trashed_captures=[capture for capture, _ in trashed],
        purged_incidents=purged.incident_ids,
        purged_captures=purged.capture_ids,
        removed_blobs=removed,
    )
    if trashed or purged.incident_ids or purged.capture_ids:
        log.info("retention: %s", report.model_dump_json())
    return report


@stallscope_task(RETENTION_TASK)
def retention() -> None:
    settings = get_settings()
    run_retention(database_url(settings), blob_store(settings))
