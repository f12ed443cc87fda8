"""When rounds start: the first at once, the others on the interval's grid, so they never drift."""

from __future__ import annotations

import math

LATE_START_S = 5.0
"""A round whose slot began less than this long ago (at most a tenth of the interval) still starts,
late; a slot missed by more is skipped, so a slow upload shifts no round after it."""


class Schedule:
    """Slot k starts at `start + k * interval`, wherever the rounds before it ended."""

    def __init__(self, interval_s: float, start: float) -> None:
        self.interval_s = interval_s
        self.start = start

    def slot_time(self, slot: int) -> float:
        return self.start + slot * self.interval_s

    def next_slot(self, after: int, now: float) -> int:
        """The slot to run after slot `after`: the next one, or the first not missed by too much."""
        slot = after + 1
        tolerance = min(LATE_START_S, self.interval_s / 10)
        if now - self.slot_time(slot) <= tolerance:
            return slot
        slot = math.floor((now - self.start) / self.interval_s)
        if now - self.slot_time(slot) > tolerance:
            slot += 1
        return max(slot, after + 1)
