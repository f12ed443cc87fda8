"""Probes asked once: a watch plans every round the same way, and each probe is a `perf record`."""

from __future__ import annotations

from typing import Sequence

from stallscope_collect.perf.probe import PerfProber
from stallscope_collect.perf.tool import Perf


class CachedProber(PerfProber):
    """Remembers perf's answers, so only the first round's plan runs probes.

    The questions (events and clock, tracepoint names) name no file, so an answer holds for every
    round; `commands` lists only the probes that actually ran.
    """

    def __init__(self, perf: Perf, workdir: str) -> None:
        super().__init__(perf, workdir)
        self._records: dict[tuple[tuple[str, ...], str | None], tuple[bool, str]] = {}
        self._tracepoints: dict[str, bool] = {}

    def record_ok(self, args: Sequence[str], clock: str | None) -> tuple[bool, str]:
        key = (tuple(args), clock)
        if key not in self._records:
            self._records[key] = super().record_ok(args, clock)
        return self._records[key]

    def tracepoint_exists(self, name: str) -> bool:
        if name not in self._tracepoints:
            self._tracepoints[name] = super().tracepoint_exists(name)
        return self._tracepoints[name]
