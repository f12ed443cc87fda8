"""The worker's side of health: a heartbeat row while it lives, and an exit when its console dies.

`/api/health` reads the rows to tell whether any worker is alive (an API started with `--no-worker`
has no child to look at). A worker that `serve` started also watches its parent: when the console
is killed outright, the worker stops instead of parsing on for a console that no longer exists, and
the next `serve` starts a fresh one.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import time
from datetime import UTC, datetime

from stallscope.kit.background import ResilientConnection, Ticker

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_S = 10.0
PARENT_CHECK_INTERVAL_S = 1.0
SUPERVISOR_PID_VARIABLE = "STALLSCOPE_SUPERVISOR_PID"
"""Set by `serve` for the worker it starts: the pid whose death should stop the worker."""

UPSERT = """
    INSERT INTO worker_heartbeats (name, hostname, pid, concurrency, started_at, seen_at)
    VALUES (%(name)s, %(hostname)s, %(pid)s, %(concurrency)s, %(started_at)s, now())
    ON CONFLICT (name) DO UPDATE SET seen_at = now(), concurrency = EXCLUDED.concurrency
"""


class WorkerHeartbeat:
    """A daemon thread in the worker's main process; `stop` removes the row on a clean exit."""

    def __init__(self, database_url: str, concurrency: int) -> None:
        self._conn = ResilientConnection(database_url, "worker heartbeat")
        self._hostname = socket.gethostname()
        self._pid = os.getpid()
        self.name = f"{self._hostname}:{self._pid}"
        self._concurrency = concurrency
        self._started_at = datetime.now(UTC)
        supervisor = os.environ.get(SUPERVISOR_PID_VARIABLE)
        self._supervisor_pid = int(supervisor) if supervisor and supervisor.isdigit() else None
        self._next_beat = 0.0
        self._ticker = Ticker("worker-heartbeat", PARENT_CHECK_INTERVAL_S, self._tick)

    def start(self) -> None:
        self._ticker.start()

    def stop(self) -> None:
        self._ticker.stop(HEARTBEAT_INTERVAL_S)
        if not self._conn.execute("DELETE FROM worker_heartbeats WHERE name = %s", (self.name,)):
            log.info("worker heartbeat row not removed; it ages out")
        self._conn.close()

    def _tick(self) -> None:
        if self._supervisor_gone():
            log.warning(
                "the console that started this worker (pid %s) is gone; stopping", self._supervisor_pid
            )
            self._supervisor_pid = None  # once
            os.kill(os.getpid(), signal.SIGTERM)
            return
        if time.monotonic() >= self._next_beat:
            self._next_beat = time.monotonic() + HEARTBEAT_INTERVAL_S
            self._conn.execute(UPSERT, self._row())

    def _supervisor_gone(self) -> bool:
        return self._supervisor_pid is not None and os.getppid() != self._supervisor_pid

    def _row(self) -> dict[str, object]:
        return {
            "name": self.name,
            "hostname": self._hostname,
            "pid": self._pid,
            "concurrency": self._concurrency,
            "started_at": self._started_at,
        }
