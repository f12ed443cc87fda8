"""Sending an alert to its webhooks, and what to do when one does not answer.

Each (alert, webhook) pair is a delivery row: `pending` until a receiver answers 2xx (`sent`), or
until it refuses for good or the tries run out (`failed`, with the last error kept for the watch
page). A receiver that is down, answers 5xx or 429 is tried again later, the waits growing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime

import httpx
from sqlalchemy.orm import Session

from stallscope.watch import payloads, repository

log = logging.getLogger(__name__)

TIMEOUT_S = 10.0
RETRY_DELAYS_S = (10.0, 60.0, 300.0, 900.0)
"""Waits before each further try: a receiver restarting, then one down for a quarter of an hour."""
ERROR_CHARS = 500


@dataclass(frozen=True, slots=True)
class Outcome:
    sent: bool
    retry: bool
    error: str


def post(url: str, body: object) -> Outcome:
    """One try: 2xx is sent; 429, 5xx and connection failures may pass later; other answers will not."""
    try:
        response = httpx.post(url, json=body, timeout=TIMEOUT_S, follow_redirects=False)
    except httpx.HTTPError as exc:
        return Outcome(False, True, f"{type(exc).__name__}: {exc}"[:ERROR_CHARS])
    if response.is_success:
        return Outcome(True, False, "")
    text = response.text.strip().replace("\n", " ")
    error = f"HTTP {response.status_code}: {text}"[:ERROR_CHARS]
    return Outcome(False, response.status_code == 429 or response.status_code >= 500, error)


def deliver(session: Session, alert_id: int, console: str, attempt: int) -> bool:
    """Try every pending delivery of the alert once; True when some should be tried again."""
    alert = repository.alert_view(session, alert_id)
    if alert is None:
        return False
    again = False
    for delivery in repository.pending_deliveries(session, alert_id):
        outcome = post(delivery["url"], payloads.body(delivery["format"], alert, console))
        last_try = attempt >= len(RETRY_DELAYS_S)
        if outcome.sent:
            status = "sent"
        elif outcome.retry and not last_try:
            status, again = "pending", True
        else:
            status = "failed"
        if not outcome.sent:
            log.warning("alert %s to webhook %r: %s (%s)", alert_id, delivery["name"], outcome.error, status)
        sent_at = datetime.now(UTC) if outcome.sent else None
        repository.record_delivery(session, alert_id, delivery["webhook_id"], status, outcome.error, sent_at)
    return again
