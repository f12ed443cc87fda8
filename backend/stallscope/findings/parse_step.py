"""The findings' part of the parse, its last step before the capture turns ready: the capture's
digest, then its incident's findings with it (`service.after_parse`; it never raises)."""

from __future__ import annotations

from stallscope.captures.parse_steps import Committed, ParseStep
from stallscope.db import get_session_factory
from stallscope.findings.service import after_parse


def _find(committed: Committed) -> None:
    after_parse(get_session_factory(committed.database_url), committed.capture_id)


PARSE_STEP = ParseStep(name="findings", tables=("capture_digests",), after_commit=_find)
