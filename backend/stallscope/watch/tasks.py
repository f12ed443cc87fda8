"""Celery tasks of watch mode: an alert's webhooks, tried until they answer or the tries run out."""

from __future__ import annotations

from stallscope.config import get_settings
from stallscope.db import get_session_factory
from stallscope.deps import database_url
from stallscope.watch import delivery
from stallscope.worker import enqueue, stallscope_task

DELIVER_TASK = "watch.deliver"


def send_alert(alert_id: int) -> None:
    """Queue the alert's first delivery try."""
    enqueue(DELIVER_TASK, alert_id, 0)


@stallscope_task(DELIVER_TASK)
def deliver(alert_id: int, attempt: int) -> None:
    settings = get_settings()
    with get_session_factory(database_url(settings))() as session:
        again = delivery.deliver(session, alert_id, settings.console_url, attempt)
        session.commit()
    if again:
        enqueue(DELIVER_TASK, alert_id, attempt + 1, countdown=delivery.RETRY_DELAYS_S[attempt])
