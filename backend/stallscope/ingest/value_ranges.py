"""The ranges numbers read from a capture must fall in to be kept: what the stores' columns hold.

A number past its column's range (a flipped digit in a pid, a count thirty digits long) would fail
the whole capture when its batch is written, or sooner, in `int()` itself, which refuses text of more
than 4,300 digits. An importer drops such a line with a warning instead, as it drops any other line
it cannot read. The text importers do it in their patterns, by the digits they accept: ids 9 digits
(32-bit columns), CPUs 4 (16-bit), weights 18 and durations in nanoseconds 18 (64-bit), times up to
`MAX_TIME_NS` in their unit; the others check the value with the functions here.
"""

from __future__ import annotations

INT64_MAX = (1 << 63) - 1
"""Sample weights and durations in nanoseconds."""
INT64_DIGITS = len(str(INT64_MAX))

MIN_TIME_NS = -(10**19)
MAX_TIME_NS = 10**20
"""Times (epoch nanoseconds, or a capture clock's) outside these, 1653 and 5138 as epoch times, are
not times: 10**11 s, the largest epoch seconds the metrics importers take, is the upper one. Within
them a time is a date even after a clock offset of centuries (a date stops at the year 9999)."""
MAX_TIME_DIGITS = len(str(MAX_TIME_NS))


def fits_int64(value: int) -> bool:
    return -INT64_MAX - 1 <= value <= INT64_MAX


def fits_time(time_ns: int) -> bool:
    return MIN_TIME_NS <= time_ns <= MAX_TIME_NS
