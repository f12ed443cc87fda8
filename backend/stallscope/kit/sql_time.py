"""Where in its second a timestamp falls, in SQL: the one expression every sub-second view uses.

The heatmap puts a record in a row by its offset within the second, and the flame graph's `within`
filter keeps records by the same offset; both read it from here, so the cells a person selects are
exactly the records a flame graph of them counts.
"""

from __future__ import annotations

US_PER_SECOND = 1_000_000


def second_of(column: str) -> str:
    """Whole seconds since the epoch (floor, so right before 1970 too)."""
    return f"floor(extract(epoch FROM {column}))::bigint"


def offset_us_of(column: str) -> str:
    """Microseconds since the start of the timestamp's second, 0 to 999,999."""
    return f"(extract(microseconds FROM {column})::bigint % {US_PER_SECOND})"
