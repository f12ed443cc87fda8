"""How the postmortem writes instants: UTC ISO 8601, and the offset from the incident's start."""

from __future__ import annotations

from datetime import UTC, datetime


def utc(moment: datetime) -> str:
    """`2026-11-25T20:53:52.123Z`: milliseconds, enough for a timeline people read."""
    at = moment.astimezone(UTC)
    return f"{at:%Y-%m-%dT%H:%M:%S}.{at.microsecond // 1000:03d}Z"


def span(seconds: float) -> str:
    """`2h 03m 04s`, `3m 04.5s`, `4.250s`, `12 ms`: as long as it needs, no longer."""
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.3f}s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{int(minutes)}m {secs:04.1f}s"
    hours, minutes = divmod(int(minutes), 60)
    days, hours = divmod(hours, 24)
    head = f"{days}d {hours}h" if days else f"{hours}h"
    return f"{head} {minutes:02d}m {int(secs):02d}s"


def relative(moment: datetime, start: datetime) -> str:
    """`T+3m 04.5s`, or `T-12.000s` for what came before the start."""
    seconds = (moment - start).total_seconds()
    return f"T{'-' if seconds < 0 else '+'}{span(abs(seconds))}"
