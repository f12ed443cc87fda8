"""Pick the tool a sysstat or vmstat text came from by its first lines, and stream its rows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from stallscope.ingest.model import MetricRow, ParseError, ParseReport
from stallscope.ingest.sysstat.clock import banner_date, date_seconds, iso_stamp_seconds
from stallscope.ingest.sysstat.detect import BANNER
from stallscope.ingest.sysstat.iostat import parse_iostat
from stallscope.ingest.sysstat.source import Source
from stallscope.ingest.sysstat.tables import parse_tables
from stallscope.ingest.sysstat.vmstat import parse_vmstat

EXPECTED = (
    "expected the output of mpstat, sar or iostat (starting with their `Linux <release> (<host>) <date> ...` "
    "line) or of vmstat -t (starting with `procs ---memory---`)"
)


def parse_sysstat(stream: BinaryIO, report: ParseReport) -> Iterator[MetricRow]:
    """Yield the rows of one tool's text output read from `stream`, filling `report` as it goes.

    A row per table row, never a point per value: wide tables hold a value every dozen bytes.
    """
    return _rows(stream, report)


def _rows(stream: BinaryIO, report: ParseReport) -> Iterator[MetricRow]:
    source = Source(stream, report)
    found = source.peek()
    if found is None:
        raise ParseError(0, "the file is empty")
    line, text = found
    if text.lstrip().startswith(("procs", "--procs")):
        yield from parse_vmstat(source, report)
        return
    if not BANNER.match(text):
        raise ParseError(line, f"{EXPECTED}; found {text.strip()[:80]!r}")
    source.next_nonblank()
    midnight = banner_date(text, line)
    body = source.peek()
    if body is not None and _is_iostat(body[1]):
        yield from parse_iostat(source, report)
    else:
        yield from parse_tables(source, report, midnight)


def _is_iostat(text: str) -> bool:
    """iostat's reports start with a date stamp (`-t`) or straight with `avg-cpu:` or `Device`."""
    first = text.split(maxsplit=1)[0]
    if first in ("avg-cpu:", "Device", "Device:"):
        return True
    return date_seconds(first) is not None or iso_stamp_seconds(first) is not None
