"""Watch mode's part of the parse: signatures checked on a watch capture once its findings (and its
digest) are stored, and new alerts queued for their webhooks (`alerting.after_parse`)."""

from __future__ import annotations

from stallscope.captures.parse_steps import Committed, ParseStep
from stallscope.db import get_session_factory
from stallscope.watch.alerting import after_parse
from stallscope.watch.tasks import send_alert


def _check(committed: Committed) -> None:
    after_parse(get_session_factory(committed.database_url), committed.capture_id, send_alert)


PARSE_STEP = ParseStep(name="signatures", after_commit=_check)
