"""Celery tasks for findings: an incident id in, its findings recomputed from the stored digests."""

from __future__ import annotations

from stallscope.config import get_settings
from stallscope.db import get_session_factory
from stallscope.deps import database_url
from stallscope.findings import service
from stallscope.worker import stallscope_task

COMPUTE_TASK = "findings.compute"


@stallscope_task(COMPUTE_TASK)
def compute(incident_id: int) -> None:
    with get_session_factory(database_url(get_settings()))() as session:
        service.compute(session, incident_id)
        session.commit()
