"""A worker's claim on one parse attempt, and the heartbeat that says the claim is still alive.

Parse messages can arrive twice (a broker redelivers what a dead worker held; the console re-sends
what it believes lost), so a worker parses only after it has claimed the capture: the message's
attempt must still be the capture's latest, and the capture must be waiting (or held by a worker
whose heartbeat has stopped). While it parses, a thread of its own touches the heartbeat, so a long
SQL statement never makes a live parse look dead, and a dead process stops touching at once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import psycopg

from stallscope.kit.background import ResilientConnection, Ticker

log = logging.getLogger(__name__)

Conn = psycopg.Connection[tuple[Any, ...]]

HEARTBEATS_PER_TIMEOUT = 6
"""A parse looks stalled only after this many heartbeats in a row went missing."""


@dataclass(frozen=True, slots=True)
class ClaimedCapture:
    """What the parse job needs of the capture it has claimed."""

    attempt: int
    sha256: str
    filename: str
    forced_format: str | None
    size_bytes: int
    clock: dict[str, Any]


CLAIM = """
    UPDATE captures
    SET status = 'parsing', progress = 0, error = NULL, parse_heartbeat_at = now()
    WHERE id = %(id)s
      AND (%(attempt)s::int IS NULL OR parse_attempt = %(attempt)s)
      AND (status = 'queued'
           OR (status = 'parsing' AND parse_heartbeat_at < now() - make_interval(secs => %(stale_s)s)))
    RETURNING parse_attempt, sha256, filename, format, size_bytes, clock
"""


def claim_capture(
    conn: Conn, capture_id: int, attempt: int | None, stale_after_s: float
) -> ClaimedCapture | None:
    """Take the capture for this attempt, or None when the message is stale or already handled.

    `attempt` is None for messages queued before attempts existed: they claim whatever waits. A
    capture another worker holds is taken over only once that worker's heartbeat is `stale_after_s`
    old (a broker redelivering the message of a worker that died).
    """
    row = conn.execute(CLAIM, {"id": capture_id, "attempt": attempt, "stale_s": stale_after_s}).fetchone()
    if row is None:
        return None
    claimed_attempt, sha256, filename, forced_format, size_bytes, clock = row
    return ClaimedCapture(claimed_attempt, sha256, filename, forced_format, size_bytes, clock)


TOUCH = """
    UPDATE captures SET parse_heartbeat_at = clock_timestamp()
    WHERE id = %s AND parse_attempt = %s AND status = 'parsing'
"""
"""`clock_timestamp()`, not `now()`: a touch waits for the parse's own transaction while it holds the
row (its steps run after it writes the row), and `now()` is when the touch began waiting. Seconds of
steps then left a heartbeat already stale when the transaction committed, and the recovery queued
a live parse again."""


class ParseHeartbeat:
    """Touches the capture's heartbeat while the `with` block runs, several times per stall timeout.

    While the database is away the touches fail and the parse will find out too; they keep being
    tried, so a parse still alive when the database comes back resumes before it looks stale.
    """

    def __init__(self, database_url: str, capture_id: int, attempt: int, stall_timeout_s: float) -> None:
        interval_s = stall_timeout_s / HEARTBEATS_PER_TIMEOUT
        self._conn = ResilientConnection(database_url, f"parse heartbeat of capture {capture_id}")
        self._params = (capture_id, attempt)
        self._ticker = Ticker(f"parse-heartbeat-{capture_id}", interval_s, self._touch)

    def __enter__(self) -> ParseHeartbeat:
        self._ticker.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._ticker.stop()
        self._conn.close()

    def _touch(self) -> None:
        self._conn.execute(TOUCH, self._params)
