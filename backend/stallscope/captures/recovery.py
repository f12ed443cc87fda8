"""Queue again the parses a dead worker or a lost message left behind, and say why.

Two ways a capture gets stuck: its worker died mid-parse (the capture stays `parsing`, its heartbeat
stops), or its message never reached a worker (the worker's main process was killed holding it, the
broker restarted, the broker was down at upload time: the capture stays `queued` while the queue is
empty). Both are found here and queued as a new attempt, so a late copy of the old message is
ignored. Every step is one conditional UPDATE per capture: two consoles running this at once queue
each capture once.

A capture that keeps killing its worker (out of memory, a crash in a native library) would be queued
forever; after `MAX_RECOVERIES` it fails with the reason instead.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import psycopg

from stallscope.captures.parsing import discard_results

log = logging.getLogger(__name__)

Conn = psycopg.Connection[tuple[Any, ...]]

LOST_MESSAGE_AFTER_S = 60.0
"""A capture queued this long while no message waits in the queue has lost its message."""
MAX_RECOVERIES = 3


@dataclass(frozen=True, slots=True)
class Requeued:
    capture_id: int
    attempt: int
    reason: str


STALLED_PARSES = """
    SELECT id, parse_attempt, parse_heartbeat_at FROM captures
    WHERE status = 'parsing'
      AND coalesce(parse_heartbeat_at, queued_at, created_at) < now() - make_interval(secs => %s)
    ORDER BY id
"""
LOST_MESSAGES = f"""
    SELECT id, parse_attempt FROM captures
    WHERE status = 'queued'
      AND coalesce(queued_at, created_at) < now() - interval '{LOST_MESSAGE_AFTER_S} seconds'
    ORDER BY id
"""
REQUEUE = """
    UPDATE captures
    SET status = 'queued', progress = 0, parse_attempt = parse_attempt + 1, queued_at = now(),
        parse_heartbeat_at = NULL, recoveries = recoveries + %(counts)s, recovery_note = %(note)s
    WHERE id = %(id)s AND parse_attempt = %(attempt)s AND status = %(status)s
      AND (status = 'queued' OR coalesce(parse_heartbeat_at, queued_at, created_at)
                                 < now() - make_interval(secs => %(stale_s)s))
    RETURNING parse_attempt
"""
"""Conditional, the heartbeat's age checked again when the row is written: a parse holds its
capture's row while its transaction's steps run (rollups, slices, statistics) and its heartbeat
waits behind that lock; when the parse commits, the waiting heartbeat goes first and this finds it
fresh. Waiting for the lock is bounded (`LOCK_TIMEOUT`): a row held longer is tried next round."""
LOCK_TIMEOUT = "2s"
GIVE_UP = """
    UPDATE captures SET status = 'failed', progress = 0, error = %(error)s, recovery_note = %(error)s,
        parsed_at = now()
    WHERE id = %(id)s AND parse_attempt = %(attempt)s AND status = 'parsing'
      AND coalesce(parse_heartbeat_at, queued_at, created_at) < now() - make_interval(secs => %(stale_s)s)
"""


def find_and_requeue(conn: Conn, *, queue_is_empty: bool, stall_timeout_s: float) -> list[Requeued]:
    """Queue again what is stuck; the caller sends a message for each capture returned.

    `queue_is_empty` says whether the broker holds no waiting parse message: only then can a
    `queued` capture be told apart from one that simply waits its turn behind a long queue. A parse
    whose heartbeat is `stall_timeout_s` old has lost its worker.
    """
    requeued: list[Requeued] = []
    conn.execute(f"SET lock_timeout = '{LOCK_TIMEOUT}'")
    for capture_id, attempt, heartbeat in conn.execute(STALLED_PARSES, (stall_timeout_s,)).fetchall():
        seen = f"last heartbeat {heartbeat:%Y-%m-%d %H:%M:%S} UTC" if heartbeat else "no heartbeat"
        try:
            outcome = _requeue_stalled(conn, capture_id, attempt, seen, stall_timeout_s)
        except psycopg.errors.LockNotAvailable:
            log.info(
                "capture %s: its row is held by a transaction (a parse's steps?); tried again later",
                capture_id,
            )
            continue
        if outcome is not None:
            requeued.append(outcome)
    if queue_is_empty:
        for capture_id, attempt in conn.execute(LOST_MESSAGES).fetchall():
            reason = (
                "its parse message was lost (a worker or the broker stopped while holding it, or the "
                "broker was down when it was queued); queued again"
            )
            row = conn.execute(
                REQUEUE,
                {
                    "id": capture_id,
                    "attempt": attempt,
                    "status": "queued",
                    "counts": 0,
                    "note": reason,
                    "stale_s": 0.0,  # not read for a queued capture
                },
            ).fetchone()
            if row is not None:
                requeued.append(Requeued(capture_id, row[0], reason))
    for item in requeued:
        log.warning("capture %s: %s (attempt %s)", item.capture_id, item.reason, item.attempt)
    return requeued


def _requeue_stalled(
    conn: Conn, capture_id: int, attempt: int, seen: str, stall_timeout_s: float
) -> Requeued | None:
    recoveries = conn.execute("SELECT recoveries FROM captures WHERE id = %s", (capture_id,)).fetchone()
    if recoveries is not None and recoveries[0] + 1 >= MAX_RECOVERIES:
        error = (
            f"the worker parsing this capture stopped {MAX_RECOVERIES} times ({seen}); it may need more "
            "memory than the worker has (see the STALLSCOPE_MAX_* limits), or the parser crashed on it. "
            "Re-parse to try again."
        )
        given_up = {"id": capture_id, "attempt": attempt, "error": error, "stale_s": stall_timeout_s}
        if conn.execute(GIVE_UP, given_up).rowcount:
            discard_results(conn, capture_id)
            log.error("capture %s: %s", capture_id, error)
        return None
    reason = f"the worker parsing it stopped ({seen}); queued again"
    params = {
        "id": capture_id,
        "attempt": attempt,
        "status": "parsing",
        "counts": 1,
        "note": reason,
        "stale_s": stall_timeout_s,
    }
    row = conn.execute(REQUEUE, params).fetchone()
    return Requeued(capture_id, row[0], reason) if row is not None else None
