"""Which column of a table (or key of a JSON object) holds the time: by name, by content, or first.

People name it many ways (`time`, `ts`, `@timestamp`, `date`, `epoch_us`, `ts_ms`) and some name it
nothing a rule could guess (`when`, `Zeit`). The rules, in order:

1. the column the uploader names (`time_column`), which always wins;
2. a time name (`time`, `ts`, `timestamp`, `date`, `datetime`, `@timestamp`, `_time`, `epoch…`, or
   one of them with a unit: `ts_us`, `time_ms`), if its first values read as times;
3. a name ending in a unit of time (`_s`, `_ms`, `_us`, `_ns`), if its first values are present-day
   epoch times in that unit: `request_p99_ms` ends in `_ms` too, and holds durations;
4. by content, the leftmost column (stating no unit) whose first values are all ISO 8601 times or all
   present-day epoch numbers (1990 to 2100 in seconds, milliseconds, microseconds or nanoseconds);
5. the first column, as a last resort, if its first values read as times at all.

Anything else is a ParseError that names the columns and says how to name the right one. A unit in
the column's name (`epoch_ms`, `ts_us`, `elapsed_s`) is the unit of its numbers (see `timestamps`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from stallscope.ingest.appmetrics.timestamps import ISO_TIME, BadTime, EpochUnit, TimeReader
from stallscope.ingest.model import ParseError, ParseReport

TIME_NAMES = ("timestamp", "time", "ts", "datetime", "date", "@timestamp", "_time")
"""Names that say "time" on their own, any case, most telling first."""
_UNIT_WORDS: dict[str, EpochUnit] = {
    "s": EpochUnit.SECONDS,
    "sec": EpochUnit.SECONDS,
    "secs": EpochUnit.SECONDS,
    "seconds": EpochUnit.SECONDS,
    "ms": EpochUnit.MILLISECONDS,
    "msec": EpochUnit.MILLISECONDS,
    "millis": EpochUnit.MILLISECONDS,
    "milliseconds": EpochUnit.MILLISECONDS,
    "us": EpochUnit.MICROSECONDS,
    "µs": EpochUnit.MICROSECONDS,
    "usec": EpochUnit.MICROSECONDS,
    "micros": EpochUnit.MICROSECONDS,
    "microseconds": EpochUnit.MICROSECONDS,
    "ns": EpochUnit.NANOSECONDS,
    "nsec": EpochUnit.NANOSECONDS,
    "nanos": EpochUnit.NANOSECONDS,
    "nanoseconds": EpochUnit.NANOSECONDS,
}
_UNIT_SUFFIX = re.compile(r"(.+?)(?:[_\-.]|\s*[(\[])(" + "|".join(_UNIT_WORDS) + r")[)\]]?\Z")
"""A unit of time after a separator or in brackets: `ts_us`, `epoch-ms`, `elapsed (s)`; not `ts`."""
_EPOCH_SECONDS = (631_152_000, 4_102_444_800)
"""1990-01-01 and 2100-01-01: what a recorded epoch time is, in seconds."""
SAMPLE_ROWS = 100
"""Rows (or objects) the content rules look at."""
HOW_NAMED, HOW_GIVEN, HOW_CONTENT, HOW_FIRST = "name", "given", "content", "first column"


@dataclass(frozen=True, slots=True)
class TimeColumn:
    """The time column found: where it is, its name, the unit its name states, and which rule chose it."""

    index: int
    name: str
    unit: EpochUnit | None
    how: str

    def note(self) -> str | None:
        """What the report should say about the choice; None when the column's name said it."""
        if self.how == HOW_NAMED:
            return None
        why = {
            HOW_GIVEN: "as given at upload",
            HOW_CONTENT: "its values are times",
            HOW_FIRST: "the first column, and its values read as times",
        }[self.how]
        return f"time column: {self.name!r} ({why})"


def split_unit(name: str) -> tuple[str, EpochUnit | None]:
    """A column's name (lower case) without the unit of time it ends in, and that unit:
    `ts_us` -> (`ts`, µs), `elapsed (ms)` -> (`elapsed`, ms), `latency` -> (`latency`, None)."""
    lowered = name.strip().lower()
    match = _UNIT_SUFFIX.match(lowered)
    if match is None:
        return lowered, None
    return match.group(1).rstrip(), _UNIT_WORDS[match.group(2)]


def named_unit(name: str) -> EpochUnit | None:
    """The unit of time a column's name ends in (`ts_us`, `elapsed (ms)`), if it ends in one."""
    return split_unit(name)[1]


def is_time_name(name: str) -> bool:
    """A name that says "time" whatever the column holds: `ts`, `@timestamp`, `epoch_ms`, `time_us`."""
    lowered = name.strip().lower()
    if lowered in TIME_NAMES or lowered.startswith("epoch"):
        return True
    stem, unit = split_unit(lowered)
    return unit is not None and stem in TIME_NAMES


def find_time_column(
    names: Sequence[str],
    samples: Sequence[Sequence[object]],
    given: str | None = None,
    line: int = 0,
    *,
    last_resort: bool = True,
) -> TimeColumn:
    """The time column among `names`, whose first values are `samples[i]` (text cells or JSON values).

    `line` is the header's, for the ParseError when no column fits (or the given one is missing).
    `last_resort=False` leaves out the first-column rule (for `detect`, which must not take any table).
    """
    if given is not None:
        index = _given_index(names, given)
        if index is None:
            raise ParseError(line, f"there is no column {given!r} to read times from; {_listing(names)}")
        return TimeColumn(index, names[index], named_unit(names[index]), HOW_GIVEN)
    named = sorted(
        (i for i, name in enumerate(names) if is_time_name(name)),
        key=lambda i: _name_rank(names[i]),
    )
    for index in named:
        if _reads_as_times(samples[index], named_unit(names[index])):
            return TimeColumn(index, names[index], named_unit(names[index]), HOW_NAMED)
    for index, name in enumerate(names):
        unit = named_unit(name)
        if unit is not None and index not in named and _epoch_values(samples[index], unit):
            return TimeColumn(index, name, unit, HOW_NAMED)
    for index, name in enumerate(names):
        if index in named or named_unit(name) is not None:  # a stated unit was tried above
            continue
        if _iso_values(samples[index]) or _epoch_values(samples[index], None):
            return TimeColumn(index, name, None, HOW_CONTENT)
    if last_resort and names and _reads_as_times(samples[0], named_unit(names[0])):
        return TimeColumn(0, names[0], named_unit(names[0]), HOW_FIRST)
    raise ParseError(
        line,
        "found no time column: no column is named like one (time, ts, timestamp, date, datetime, "
        "@timestamp, epoch…, or a name ending in _s, _ms, _us or _ns) and none holds times; "
        f"{_listing(names)}. Name the time column at upload (time_column)",
    )


def _given_index(names: Sequence[str], given: str) -> int | None:
    wanted = given.strip()
    exact = next((i for i, name in enumerate(names) if name == wanted), None)
    if exact is not None:
        return exact
    return next((i for i, name in enumerate(names) if name.strip().lower() == wanted.lower()), None)


def _listing(names: Sequence[str]) -> str:
    shown = ", ".join(repr(name) for name in names[:20])
    more = f" and {len(names) - 20} more" if len(names) > 20 else ""
    return f"the columns are {shown}{more}"


def _name_rank(name: str) -> int:
    lowered = name.strip().lower()
    return TIME_NAMES.index(lowered) if lowered in TIME_NAMES else len(TIME_NAMES)


def _present(values: Sequence[object]) -> list[object]:
    return [v for v in values if not (isinstance(v, str) and not v.strip()) and v is not None]


def _reads_as_times(values: Sequence[object], unit: EpochUnit | None) -> bool:
    """Whether most values read as times of one kind (no values: nothing says they do not).

    Most, not all: a bad time drops its own line later, with a warning; it must not send the whole
    file to a column that is not its time.
    """
    reader = TimeReader(ParseReport(), unit)
    present = _present(values)
    good = 0
    for value in present:
        try:
            if isinstance(value, str):
                reader.text(value, 0)
            elif isinstance(value, int | float) and not isinstance(value, bool):
                reader.number(value, 0)
            else:
                continue
        except BadTime:
            continue
        good += 1
    return good * 2 >= len(present)


def _iso_values(values: Sequence[object]) -> bool:
    present = _present(values)
    return bool(present) and all(isinstance(v, str) and ISO_TIME.match(v) for v in present)


def _epoch_values(values: Sequence[object], unit: EpochUnit | None) -> bool:
    """Whether every value is a present-day epoch time, in `unit` or (None) in any one unit."""
    present = _present(values)
    if not present:
        return False
    numbers: list[float] = []
    for value in present:
        if isinstance(value, bool):
            return False
        try:
            numbers.append(float(value))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return False
    units = [unit] if unit is not None else list(EpochUnit)
    low, high = _EPOCH_SECONDS
    for candidate in units:
        per_second = 1_000_000_000 // candidate.scale_ns
        if all(low * per_second <= number <= high * per_second for number in numbers):
            return True
    return False
