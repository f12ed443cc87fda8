"""What a profile's weights are measured in, so the UI never labels nanoseconds as samples."""

from __future__ import annotations

CLOCK_EVENTS = frozenset({"cpu-clock", "task-clock"})


def weight_unit(event: str, has_period: bool) -> str:
    """`ns` for clock events (their period is nanoseconds), `events` for counted periods."""
    if not has_period:
        return "samples"
    if event in CLOCK_EVENTS:
        return "ns"
    return "events"
