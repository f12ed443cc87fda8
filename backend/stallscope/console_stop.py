"""How `serve` stops: every part at once, each wait bounded, and a line saying what it waits for.

It used to stop its parts one after another once the API was down (the worker's warm shutdown alone
takes 4 to 7 s idle), saying nothing for up to 30 s while a parse ran, and a worker that exited on
the terminal's Ctrl-C before the supervisor stopped was started again. Now the first Ctrl-C (or
SIGTERM) halts the supervisor and maintenance, asks the worker to finish its parse and exit, and
stops the API, all at once; `finish` then waits for each in turn and stops the embedded PostgreSQL
last. A parse still running after `STALLSCOPE_STOP_GRACE_S` (10 s) is cut short: its message goes
back to the queue and the next start parses it again. A second Ctrl-C cuts it short at once.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType

import uvicorn

from stallscope.console_log import CONSOLE_LOGGER
from stallscope.datadir_lock import DataDirLock
from stallscope.embedded import EmbeddedPostgres
from stallscope.maintenance.loop import MaintenanceLoop
from stallscope.supervision import Supervisor, WorkerProcess

log = logging.getLogger(CONSOLE_LOGGER)

WORKER_CUT_S = 10.0
"""How long a worker told to cut its parse short may take before it is killed."""
PART_WAIT_S = 5.0
"""The supervisor's and the maintenance jobs' bound: a check or a job in progress ends by itself."""
API_GRACE_S = 5
"""Requests in flight at a stop get this long to finish (uvicorn waits for them forever otherwise)."""
POLL_S = 0.2
SAY_EVERY_S = 5.0
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class ConsoleStop:
    """`begin` from the first signal (quick, never blocks); `finish` once the API has returned."""

    def __init__(
        self,
        supervisor: Supervisor,
        maintenance: MaintenanceLoop,
        worker: WorkerProcess | None,
        database: EmbeddedPostgres | None,
        lock: DataDirLock,
        grace_s: float,
    ) -> None:
        self._grace_s = grace_s
        self._supervisor = supervisor
        self._maintenance = maintenance
        self._worker = worker
        self._database = database
        self._lock = lock
        self._begun = False
        self._hurry = threading.Event()
        self._started = time.monotonic()

    def begin(self) -> None:
        """Stop restarting parts and starting jobs, and ask the worker to finish and exit; a second
        call (a second Ctrl-C while the API stops) cuts a running parse short at once."""
        if self._begun:
            self._hurry.set()
            return
        self._begin()

    def _begin(self) -> None:
        self._begun = True
        self._started = time.monotonic()
        parts = ["the API", "maintenance jobs"]
        parts += ["the parse worker"] if self._worker is not None else []
        parts += ["the embedded PostgreSQL"] if self._database is not None else []
        log.info("stopping %s and %s", ", ".join(parts[:-1]), parts[-1])
        self._supervisor.halt()
        self._maintenance.halt()
        if self._worker is not None:
            self._worker.signal(signal.SIGTERM)

    def finish(self) -> None:
        """Wait for each part in turn (bounded, saying what for), stop the database, free the lock."""
        with _signals_hurry(self._hurry):
            if not self._begun:  # the API stopped by itself (it could not listen, say)
                self._begin()
            self._wait_background()
            self._stop_worker()
            self._stop_database()
        self._lock.release()
        log.info("stopped in %.1f s", time.monotonic() - self._started)

    def _wait_background(self) -> None:
        if not self._supervisor.stop(PART_WAIT_S):
            log.warning("the supervisor's check did not end within %.0f s; going on", PART_WAIT_S)
        job = self._maintenance.running
        if job is not None:
            log.info("waiting for the maintenance job %r to end (up to %.0f s)", job, PART_WAIT_S)
        if not self._maintenance.stop(PART_WAIT_S):
            log.warning("the maintenance job %r did not end within %.0f s; going on", job, PART_WAIT_S)

    def _stop_worker(self) -> None:
        worker = self._worker
        if worker is None or worker.process is None or worker.wait(0):
            return
        pid = worker.process.pid
        log.info(
            "waiting for the parse worker (pid %s) to exit; a parse it is running gets %.0f s to finish",
            pid,
            self._grace_s,
        )
        waited_from = time.monotonic()
        if self._wait_for(worker, self._grace_s, "the parse worker to exit"):
            return
        log.warning(
            "the parse worker (pid %s) has not exited after %.0f s: cutting its parse short; the next "
            "start parses it again",
            pid,
            time.monotonic() - waited_from,
        )
        worker.signal(signal.SIGQUIT)
        self._hurry.clear()
        if self._wait_for(worker, WORKER_CUT_S, "the parse worker to cut its parse short"):
            return
        log.warning("the parse worker (pid %s) did not exit: killing it", pid)
        worker.signal(signal.SIGKILL)
        worker.wait(PART_WAIT_S)

    def _wait_for(self, worker: WorkerProcess, limit_s: float, what: str) -> bool:
        """Whether the worker exited within `limit_s` (less after a second Ctrl-C), saying so meanwhile."""
        started = time.monotonic()
        said = started
        while not worker.wait(POLL_S):
            now = time.monotonic()
            if self._hurry.is_set() or now - started >= limit_s:
                return False
            if now - said >= SAY_EVERY_S:
                log.info("still waiting for %s (%.0f s so far)", what, now - started)
                said = now
        return True

    def _stop_database(self) -> None:
        if self._database is None:
            return
        log.info("stopping the embedded PostgreSQL")
        self._database.stop()


@contextlib.contextmanager
def _signals_hurry(hurry: threading.Event) -> Iterator[None]:
    """While stopping, Ctrl-C and SIGTERM hurry the stop instead of abandoning it half done."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def hurry_up(sig: int, frame: FrameType | None) -> None:
        log.info("hurrying: a running parse is cut short now")
        hurry.set()

    originals = {sig: signal.signal(sig, hurry_up) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in originals.items():
            signal.signal(sig, handler)


class ConsoleServer(uvicorn.Server):
    """uvicorn's server, whose stop signal also starts stopping the other parts (`on_stop`), and
    which says when it listens (`on_started`).

    uvicorn re-raises the signal it caught once it has shut down; for SIGTERM that kills the process
    before the worker and the database are stopped, so this server handles the signals itself.
    """

    def __init__(
        self, config: uvicorn.Config, on_stop: Callable[[], None], on_started: Callable[[], None]
    ) -> None:
        super().__init__(config)
        self._on_stop = on_stop
        self._on_started = on_started

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:  # listening: now "Stallscope is at …" is true
            self._on_started()

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        originals = {sig: signal.signal(sig, self.handle_exit) for sig in STOP_SIGNALS}
        try:
            yield
        finally:
            for sig, handler in originals.items():
                signal.signal(sig, handler)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self._on_stop()
        super().handle_exit(sig, frame)
