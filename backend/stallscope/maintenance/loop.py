"""Run housekeeping jobs at their intervals on one daemon thread; a failing job never stops the rest."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from stallscope.kit.background import Ticker

log = logging.getLogger(__name__)

TICK_S = 1.0


@dataclass(frozen=True, slots=True)
class Job:
    name: str
    interval_s: float
    run: Callable[[], None]


class MaintenanceLoop:
    """Runs every job once at start, then each at its own interval."""

    def __init__(self, jobs: list[Job]) -> None:
        self._jobs = jobs
        self._due = {job.name: 0.0 for job in jobs}
        self._ticker = Ticker("maintenance", TICK_S, self._tick)
        self.running: str | None = None
        """The job running now, if any: what a stop waits for."""

    def start(self) -> None:
        self._ticker.start()

    def halt(self) -> None:
        """Start no job from now on; one running ends by itself."""
        self._ticker.halt()

    def stop(self, timeout_s: float = 10.0) -> bool:
        """Halt, and wait for a running job; False when it still runs after `timeout_s`."""
        return self._ticker.stop(timeout_s)

    def _tick(self) -> None:
        for job in self._jobs:
            if self._ticker.stopping or time.monotonic() < self._due[job.name]:
                continue
            self.running = job.name
            try:
                job.run()
            except Exception as exc:
                # The database being away is the usual reason; the job runs again next time.
                log.warning("maintenance job %s failed: %s", job.name, exc)
            finally:
                self.running = None
            self._due[job.name] = time.monotonic() + job.interval_s
