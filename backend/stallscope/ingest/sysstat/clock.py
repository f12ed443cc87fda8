"""Dates and times of day as the sysstat tools and vmstat print them, turned into epoch nanoseconds.

The tools print local time and, except for `iostat` with `S_TIME_FORMAT=ISO` and `vmstat -t`, never
say which zone that is; we read such times as UTC and say so once (`LOCAL_AS_UTC`). Dates follow the
C or host locale (`11/22/26`, `11/22/2026`, `22.11.2026`) or ISO 8601 with `S_TIME_FORMAT=ISO`; times
of day are 24-hour or, in locales such as en_US, 12-hour with a separate `AM`/`PM` word.
"""

from __future__ import annotations

import datetime as dt
import re

from stallscope.ingest.model import ParseError

NS_PER_S = 1_000_000_000
SECONDS_PER_DAY = 86_400
LOCAL_AS_UTC = "times are the host's local time, read as UTC; shift the capture if the host was not on UTC"
DATE_HINT = "record with S_TIME_FORMAT=ISO (or LC_TIME=C) to get a date this importer reads"

_ISO_DATE = re.compile(r"(\d{4})-(\d\d)-(\d\d)\Z")
_SLASH_DATE = re.compile(r"(\d\d?)/(\d\d?)/(\d\d(?:\d\d)?)\Z")
_DOT_DATE = re.compile(r"(\d\d?)\.(\d\d?)\.(\d\d(?:\d\d)?)\Z")
_TIME = re.compile(r"(\d\d?):(\d\d):(\d\d)\Z")
_ISO_ZONE = re.compile(r"([+-])(\d\d):?(\d\d)\Z")
_EPOCH = dt.date(1970, 1, 1)
_MAX_CACHED_MINUTES = 4096


def date_seconds(text: str) -> int | None:
    """Epoch seconds at 00:00 UTC of a printed date; None if the text is not a date we know.

    Slashed dates are month first, as the C and en_US locales print them, unless the first number
    cannot be a month (en_GB's `22/11/2026`).
    """
    iso = _ISO_DATE.match(text)
    if iso is not None:
        year, month, day = int(iso[1]), int(iso[2]), int(iso[3])
    elif (slash := _SLASH_DATE.match(text)) is not None:
        month, day, year = int(slash[1]), int(slash[2]), _full_year(slash[3])
        if month > 12:
            month, day = day, month
    elif (dot := _DOT_DATE.match(text)) is not None:
        day, month, year = int(dot[1]), int(dot[2]), _full_year(dot[3])
    else:
        return None
    try:
        return (dt.date(year, month, day) - _EPOCH).days * SECONDS_PER_DAY
    except ValueError:
        return None


def _full_year(text: str) -> int:
    return 2000 + int(text) if len(text) == 2 else int(text)


def day_seconds(text: str, meridiem: str | None = None) -> int | None:
    """Seconds since midnight of `HH:MM:SS`, with `AM`/`PM` applied if given; None if not a time."""
    match = _TIME.match(text)
    if match is None:
        return None
    hour, minute, second = int(match[1]), int(match[2]), int(match[3])
    if meridiem is not None:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if meridiem == "PM" else 0)
    if hour > 23 or minute > 59 or second > 60:
        return None
    return hour * 3600 + minute * 60 + second


class TimesOfDay:
    """`day_seconds` for row after row: each row has its own second, so the `HH:MM:` before it is
    read once per minute and the seconds added, with no regular expression per row."""

    __slots__ = ("_minutes",)

    def __init__(self) -> None:
        self._minutes: dict[tuple[str, str | None], int | None] = {}

    def seconds(self, text: str, meridiem: str | None = None) -> int | None:
        """The same as `day_seconds(text, meridiem)`."""
        prefix, second = text[:-2], text[-2:]
        key = (prefix, meridiem)
        minute = self._minutes.get(key, -1)
        if minute == -1:
            minute = day_seconds(prefix + "00", meridiem)
            if len(self._minutes) >= _MAX_CACHED_MINUTES:
                self._minutes.clear()
            self._minutes[key] = minute
        if minute is None or not second.isdecimal() or int(second) > 60:
            return None
        return minute + int(second)


def is_meridiem(word: str) -> bool:
    return word == "AM" or word == "PM"


def iso_stamp_seconds(text: str) -> tuple[int, bool] | None:
    """`2026-11-22T00:28:31+0000` (iostat's ISO stamp) -> (epoch seconds, had a zone); None if not one."""
    date_part, sep, rest = text.partition("T")
    if not sep:
        return None
    zone = _ISO_ZONE.search(rest)
    clock = rest[: zone.start()] if zone is not None else rest.removesuffix("Z")
    midnight = date_seconds(date_part)
    seconds = day_seconds(clock)
    if midnight is None or seconds is None:
        return None
    value = midnight + seconds
    if zone is not None:
        offset = int(zone[2]) * 3600 + int(zone[3]) * 60
        value -= offset if zone[1] == "+" else -offset
    return value, zone is not None or rest.endswith("Z")


class DayClock:
    """Times of day on a starting date, moving to the next day when the time of day wraps around.

    Rows come in time order, so a time of day more than 12 hours before the previous one means
    midnight passed; a smaller step back (a clock change in local time) is kept as printed.
    """

    __slots__ = ("_day_start", "_previous")

    def __init__(self, date_midnight: int) -> None:
        self._day_start = date_midnight
        self._previous = -1

    def peek(self, seconds_of_day: int) -> int:
        """What `at` would say, without moving the clock."""
        day_start = self._day_start
        if seconds_of_day + SECONDS_PER_DAY // 2 < self._previous:
            day_start += SECONDS_PER_DAY
        return (day_start + seconds_of_day) * NS_PER_S

    def at(self, seconds_of_day: int) -> int:
        """Epoch nanoseconds of the next row's time of day."""
        if seconds_of_day + SECONDS_PER_DAY // 2 < self._previous:
            self._day_start += SECONDS_PER_DAY
        self._previous = seconds_of_day
        return (self._day_start + seconds_of_day) * NS_PER_S


def banner_date(line: str, number: int) -> int:
    """Midnight (epoch seconds) of the date in sysstat's first line, `Linux 6.1 (host) 11/22/2026 ...`."""
    # The first two words are the system name and kernel release (`5.10.20` would read as a date).
    for word in line.split()[2:]:
        seconds = date_seconds(word)
        if seconds is not None:
            return seconds
    raise ParseError(number, f"cannot read the date in the first line {line.strip()!r}; {DATE_HINT}")
