"""vmstat text with timestamps (`vmstat -t N`, also `-w` and `-a`), from procps rather than sysstat.

Two header lines (`procs ---memory--- ...`, then `r b swpd free ...` ending in the time zone's
abbreviation), then one row per interval ending in `YYYY-MM-DD HH:MM:SS`. vmstat reprints the header
now and then; repeats are skipped. Its first row averages the rate columns (swap and block I/O,
interrupts, context switches, CPU split) over the time since boot, so only that row's instantaneous
columns (processes, memory) are kept. Memory is in KiB unless vmstat ran with `-S`, which the text
does not show.
"""

from __future__ import annotations

from collections.abc import Iterator

from stallscope.ingest.appmetrics.row_points import MakeRecord
from stallscope.ingest.model import MetricRow, ParseError, ParseReport, RowSeries
from stallscope.ingest.sysstat.clock import NS_PER_S, TimesOfDay, date_seconds
from stallscope.ingest.sysstat.naming import Column, Layout
from stallscope.ingest.sysstat.rows import RowReader, drop
from stallscope.ingest.sysstat.source import Source

COLUMNS: dict[str, tuple[str, str | None]] = {
    "r": ("vm.r", None),
    "b": ("vm.b", None),
    "swpd": ("vm.swpd", "KiB"),
    "free": ("vm.free", "KiB"),
    "buff": ("vm.buff", "KiB"),
    "cache": ("vm.cache", "KiB"),
    "inact": ("vm.inact", "KiB"),
    "active": ("vm.active", "KiB"),
    "si": ("vm.si", "KiB/s"),
    "so": ("vm.so", "KiB/s"),
    "bi": ("vm.bi", "blocks/s"),
    "bo": ("vm.bo", "blocks/s"),
    "in": ("vm.in", "/s"),
    "cs": ("vm.cs", "/s"),
    "us": ("cpu.user", "%"),
    "sy": ("cpu.system", "%"),
    "id": ("cpu.idle", "%"),
    "wa": ("cpu.iowait", "%"),
    "st": ("cpu.steal", "%"),
    "gu": ("cpu.guest", "%"),
}
INSTANT = frozenset({"r", "b", "swpd", "free", "buff", "cache", "inact", "active"})
UTC_NAMES = frozenset({"UTC", "GMT", "Z", "UCT"})
NO_STAMPS = "vmstat printed no timestamps: record it with -t (for example `vmstat -t 1`)"
_NO_SERIES = RowSeries((), (), ())
"""The fast path's layout until the first row sets it (the path is off until then)."""
SINCE_BOOT = "vmstat's first row averages its rates since boot: kept only its process and memory columns"


def parse_vmstat(source: Source, report: ParseReport) -> Iterator[MetricRow]:
    """The rows of a `vmstat -t` report.

    After the first row, a row of the header's width with a readable time and a number in every
    value column takes the fast path; every other line goes the general way.
    """
    rows: RowReader | None = None
    first: RowReader | None = None
    dates: dict[str, int | None] = {}
    times = TimesOfDay()
    # The fast path: rows of `fast_width` words, in the minute `minute` of the day `day` (the last
    # general row's), which starts `minute_start` epoch seconds. None of it until the first row.
    fast_width, day, minute, minute_start = -1, "", "", 0
    make: MakeRecord | None = None
    series = _NO_SERIES
    for first_line, lines in source.batches():
        for line, text in enumerate(lines, first_line):
            words = text.split()
            if len(words) == fast_width and make is not None:
                head, clock = words[0], words[-1]
                second = clock[-2:]
                if (
                    head != "procs"
                    and head != "r"
                    and head[0] != "-"
                    and words[-2] == day
                    and clock[:-2] == minute
                    and second.isdecimal()
                    and int(second) <= 60
                ):
                    time_ns = (minute_start + int(second)) * NS_PER_S
                    try:
                        row = make(line, time_ns, words, series)
                    except ValueError:
                        pass
                    else:
                        yield row
                        continue
            if not words or words[0] == "procs" or words[0].startswith("-"):
                continue
            if words[0] == "r":
                if rows is None:
                    rows, first, zone = _readers(words, line)
                    if zone not in UTC_NAMES:
                        report.warn(line, _zone_warning(zone))
                continue
            if rows is None or first is None:
                drop(report, line, "a vmstat row before its column header")
                continue
            if len(words) != rows.layout.width + 2:
                drop(
                    report,
                    line,
                    f"expected {rows.layout.width} values and a date and time, found {len(words)} words",
                )
                continue
            read_ns = _time_ns(words[-2], words[-1], dates, times)
            if read_ns is None:
                drop(report, line, f"cannot read the time {' '.join(words[-2:])!r}")
                continue
            time_ns = read_ns
            day, minute = words[-2], words[-1][:-2]
            minute_start = time_ns // NS_PER_S - int(words[-1][-2:])
            if first is not rows:
                report.warn(line, SINCE_BOOT)
                found = first.row(words, line, time_ns, report)
                if found is not None:
                    yield found
                first = rows
                make = rows.maker(0)
                if make is not None:
                    fast_width, series = rows.layout.width + 2, rows.series_of(None)
                continue
            found = rows.row(words, line, time_ns, report)
            if found is not None:
                yield found


def _readers(header: list[str], line: int) -> tuple[RowReader, RowReader, str]:
    """Readers for every row and for the first row (instantaneous columns only), and the zone."""
    if header[-1] in COLUMNS:
        raise ParseError(line, NO_STAMPS)
    names, zone = header[:-1], header[-1]
    columns = [_column(i, name) for i, name in enumerate(names)]
    all_rows = Layout(tuple(columns), None, "", len(names))
    first_row = Layout(tuple(c for c in columns if names[c.index] in INSTANT), None, "", len(names))
    return _Stamped(all_rows), _Stamped(first_row), zone


def _column(index: int, header: str) -> Column:
    name, unit = COLUMNS.get(header, (f"vm.{header}", None))
    # The CPU split is the whole machine's: the same series as mpstat's and sar's `cpu=all`.
    return Column(index, name, unit, (("cpu", "all"),) if name.startswith("cpu.") else ())


class _Stamped(RowReader):
    """A row reader for rows that end in a date and a time after the values."""

    __slots__ = ()

    def row(self, words: list[str], line: int, time_ns: int, report: ParseReport) -> MetricRow | None:
        return super().row(words[:-2], line, time_ns, report)


def _time_ns(date: str, clock: str, dates: dict[str, int | None], times: TimesOfDay) -> int | None:
    midnight = dates.get(date, -1)
    if midnight == -1:
        midnight = date_seconds(date)
        if len(dates) < 10_000:
            dates[date] = midnight
    seconds = times.seconds(clock)
    if midnight is None or seconds is None:
        return None
    return (midnight + seconds) * NS_PER_S


def _zone_warning(zone: str) -> str:
    return f"vmstat printed times in {zone}; read as UTC: shift the capture by {zone}'s offset from UTC"
