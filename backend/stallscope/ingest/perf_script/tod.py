"""perf's wall-clock column (`perf script -F +tod`) as a clock offset for the whole capture.

With `-k CLOCK_MONOTONIC`, `perf script -F +tod` prints the wall-clock time of each sample beside
its perf time (`2026-11-21 21:57:20.289518   507.901084:`): the difference is the offset from the
capture's clock to UTC, the same for every sample. Measured here it agrees with collector clock
anchors to within 5 µs. perf prints the tod in the local time of the host that ran `perf script`;
it is read as UTC unless the uploader gives that host's UTC offset.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from statistics import median_low

_TOD_AND_TIME = re.compile(
    rb"^\s*\S.*?\s(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?\s+(\d{1,11})\.(\d+):",
    re.MULTILINE,
)
MAX_LINES = 1000


def _fraction_ns(digits: bytes) -> int:
    return int(digits.ljust(9, b"0")[:9]) if digits else 0


def tod_offset_ns(head: bytes, utc_offset_s: int = 0) -> int | None:
    """UTC minus perf time, from the sample headers in `head`; None when they carry no tod."""
    offsets = []
    for match in _TOD_AND_TIME.finditer(head):
        year, month, day, hour, minute, second, fraction, whole, frac = match.groups()
        try:
            wall = datetime(int(year), int(month), int(day), int(hour), int(minute), int(second), tzinfo=UTC)
        except ValueError:  # not a date (a damaged line): the other samples still tell
            continue
        wall_ns = (
            int(wall.timestamp()) * 1_000_000_000 + _fraction_ns(fraction) - utc_offset_s * 1_000_000_000
        )
        perf_ns = int(whole) * 1_000_000_000 + _fraction_ns(frac)
        offsets.append(wall_ns - perf_ns)
        if len(offsets) >= MAX_LINES:
            break
    return median_low(offsets) if offsets else None
