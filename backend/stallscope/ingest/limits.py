"""Per-capture bounds, so that no capture can take a worker past its memory.

Each bound caps something a parse keeps per distinct thing it has seen (stacks, series) or lets grow
with the input (stack depth, events, warnings). Past a bound the parse goes on, cuts what is over, and
the capture ends `partial` with one warning per bound reached, naming its setting. What is cut is
counted, never kept: tallying it costs the same whatever was cut.
"""

from __future__ import annotations

from dataclasses import dataclass

from stallscope.config import Settings, get_settings


@dataclass(frozen=True, slots=True)
class CaptureLimits:
    distinct_stacks: int
    stack_depth: int
    metric_series: int
    events: int
    warnings: int

    @classmethod
    def from_settings(cls, settings: Settings | None = None) -> CaptureLimits:
        settings = settings or get_settings()
        return cls(
            distinct_stacks=settings.max_distinct_stacks,
            stack_depth=settings.max_stack_depth,
            metric_series=settings.max_metric_series,
            events=settings.max_events,
            warnings=settings.max_warnings,
        )


def setting_name(field: str) -> str:
    """The environment variable that sets `field`, as people set it (`STALLSCOPE_MAX_EVENTS`)."""
    prefix = str(Settings.model_config.get("env_prefix", ""))
    return f"{prefix}{field}".upper()


@dataclass(slots=True)
class Cut:
    """What one bound cut: how many records, and the line of the first."""

    records: int = 0
    first_line: int = 0

    def add(self, line: int, records: int = 1) -> None:
        if not self.records:
            self.first_line = line
        self.records += records
