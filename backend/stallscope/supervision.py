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
import threading
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
    """The Celery worker as a child process of `serve`, in a process group of its own.

    Its own group: a Ctrl-C at the terminal reaches `serve` alone, which then stops the worker in
    its order (`console_stop`), and a last-resort kill takes the worker's pool processes with it.
    """

    name = "parse worker"

    def __init__(self, env: Mapping[str, str], concurrency: int, quiet: bool = False) -> None:
        super().__init__()
        self._env = {**env, SUPERVISOR_PID_VARIABLE: str(os.getpid())}
        self._command = [sys.executable, "-m", "stallscope", "worker", "--concurrency", str(concurrency)]
        if quiet:
            self._command.append("--quiet")
        self._lock = threading.Lock()
        self._stopping = False
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        with self._lock:
            if self._stopping:  # the supervisor's last check raced the stop: stay stopped
                return
            self.process = subprocess.Popen(self._command, env=self._env, start_new_session=True)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def check(self, now: float) -> None:
        if not self._stopping:
            super().check(now)

    def signal(self, sig: signal.Signals) -> bool:
        """Send `sig` to the worker (from now on it is never started again); False when it is gone.

        SIGTERM: finish the running parse, then exit. SIGQUIT: cut the parse short (its message
        goes back to the queue) and exit. SIGKILL goes to the whole group, pool processes too."""
        with self._lock:
            self._stopping = True
            process = self.process
            if process is None or process.poll() is not None:
                return False
            try:
                if sig is signal.SIGKILL:
                    os.killpg(process.pid, sig)
                else:
                    process.send_signal(sig)
            except ProcessLookupError:
                return False
            return True

    def wait(self, timeout_s: float) -> bool:
        """Whether the worker exited within `timeout_s`."""
        process = self.process
        if process is None:
            return True
        try:
            process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            return False
        return True

    def describe_death(self) -> str:
        code = self.process.returncode if self.process is not None else None
        if code is not None and code < 0:
            return (
                f"pid {self.process.pid if self.process else '?'} was killed by {signal.Signals(-code).name}"
            )
        return f"it exited with status {code}"


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

    def halt(self) -> None:
        """Start no part again from now on (a part stopped on purpose is not a part that died)."""
        self._ticker.halt()

    def stop(self, timeout_s: float = 5) -> bool:
        """Halt, and wait for a check in progress (it may be starting a part) to end; False when it
        has not ended after `timeout_s`."""
        return self._ticker.stop(timeout_s)

    def _check(self) -> None:
        for part in self._parts:
            if self._ticker.stopping:
                return
            try:
                part.check(time.monotonic())
            except Exception:
                log.exception("checking %s failed", part.name)
