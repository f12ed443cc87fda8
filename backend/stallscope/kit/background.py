"""Background beats: a daemon thread ticking at an interval, and a connection that outlives outages.

Supervision, maintenance and both heartbeats are "do this every N seconds until told to stop" and
must keep going through a database restart, which is exactly when they matter.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import psycopg

from stallscope.db import libpq_url

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 5


class Ticker:
    """Calls `tick` every `interval_s` on a daemon thread until `stop`; `tick` must not raise."""

    def __init__(self, name: str, interval_s: float, tick: Callable[[], None]) -> None:
        self._interval_s = interval_s
        self._tick = tick
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def halt(self) -> None:
        """No tick starts from now on; one in progress ends by itself (`stop` waits for it)."""
        self._stop.set()

    def stop(self, timeout_s: float = 10.0) -> bool:
        """Halt and wait for the thread; False when a tick still runs after `timeout_s`."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout_s)
        return not self._thread.is_alive()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def _run(self) -> None:
        while not self._stop.wait(self._interval_s):
            self._tick()


class ResilientConnection:
    """An autocommit connection opened on first use and opened again after the database went away."""

    def __init__(self, database_url: str, purpose: str) -> None:
        self._url = libpq_url(database_url)
        self._purpose = purpose
        self._conn: psycopg.Connection[tuple[Any, ...]] | None = None

    def execute(self, sql: str, params: dict[str, object] | tuple[object, ...]) -> bool:
        """Run one statement; False (logged) when the database could not be reached."""
        try:
            if self._conn is None or self._conn.closed:
                self._conn = psycopg.connect(self._url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
            self._conn.execute(sql, params)
        except psycopg.Error as exc:
            log.warning("%s missed: %s", self._purpose, str(exc).strip().splitlines()[0] if str(exc) else exc)
            self.close()
            return False
        return True

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
