"""How far behind parsing is: what waits in the broker and in the database, and for how long.

An upload storm shows here first: uploads are taken in seconds, parses queue up behind the workers,
and the oldest queued capture's age is the lag an engineer sees before a flame graph appears.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg

from stallscope.worker import waiting_messages

QUEUE = """
    SELECT count(*) FILTER (WHERE status = 'queued'),
           count(*) FILTER (WHERE status = 'parsing'),
           extract(epoch FROM now() - min(coalesce(queued_at, created_at)) FILTER (WHERE status = 'queued'))
    FROM captures WHERE status IN ('queued', 'parsing') AND deleted_at IS NULL
"""


@dataclass(frozen=True, slots=True)
class QueueState:
    queued: int
    """Captures waiting for a worker."""
    parsing: int
    oldest_queued_s: float | None
    """How long the capture queued longest has waited: the parse lag."""
    broker_messages: int | None
    """Parse messages waiting in the broker; None when it could not be asked."""


def queue_state(conn: psycopg.Connection[tuple[Any, ...]], broker_messages: int | None) -> QueueState:
    row = conn.execute(QUEUE).fetchone()
    queued, parsing, oldest = row if row is not None else (0, 0, None)
    return QueueState(int(queued), int(parsing), None if oldest is None else float(oldest), broker_messages)


def broker_messages() -> int | None:
    """Parse messages waiting in the broker, or None when it cannot be asked (health says why)."""
    try:
        return waiting_messages()
    except Exception:  # kombu and its transports raise a variety
        return None
