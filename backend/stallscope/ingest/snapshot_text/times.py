"""When a take was recorded, from what scripts print: `date`, `date -u`, `date -Is`, `date -R`, `date +%s`.

A time without a zone (`2026-11-22 00:28:01`) is read as UTC, which is what `date -u` and most
collection scripts print. A zone name other than UTC/GMT (`CET`) names no fixed offset: None.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone
from email.utils import parsedate_to_datetime

_EPOCH = re.compile(r"^(\d{9,10})(?:\.(\d{1,9}))?$")
_DATE_DEFAULT = re.compile(
    r"^[A-Za-z]{3},?\s+(?P<mon>[A-Za-z]{3})\s+(?P<day>\d{1,2})\s+(?P<time>\d\d:\d\d:\d\d)"
    r"(?:\s+(?P<ampm>[AP]M))?\s+(?P<zone>[A-Z]{1,5}|[+-]\d{4})\s+(?P<year>\d{4})$"
)
_MONTHS = {
    m: i
    for i, m in enumerate(
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], 1
    )
}
_UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_UTC_NAMES = frozenset({"UTC", "GMT", "Z", "UT"})
_EARLIEST_NS = 946_684_800 * 10**9
"""2000-01-01: anything earlier is a misread number, not a snapshot time."""
_LATEST_NS = 4_102_444_800 * 10**9
"""2100-01-01."""


def parse_time(text: str) -> int | None:
    """Epoch nanoseconds of the first line of `text`, or None when it is not a time read above."""
    line = text.strip().split("\n", 1)[0].strip()
    if not line or len(line) > 64:
        return None
    when = _epoch(line) or _iso(line) or _date_default(line) or _rfc2822(line)
    if when is None:
        return None
    ns = (when - _UNIX_EPOCH) // timedelta(microseconds=1) * 1000 if isinstance(when, datetime) else when
    return ns if _EARLIEST_NS <= ns < _LATEST_NS else None


def _epoch(line: str) -> int | None:
    found = _EPOCH.match(line)
    if found is None:
        return None
    fraction = (found.group(2) or "").ljust(9, "0")
    return int(found.group(1)) * 10**9 + int(fraction)


def _iso(line: str) -> datetime | None:
    if not line[:4].isdigit():
        return None
    try:
        when = datetime.fromisoformat(line.replace(",", "."))
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _date_default(line: str) -> datetime | None:
    found = _DATE_DEFAULT.match(line)
    if found is None or found.group("mon") not in _MONTHS:
        return None
    zone = found.group("zone")
    if zone in _UTC_NAMES:
        tz: timezone = UTC
    elif zone[0] in "+-":
        minutes = int(zone[1:3]) * 60 + int(zone[3:5])
        tz = timezone(timedelta(minutes=-minutes if zone[0] == "-" else minutes))
    else:
        return None
    hour, minute, second = (int(part) for part in found.group("time").split(":"))
    ampm = found.group("ampm")
    if ampm is not None:
        hour = hour % 12 + (12 if ampm == "PM" else 0)
    try:
        return datetime(
            int(found.group("year")),
            _MONTHS[found.group("mon")],
            int(found.group("day")),
            hour,
            minute,
            second,
            tzinfo=tz,
        )
    except ValueError:
        return None


def _rfc2822(line: str) -> datetime | None:
    if "," not in line:
        return None
    try:
        when = parsedate_to_datetime(line)
    except (TypeError, ValueError, IndexError):
        return None
    return when if when.tzinfo is not None else None
