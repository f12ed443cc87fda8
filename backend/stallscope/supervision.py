"""Keep `serve`'s parts alive: a worker or embedded database that dies is started again.

Without this a worker killed by the OOM killer left every later upload `queued` while the console
looked healthy. Restarts back off (1 s, 2 s, 4 s … 30 s) so a part that dies at once on every start
does not spin, and the back-off resets once a part has stayed up for a minute. Every death and
restart is logged with its reason.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping

from stallscope.embedded import EmbeddedPostgres
from stallscope.health.heartbeat import SUPERVISOR_PID_VARIABLE
from stallscope.kit.background import Ticker

log = logging.getLogger(__name__)

FIRST_DELAY_S = 1.0
MAX_DELAY_S = 30.0
STABLE_AFTER_S = 60.0
CHECK_INTERVAL_S = 0.5
WORKER_STOP_TIMEOUT_S = 30


class Backoff:
    """Delay before the next restart: doubles per quick death, resets after a stable run."""

    def __init__(self) -> None:
        self._delay = FIRST_DELAY_S

    def next_delay(self, uptime_s: float) -> float:
        if uptime_s >= STABLE_AFTER_S:
            self._delay = FIRST_DELAY_S
        delay = self._delay
        self._delay = min(self._delay * 2, MAX_DELAY_S)
        return delay


class SupervisedPart(ABC):
    """One part `serve` keeps alive; `check` is called from the supervisor's thread."""

    name = "part"

    def __init__(self) -> None:
        self._backoff = Backoff()
        self._started = time.monotonic()
        self._restart_at: float | None = None

    @abstractmethod
    def alive(self) -> bool: ...

    @abstractmethod
    def start(self) -> None: ...

    def describe_death(self) -> str:
        return "it stopped"

    def check(self, now: float) -> None:
        if self._restart_at is None:
            if self.alive():
                return
            delay = self._backoff.next_delay(now - self._started)
            log.warning("%s: %s; starting it again in %.0f s", self.name, self.describe_death(), delay)
            self._restart_at = now + delay
            return
        if now < self._restart_at:
            return
        try:
            self.start()
        except Exception as exc:
            delay = self._backoff.next_delay(0.0)
            log.error("%s did not start (%s); trying again in %.0f s", self.name, exc, delay)
            self._restart_at = now + delay
            return
        log.warning("%s started again", self.name)
        self._started = now
        self._restart_at = None


class WorkerProcess(SupervisedPart):
    """The Celery worker as a child process of `serve`."""

    name = "parse worker"

    def __init__(self, env: Mapping[str, str], concurrency: int) -> None:
        super().__init__()
        self._env = {**env, SUPERVISOR_PID_VARIABLE: str(os.getpid())}
        self._command = [sys.executable, "-m", "stallscope", "worker", "--concurrency", str(concurrency)]
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(self._command, env=self._env)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def describe_death(self) -> str:
        code = self.process.returncode if self.process is not None else None
        if code is not None and code < 0:
            return (
                f"pid {self.process.pid if self.process else '?'} was killed by {signal.Signals(-code).name}"
            )
        return f"it exited with status {code}"

    def stop(self) -> None:
        process = self.process
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(WORKER_STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            log.warning("worker did not stop within %ss; killing it", WORKER_STOP_TIMEOUT_S)
            process.kill()
            process.wait()


class EmbeddedDatabase(SupervisedPart):
    """The embedded PostgreSQL server (its own daemon, not a child: it outlives a crashed console)."""

    name = "embedded PostgreSQL"

    def __init__(self, server: EmbeddedPostgres) -> None:
        super().__init__()
        self._server = server

    def alive(self) -> bool:
        return self._server.is_running()

    def start(self) -> None:
        self._server.start_again()


class Supervisor:
    """Checks each part twice a second, on a thread of its own."""

    def __init__(self, parts: list[SupervisedPart]) -> None:
        self._parts = parts
        self._ticker = Ticker("supervisor", CHECK_INTERVAL_S, self._check)

    def start(self) -> None:
        self._ticker.start()

    def stop(self) -> None:
        self._ticker.stop(5)

    def _check(self) -> None:
        for part in self._parts:
            try:
                part.check(time.monotonic())
            except Exception:
                log.exception("checking %s failed", part.name)
