"""What `/api/health` checks: the database answers, the broker answers, a worker is alive.

Each check is short and bounded (a few seconds at most), so a health probe never hangs on a part
that is down: it reports it.
"""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

from stallscope.db import libpq_url
from stallscope.exposition.queue_state import QueueState, queue_state
from stallscope.worker import waiting_messages

CONNECT_TIMEOUT_S = 2
WORKER_SILENT_AFTER_S = 30
"""Three missed worker heartbeats (every 10 s): the worker is counted as gone."""


@dataclass(frozen=True, slots=True)
class Check:
    ok: bool
    detail: str
    count: int | None = None
    """What the check counted, where it counts something (the broker: messages waiting)."""


def check_database(database_url: str) -> Check:
    try:
        with psycopg.connect(libpq_url(database_url), connect_timeout=CONNECT_TIMEOUT_S) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return Check(False, f"unreachable: {_first_line(exc)}")
    return Check(True, "answering")


def check_broker() -> Check:
    try:
        waiting = waiting_messages()
    except Exception as exc:  # kombu and its transports raise a variety
        return Check(False, f"unreachable: {_first_line(exc)}")
    return Check(True, f"{waiting} parse messages waiting", waiting)


def read_queue(database_url: str, broker_messages: int | None) -> QueueState:
    with psycopg.connect(libpq_url(database_url), connect_timeout=CONNECT_TIMEOUT_S, autocommit=True) as conn:
        return queue_state(conn, broker_messages)


def check_workers(database_url: str) -> Check:
    try:
        with psycopg.connect(libpq_url(database_url), connect_timeout=CONNECT_TIMEOUT_S) as conn:
            row = conn.execute(
                "SELECT count(*), extract(epoch FROM now() - max(seen_at)) FROM worker_heartbeats "
                f"WHERE seen_at > now() - interval '{WORKER_SILENT_AFTER_S} seconds'"
            ).fetchone()
    except psycopg.Error as exc:
        return Check(False, f"unknown: the database is unreachable ({_first_line(exc)})")
    alive = int(row[0]) if row else 0
    if alive == 0:
        return Check(False, f"no parse worker has reported in the last {WORKER_SILENT_AFTER_S} s")
    return Check(True, f"{alive} alive, last heartbeat {float(row[1] if row else 0):.0f} s ago")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]
