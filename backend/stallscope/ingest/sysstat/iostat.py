"""iostat text (`iostat -x -t N`): reports that each start with a date-and-time line.

Each report is a stamp (`11/22/2026 12:28:30 AM`, or `2026-11-22T00:28:31+0000` with
`S_TIME_FORMAT=ISO`, the only form that carries a zone), then an `avg-cpu:` header and its one row
(`cpu.*{cpu=all}`), then a `Device` header and a row per device (`disk.*{device=...}`). Without `-t`
there are no stamps at all and nothing to place the values in time: that is refused. Unless iostat
ran with `-y`, the first report holds averages since boot; it is kept, with a warning, since the text
cannot tell the two apart.
"""

from __future__ import annotations

from collections.abc import Iterator

from stallscope.ingest.model import MetricRow, ParseError, ParseReport
from stallscope.ingest.sysstat.clock import (
    LOCAL_AS_UTC,
    NS_PER_S,
    TimesOfDay,
    date_seconds,
    is_meridiem,
    iso_stamp_seconds,
)
from stallscope.ingest.sysstat.naming import Layout, layout, named_columns
from stallscope.ingest.sysstat.rows import RowReader, drop
from stallscope.ingest.sysstat.source import Source

NO_STAMPS = "iostat printed no timestamps: record it with -t (for example `iostat -x -t 1`)"
SINCE_BOOT = (
    "the first report holds averages since boot unless iostat ran with -y; "
    "expect its values to differ from the intervals after it"
)
_HEADS = frozenset({"avg-cpu:", "Device", "Device:"})


def parse_iostat(source: Source, report: ParseReport) -> Iterator[MetricRow]:
    """The rows of an `iostat -t` report.

    A row of more than three words (so not a stamp) under a section, with a number in every value
    column, takes the fast path; every other line goes the general way.
    """
    stamp_ns: int | None = None
    cpu: RowReader | None = None
    devices: dict[tuple[str, ...], RowReader] = {}
    section: RowReader | None = None
    told_zone = told_boot = False
    stamps = _Stamps()
    for first, lines in source.batches():
        for line, text in enumerate(lines, first):
            words = text.split()
            if not words:
                section = None if section is cpu else section
                continue
            head = words[0]
            if (
                section is not None
                and stamp_ns is not None
                and len(words) == section.layout.width
                and len(words) > 3
                and head not in _HEADS
            ):
                make = section.maker(0)
                index = section.label_index
                series = section.series_of(None if index is None else words[index])
                try:
                    row = make(line, stamp_ns, words, series) if make is not None else None
                except ValueError:
                    row = None
                if row is not None:
                    yield row
                    if section is cpu:
                        section = None  # avg-cpu has exactly one row
                    continue
            if head == "avg-cpu:":
                if cpu is None or cpu.layout.width != len(words) - 1:
                    cpu = RowReader(
                        Layout(named_columns(words[1:], "cpu"), None, "", len(words) - 1), (("cpu", "all"),)
                    )
                section = cpu
                continue
            if head in ("Device", "Device:"):
                names = tuple(words)
                section = devices.get(names)
                if section is None:
                    section = devices[names] = RowReader(layout(words, "iostat"))
                continue
            stamp = stamps.read(words)
            if stamp is not None:
                seconds, zoned = stamp
                stamp_ns = seconds * NS_PER_S
                section = None
                if not told_zone and not zoned:
                    report.warn(line, LOCAL_AS_UTC)
                told_zone = True
                if not told_boot:
                    report.warn(line, SINCE_BOOT)
                    told_boot = True
                continue
            if section is None:
                drop(report, line, f"not part of an iostat report: {text.strip()[:80]!r}")
                continue
            if stamp_ns is None:
                raise ParseError(line, NO_STAMPS)
            found = section.row(words, line, stamp_ns, report)
            if found is not None:
                yield found
            if section is cpu:
                section = None  # avg-cpu has exactly one row


class _Stamps:
    """Report stamps to (epoch seconds, had a zone), with dates and minutes read once each."""

    def __init__(self) -> None:
        self._dates: dict[str, int | None] = {}
        self._times = TimesOfDay()

    def read(self, words: list[str]) -> tuple[int, bool] | None:
        """The stamp on a report's date-and-time line, or None if it is not one."""
        if len(words) == 1:
            return iso_stamp_seconds(words[0])
        if len(words) > 3 or (len(words) == 3 and not is_meridiem(words[2])):
            return None
        midnight = self._dates.get(words[0], -1)
        if midnight == -1:
            midnight = date_seconds(words[0])
            if len(self._dates) >= 4096:
                self._dates.clear()
            self._dates[words[0]] = midnight
        seconds = self._times.seconds(words[1], words[2] if len(words) == 3 else None)
        if midnight is None or seconds is None:
            return None
        return midnight + seconds, False
