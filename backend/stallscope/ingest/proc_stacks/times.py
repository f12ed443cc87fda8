"""Times as dump loops print them, to epoch nanoseconds, exactly: epoch numbers and ISO 8601.

An epoch number's unit is its key's (`ts_us=`) or else its magnitude's: seconds are 10 digits today,
milliseconds 13, microseconds 16, nanoseconds 19 (`$EPOCHREALTIME`, `date +%s.%N`, `date +%s%6N`). ISO
8601 takes `T` or a space between date and time, `.` or `,` before the fraction (`date -Ins`,
`date --rfc-3339=ns`), and `Z`, `UTC` or a numeric offset; without a zone it is read as UTC. ISO times
are read a second at a time (each second once, however many dumps fall in it) and the fraction is
added, so nanoseconds survive.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from stallscope.ingest.value_ranges import fits_time

NS_PER_S = 1_000_000_000
MAX_CACHED_SECONDS = 10_000
_EPOCH = re.compile(r"(\d{1,21})(?:\.(\d+))?")
_ISO = re.compile(
    r"(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d(?::\d\d)?)(?:[.,](\d+))?\s*(Z|z|UTC|[+-]\d\d(?::?\d\d)?)?"
)
_MAGNITUDES = ((10**11, NS_PER_S), (10**14, 1_000_000), (10**17, 1_000))
"""(below this whole part, nanoseconds per unit): seconds, then milliseconds, then microseconds."""


class BadTime(ValueError):
    """Text that should be a time and is not one; the message says why."""


def epoch_ns(text: str, scale_ns: int | None = None) -> int:
    """`1795625975022772` (µs by magnitude), `1795625975.022772` (s), or in the unit `scale_ns` says."""
    number = _EPOCH.fullmatch(text)
    if number is None:
        raise BadTime(f"{text[:40]!r} is not an epoch time")
    whole_text, fraction = number.groups()
    whole = int(whole_text)
    if scale_ns is None:
        scale_ns = next((scale for below, scale in _MAGNITUDES if whole < below), 1)
    time_ns = whole * scale_ns
    if fraction:
        digits = fraction[:9]
        time_ns += int(digits) * scale_ns // 10 ** len(digits)
    if not fits_time(time_ns):
        raise BadTime(f"{text[:40]!r} is not a time (after the year 5138)")
    return time_ns


class TimeText:
    """Reads the times of one file; remembers the ISO seconds it has read."""

    def __init__(self) -> None:
        self._seconds: dict[tuple[str, str, str | None], int] = {}
        self.zoneless = False
        """An ISO time without a zone was read (as UTC): worth one warning."""

    def read(self, text: str, scale_ns: int | None = None) -> int:
        """An epoch number or an ISO 8601 time, to epoch nanoseconds; BadTime otherwise."""
        if text[:1].isdigit() and text[4:5] == "-":
            return self.iso(text)
        return epoch_ns(text, scale_ns)

    def iso(self, text: str) -> int:
        found = _ISO.fullmatch(text)
        if found is None:
            raise BadTime(f"{text[:40]!r} is neither an epoch number nor an ISO 8601 time")
        date, clock, fraction, zone = found.groups()
        key = (date, clock, zone)
        second_ns = self._seconds.get(key)
        if second_ns is None:
            second_ns = self._second_ns(date, clock, zone)
            if len(self._seconds) >= MAX_CACHED_SECONDS:
                self._seconds.clear()
            self._seconds[key] = second_ns
        return second_ns + (int(fraction[:9].ljust(9, "0")) if fraction else 0)

    def _second_ns(self, date: str, clock: str, zone: str | None) -> int:
        if zone is None:
            self.zoneless = True
            offset = "+00:00"
        elif zone in ("Z", "z", "UTC"):
            offset = "+00:00"
        else:
            offset = zone if ":" in zone or len(zone) == 3 else f"{zone[:3]}:{zone[3:]}"
            offset = offset if len(offset) == 6 else f"{offset}:00"
        try:
            moment = datetime.fromisoformat(f"{date}T{clock}{offset}")
        except ValueError as exc:
            raise BadTime(f"{date} {clock} is not a date and time") from exc
        return int(moment.astimezone(UTC).timestamp()) * NS_PER_S
