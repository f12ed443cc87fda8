"""mpstat and sar text: blocks of rows that each start with a time of day, under a column header.

A header row holds only names (`00:28:20  CPU  %usr ...`), a data row at least one number; the
header's layout holds until the next header, which covers sar's single-section output (one header,
then every interval) and its multi-section output (a header per block). The row time is the end of
the interval it covers. `Average:`/`Summary:` rows (and their translations, any word ending in `:`)
summarise the run and are skipped; sar's `LINUX RESTART` rows are reported, not kept.
"""

from __future__ import annotations

from collections.abc import Iterator

from stallscope.ingest.model import MetricPoint, ParseReport
from stallscope.ingest.sysstat.clock import LOCAL_AS_UTC, DayClock, day_seconds, is_meridiem
from stallscope.ingest.sysstat.naming import layout
from stallscope.ingest.sysstat.rows import RowReader, drop
from stallscope.ingest.sysstat.source import Source

_MAX_CACHED_TIMES = 4096
"""Rows repeat the same few times of day (one per interval); older ones are not seen again."""


def parse_tables(source: Source, report: ParseReport, midnight: int) -> Iterator[MetricPoint]:
    """Points of an mpstat or sar report whose banner dated it `midnight` (epoch seconds)."""
    clock = DayClock(midnight)
    readers: dict[tuple[str, ...], RowReader] = {}
    times: dict[tuple[str, str | None], int | None] = {}
    reader: RowReader | None = None
    told_zone = False
    for line, text in source:
        words = text.split()
        if not words:
            continue
        first = words[0]
        meridiem = words[1] if len(words) > 1 and is_meridiem(words[1]) else None
        key = (first, meridiem)
        seconds = times.get(key, -1)
        if seconds == -1:
            seconds = day_seconds(first, meridiem)
            if len(times) >= _MAX_CACHED_TIMES:
                times.clear()
            times[key] = seconds
        if seconds is None:
            if not first.endswith(":"):
                drop(report, line, f"not a row of an mpstat or sar table: {text.strip()[:80]!r}")
            continue
        rest = words[2:] if meridiem else words[1:]
        if not rest:
            continue
        if rest[-1] == "RESTART" or rest[:2] == ["LINUX", "RESTART"]:
            report.warn(line, "the host restarted here (sar's LINUX RESTART row)")
            reader = None
            continue
        if _is_header(rest):
            names = tuple(rest)
            reader = readers.get(names)
            if reader is None:
                reader = readers[names] = RowReader(layout(rest, "sysstat"))
            continue
        if reader is None:
            drop(report, line, "a data row before any column header")
            continue
        if not told_zone:
            report.warn(line, LOCAL_AS_UTC)
            told_zone = True
        yield from reader.points(rest, line, clock.at(seconds), report)


def _is_header(words: list[str]) -> bool:
    """Column headers are names only; a data row holds at least one number (labels come first)."""
    try:  # the usual data row ends in a number: one conversion, no exception
        float(words[-1])
    except ValueError:
        pass
    else:
        return False
    for word in words:
        try:
            float(word.replace(",", "."))
        except ValueError:
            continue
        return False
    return True
