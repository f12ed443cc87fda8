"""Celery tasks for captures: ids in, the parse job called, nothing else."""

from __future__ import annotations

from stallscope.captures.parsing import parse_capture
from stallscope.config import get_settings
from stallscope.deps import database_url
from stallscope.worker import stallscope_task


@stallscope_task("captures.parse")
def parse(capture_id: int, attempt: int | None = None) -> None:
    """`attempt` is absent from messages queued before attempts existed."""
    parse_capture(database_url(get_settings()), capture_id, attempt)
