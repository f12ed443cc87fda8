"""The timeline's bucket grid, in integer epoch microseconds (pure: no database, no HTTP).

Widths are "nice" (1, 2 or 5 x 10^n µs) so axis ticks and hover times read as round numbers, and
every bucket starts at a multiple of its width from the Unix epoch: the same grid `date_bin` and
`time_bucket` draw with an epoch origin, so the SQL and this module always agree on bucket edges.
Rollup levels are powers of ten, and every nice width is a whole multiple of the largest level not
wider than it, so a rollup level's buckets nest exactly inside the requested ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
NICE_STEPS = (1, 2, 5)
MIN_BUCKET_US = 1
"""Stored times are microseconds; a narrower bucket could never hold anything different."""


def epoch_us(moment: datetime) -> int:
    """A time-zone-aware instant as integer microseconds since the epoch (exact, no float)."""
    return (moment - EPOCH) // timedelta(microseconds=1)


def from_epoch_us(us: int) -> datetime:
    return EPOCH + timedelta(microseconds=us)


def nice_bucket_us(span_us: int, width_px: int) -> int:
    """The narrowest 1/2/5 x 10^n µs width that covers `span_us` in at most about `width_px` buckets."""
    target = max(MIN_BUCKET_US, -(-max(span_us, 1) // max(width_px, 1)))
    decade = 1
    while True:
        for step in NICE_STEPS:
            if step * decade >= target:
                return step * decade
        decade *= 10


def floor_to(us: int, width_us: int) -> int:
    """Start of the epoch-aligned bucket holding `us` (floor division, right for times before 1970)."""
    return us - us % width_us


def ceil_to(us: int, width_us: int) -> int:
    return -floor_to(-us, width_us)


@dataclass(frozen=True, slots=True)
class Grid:
    """The buckets a request is answered in: `count` buckets of `width_us` from `start_us`."""

    start_us: int
    width_us: int
    count: int

    @property
    def end_us(self) -> int:
        return self.start_us + self.width_us * self.count

    @property
    def start(self) -> datetime:
        return from_epoch_us(self.start_us)

    @property
    def end(self) -> datetime:
        return from_epoch_us(self.end_us)

    def edges_us(self) -> list[int]:
        """Every bucket's start and the last bucket's end: one more edge than buckets."""
        return [self.start_us + i * self.width_us for i in range(self.count + 1)]


def grid_for(start_us: int, end_us: int, width_px: int) -> Grid:
    """Whole buckets covering [start, end): the edges round outwards so no bucket is partial.

    A partial first or last bucket would be drawn as wide as the others while holding less, and
    would read as a dip at the edges of every zoom.
    """
    width = nice_bucket_us(end_us - start_us, width_px)
    first = floor_to(start_us, width)
    last = ceil_to(max(end_us, start_us + 1), width)
    return Grid(first, width, (last - first) // width)


def rollup_level(width_us: int, levels: tuple[int, ...]) -> int | None:
    """The coarsest stored level whose buckets nest inside buckets of `width_us`, or None (raw)."""
    usable = [level for level in levels if level <= width_us and width_us % level == 0]
    return max(usable) if usable else None
