"""mpstat and sar text: blocks of rows that each start with a time of day, under a column header.

A header row holds only names (`00:28:20  CPU  %usr ...`), a data row at least one number; the
header's layout holds until the next header, which covers sar's single-section output (one header,
then every interval) and its multi-section output (a header per block). The row time is the end of
the interval it covers. `Average:`/`Summary:` rows (and their translations, any word ending in `:`)
summarise the run and are skipped; sar's `LINUX RESTART` rows are reported, not kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from stallscope.ingest.appmetrics.row_points import MakeRecord
from stallscope.ingest.model import MetricRow, ParseReport, RowSeries
from stallscope.ingest.sysstat.clock import LOCAL_AS_UTC, DayClock, TimesOfDay
from stallscope.ingest.sysstat.naming import layout
from stallscope.ingest.sysstat.rows import RowReader, drop
from stallscope.ingest.sysstat.source import Source

_NOT_DATA = frozenset({"AM", "PM", "LINUX"})
"""Second words that make a row something other than a 24-hour data row."""
_MAX_CACHED_TIMES = 4096
"""Rows repeat the same few times of day (one per interval); older ones are not seen again."""


def parse_tables(source: Source, report: ParseReport, midnight: int) -> Iterator[MetricRow]:
    """The rows of an mpstat or sar report whose banner dated it `midnight` (epoch seconds).

    A data row under the current header, with a number in every value column, takes the fast path:
    its row is built in one call. Every other line goes the general way, which also says why a
    line is dropped.
    """
    clock = DayClock(midnight)
    readers: dict[tuple[str, ...], RowReader] = {}
    times: dict[object, int | None] = {}
    minutes = TimesOfDay()
    reader: RowReader | None = None
    told_zone = False
    clock_key: object = None  # the time words the clock last read, and what it gave
    clock_ns = 0
    # The current reader's fast path, once a header and a data row are seen.
    width, header_words, tail, makers, label_index, series_sets, series_of = _NO_FAST
    for first, lines in source.batches():
        for line, text in enumerate(lines, first):
            words = text.split()
            if not words:
                continue
            head = words[0]
            count = len(words)
            last = words[-1]
            if head == clock_key and count == width + 1:
                # Another row at the last data row's 24-hour time (mpstat prints a row per CPU).
                second = words[1]
                row_series = (
                    series_sets[""] if label_index is None else series_sets.get(words[1 + label_index])
                )
                if row_series is not None and second not in _NOT_DATA and last != tail and last != "RESTART":
                    try:
                        row = makers[0](line, clock_ns, words, row_series)
                    except ValueError:
                        pass  # a header, or a value only the general path reads (or drops)
                    else:
                        yield row
                        continue
            key: object
            if len(words) > 1 and (words[1] == "AM" or words[1] == "PM"):
                meridiem: str | None = words[1]
                skip = 2
                key = (head, meridiem)
            else:
                meridiem, skip, key = None, 1, head
            seconds = times.get(key, -1)
            if seconds == -1:
                seconds = minutes.seconds(head, meridiem)
                if len(times) >= _MAX_CACHED_TIMES:
                    times.clear()
                times[key] = seconds
            if seconds is None:
                if not head.endswith(":"):
                    drop(report, line, f"not a row of an mpstat or sar table: {text.strip()[:80]!r}")
                continue
            if count == width + skip and last != tail and last != "RESTART" and words[skip] != "LINUX":
                if label_index is None:
                    series = series_sets[""]
                else:
                    row_label = words[skip + label_index]
                    series = series_sets.get(row_label) or series_of(row_label)
                time_ns = clock_ns if key == clock_key else clock.peek(seconds)
                try:
                    row = makers[skip - 1](line, time_ns, words, series)
                except ValueError:
                    pass  # a header, or a value only the general path reads (or drops)
                else:
                    if key != clock_key:
                        clock_key, clock_ns = key, clock.at(seconds)
                    yield row
                    continue
            if last == tail and words[skip:] == header_words:
                continue  # the current header, repeated
            if count == skip:
                continue
            rest = words[skip:]
            if last == "RESTART" or rest[:2] == ["LINUX", "RESTART"]:
                report.warn(line, "the host restarted here (sar's LINUX RESTART row)")
                reader = None
                width, header_words, tail, makers, label_index, series_sets, series_of = _NO_FAST
                continue
            header = tuple(rest)
            known = readers.get(header)  # only header rows are ever stored
            if known is None and _is_header(rest):
                known = readers[header] = RowReader(layout(rest, "sysstat"), header=rest)
            if known is not None:
                if known is not reader:
                    reader = known
                    view = _fast(reader) if told_zone else _NO_FAST
                    width, header_words, tail, makers, label_index, series_sets, series_of = view
                continue
            if reader is None:
                drop(report, line, "a data row before any column header")
                continue
            if not told_zone:
                report.warn(line, LOCAL_AS_UTC)
                told_zone = True
                width, header_words, tail, makers, label_index, series_sets, series_of = _fast(reader)
            if key != clock_key:
                clock_key, clock_ns = key, clock.at(seconds)
            found = reader.row(rest, line, clock_ns, report)
            if found is not None:
                yield found


Fast = tuple[
    int,
    list[str],
    str,
    tuple[MakeRecord, MakeRecord],
    int | None,
    dict[str, RowSeries],
    Callable[[str | None], RowSeries],
]
"""Width, the header's words and its last word, row makers for rows with one and two time words,
the label column, row layouts by row label and how to make one: what the fast path needs of a
reader, in locals."""


def _no_row(line: int, time_ns: int, words: Sequence[str], series: RowSeries) -> MetricRow:
    raise ValueError("no layout")


def _no_series(row_label: str | None) -> RowSeries:
    return RowSeries((), (), ())


_NO_FAST: Fast = (-1, [], "", (_no_row, _no_row), None, {}, _no_series)


def _fast(reader: RowReader) -> Fast:
    """The fast path's view of a reader; a width of -1 (no row fits) when it has no value columns."""
    one, two = reader.maker(1), reader.maker(2)
    if one is None or two is None:
        return _NO_FAST
    layout = reader.layout
    reader.series_of(None)  # the one row layout of a layout without a label column
    header = reader.header
    tail = header[-1] if header else ""
    return layout.width, header, tail, (one, two), layout.label_index, reader.series_sets, reader.series_of


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
