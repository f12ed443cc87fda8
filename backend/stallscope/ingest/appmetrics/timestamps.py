"""Timestamps of application metrics: epoch numbers in s, ms, µs or ns, or ISO 8601 text.

A file picks its kind with its first timestamp, and every later one must agree: epoch numbers are
told apart by magnitude (seconds are 10 digits today, nanoseconds 19), so a file that mixes units
would put points decades apart, and such a line is dropped with a warning instead. The kind is
reported once as a note (a warning on line 0, until the report has a place for notes) so the UI can
show how the file was read. Text is
converted exactly (`1700000000.123456789` keeps its nanoseconds), and ISO times without a zone are
read as UTC, with one warning. A unit the time column's name states (`epoch_ms`, `ts_us`) is the unit
of every epoch number, whatever its magnitude: the name is what the writer meant, and times relative
to a start (`t_ms` from 0) keep their spacing.
"""

from __future__ import annotations

import datetime as dt
import enum
import math
import re

from stallscope.ingest.model import ParseReport
from stallscope.ingest.value_ranges import MAX_TIME_NS, fits_time

NS_PER_S = 1_000_000_000
_EPOCH_ORDINAL = dt.date(1970, 1, 1).toordinal()
_ISO = re.compile(
    r"\s*(\d{4})-(\d\d)-(\d\d)"
    r"(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:[.,](\d+))?)?)?"
    r"\s*(Z|z|UTC|[+-]\d\d(?::?\d\d)?)?\s*\Z"
)
_MAX_CACHED_DATES = 100_000
_POWERS_OF_TEN: tuple[int, ...] = tuple(10**digits for digits in range(10))
ISO_TIME = _ISO
"""ISO 8601 as this module reads it: a date, optionally a time of day, a fraction and a zone."""
NAIVE_ISO = "timestamps have no time zone; read as UTC"
OUT_OF_RANGE = "is not a time (after the year 5138, or before 1653)"


class EpochUnit(enum.Enum):
    """An epoch timestamp's unit: its size in nanoseconds and the magnitudes a present-day value has."""

    SECONDS = ("seconds", NS_PER_S, 0.0, 1e11)  # 1e11 s is the year 5138
    MILLISECONDS = ("milliseconds", 1_000_000, 1e11, 1e14)
    MICROSECONDS = ("microseconds", 1_000, 1e14, 1e17)
    NANOSECONDS = ("nanoseconds", 1, 1e17, float(MAX_TIME_NS))

    def __init__(self, label: str, scale_ns: int, low: float, high: float) -> None:
        self.label = label
        self.scale_ns = scale_ns
        self.low = low
        self.high = high


def epoch_unit(value: float) -> EpochUnit:
    """The unit an epoch value of this magnitude is in."""
    magnitude = abs(value)
    for unit in EpochUnit:
        if magnitude < unit.high:
            return unit
    return EpochUnit.NANOSECONDS


class BadTime(ValueError):
    """A timestamp this file cannot use; the message says why."""


class TimeReader:
    """Timestamps to epoch nanoseconds for one file, holding it to the kind its first one set."""

    def __init__(self, report: ParseReport, named_unit: EpochUnit | None = None) -> None:
        self._report = report
        self._named_unit = named_unit
        """The unit the time column's name states, if it states one: it takes every epoch number."""
        self.unit: EpochUnit | None = None
        self.iso = False
        self.naive_line: int | None = None
        """The first line with a zoneless ISO time, for the one warning about it."""
        self._low = self._high = 0.0
        self._scale = 0
        self._dates: dict[str, int] = {}

    @property
    def low(self) -> float:
        """Integers from `low` (inclusive) to `high` are in the file's unit, once it has one."""
        return self._low

    @property
    def high(self) -> float:
        return self._high

    @property
    def scale_ns(self) -> int:
        """Nanoseconds per unit of the file's epoch numbers (0 before the first one)."""
        return self._scale

    def number(self, value: float, line: int) -> int:
        """A JSON number: an int is exact; a float goes through its shortest text, which is exact for
        the millisecond and microsecond fractions people write."""
        time_ns = self._number(value, line)
        if not fits_time(time_ns):
            raise BadTime(f"timestamp {value!r:.40} {OUT_OF_RANGE}")
        return time_ns

    def text(self, text: str, line: int) -> int:
        """A timestamp written as text: an epoch number or ISO 8601."""
        try:
            time_ns = self._text(text, line)
        except BadTime:
            raise
        except (ValueError, OverflowError) as exc:  # more digits than int() takes; float overflow
            raise BadTime(f"timestamp {text.strip()[:40]!r} {OUT_OF_RANGE}") from exc
        if not fits_time(time_ns):
            raise BadTime(f"timestamp {text.strip()[:40]!r} {OUT_OF_RANGE}")
        return time_ns

    def _number(self, value: float, line: int) -> int:
        if isinstance(value, int):
            if self._low <= abs(value) < self._high:
                return value * self._scale
            return value * self._epoch(value).scale_ns
        if not math.isfinite(value):
            raise BadTime(f"timestamp {value!r} is not a time")
        return self.text(repr(value), line)

    def _text(self, text: str, line: int) -> int:
        try:
            value = int(text)
        except ValueError:
            pass
        else:
            if self._low <= abs(value) < self._high:
                return value * self._scale
            return value * self._epoch(value).scale_ns
        whole, dot, frac = text.strip().partition(".")
        if dot and frac.isdigit() and whole.lstrip("-").isdigit():
            scale = self._epoch(float(text)).scale_ns
            frac = frac[:9]  # finer than a nanosecond in any unit
            power = _POWERS_OF_TEN[len(frac)]
            scaled = (abs(int(whole)) * power + int(frac)) * scale // power
            return -scaled if whole.startswith("-") else scaled
        try:
            number = float(text)
        except ValueError:
            return self._iso(text, line)
        if not math.isfinite(number):
            raise BadTime(f"timestamp {text!r} is not a time")
        return round(number * self._epoch(number).scale_ns)

    def _epoch(self, value: float) -> EpochUnit:
        if not abs(value) < EpochUnit.NANOSECONDS.high:  # and not NaN: it must not set the file's unit
            raise BadTime(f"timestamp {value!r:.40} {OUT_OF_RANGE}")
        if self.iso:
            raise BadTime(f"epoch timestamp {value!r} in a file whose timestamps are ISO 8601")
        named = self._named_unit
        if named is not None:
            if self.unit is None:
                self.unit = named
                # Any magnitude is in the named unit, up to the last time the stores keep.
                self._low, self._high = 0.0, float(MAX_TIME_NS // named.scale_ns + 1)
                self._scale = named.scale_ns
                self._report.warn(0, f"timestamps: epoch {named.label} (as the column's name says)")
            return named
        unit = epoch_unit(value)
        if self.unit is None:
            self.unit = unit
            self._low, self._high, self._scale = unit.low, unit.high, unit.scale_ns
            self._report.warn(0, f"timestamps: epoch {unit.label}")
        elif unit is not self.unit:
            raise BadTime(
                f"timestamp {value!r} looks like epoch {unit.label}, "
                f"but this file's timestamps are epoch {self.unit.label}"
            )
        return unit

    def _iso(self, text: str, line: int) -> int:
        match = _ISO.match(text)
        if match is None:
            raise BadTime(f"{text.strip()[:40]!r} is neither an epoch number nor an ISO 8601 time")
        if self.unit is not None:
            raise BadTime(
                f"ISO 8601 time {text.strip()!r} in a file whose timestamps are epoch {self.unit.label}"
            )
        if not self.iso:
            self.iso = True
            self._report.warn(0, "timestamps: ISO 8601")
        year, month, day, hour, minute, second, frac, zone = match.groups()
        key = text[match.start(1) : match.end(3)]
        midnight = self._dates.get(key)
        if midnight is None:
            try:
                days = dt.date(int(year), int(month), int(day)).toordinal() - _EPOCH_ORDINAL
            except ValueError as exc:
                raise BadTime(f"{key!r} is not a date") from exc
            midnight = days * 86_400
            if len(self._dates) < _MAX_CACHED_DATES:
                self._dates[key] = midnight
        seconds = midnight
        if hour is not None:
            if int(hour) > 23 or int(minute) > 59 or (second is not None and int(second) > 60):
                raise BadTime(f"{text.strip()!r} is not a time of day")
            seconds += int(hour) * 3600 + int(minute) * 60 + int(second or 0)
        if zone is None:
            if self.naive_line is None:
                self.naive_line = line
                self._report.warn(line, NAIVE_ISO)
        elif zone not in ("Z", "z", "UTC"):
            offset = int(zone[1:3]) * 3600 + (int(zone[-2:]) * 60 if len(zone) > 3 else 0)
            seconds -= offset if zone[0] == "+" else -offset
        nanos = int(frac[:9].ljust(9, "0")) if frac else 0
        return seconds * NS_PER_S + nanos
