"""Events the tracer itself says it lost, counted per CPU, for one summary warning per capture.

A full ring buffer costs events, and the tools say so in their output: `CPU:1 [LOST 12 EVENTS]`
(ftrace, trace-cmd), `comm 12 [001] 3.5: PERF_RECORD_LOST lost 190` (`perf script
--show-lost-events`), `LOST 12 events!` (perf trace, which names no CPU). Those lines are not
records, nor damage: the capture is whole, but the trace has gaps, and whoever reads it must know
how big and where. The importers count them here; `warn_lost` says it once, at the first such line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stallscope.ingest.model import ParseReport

UNKNOWN_CPU = -1
"""The key of events lost on a CPU the line does not name."""


@dataclass(slots=True)
class LostEvents:
    """Lost events by CPU (`UNKNOWN_CPU` when not named), and the line of the first report."""

    by_cpu: dict[int, int] = field(default_factory=dict)
    first_line: int = 0

    def add(self, line: int, cpu: int | None, count: int) -> None:
        key = UNKNOWN_CPU if cpu is None else cpu
        self.by_cpu[key] = self.by_cpu.get(key, 0) + count
        if not self.first_line:
            self.first_line = line

    @property
    def total(self) -> int:
        return sum(self.by_cpu.values())

    def warn_lost(self, report: ParseReport, tracer: str = "the tracer") -> None:
        """One warning with the total and each CPU's share; nothing when none were lost.

        It comes at the end of a parse, when the other warnings may have filled the report: it then
        takes the place of the last one kept, which is counted as suppressed instead. Gaps in the
        trace matter more than one more dropped line.
        """
        if not self.by_cpu:
            return
        if report.max_warnings and len(report.warnings) >= report.max_warnings:
            del report.warnings[report.max_warnings - 1 :]
            report.suppressed_warnings += 1
        where = ""
        if set(self.by_cpu) != {UNKNOWN_CPU}:  # perf trace names no CPU: no breakdown to give
            shares = (
                f"{'CPU ?' if cpu == UNKNOWN_CPU else f'CPU {cpu}'}: {count:,}"
                for cpu, count in sorted(self.by_cpu.items())
            )
            where = f" ({', '.join(shares)})"
        report.warn(
            self.first_line,
            f"{tracer} lost {self.total:,} events{where}: the trace has gaps where its buffers were full",
        )
