"""Drive an importer over any input the way the parse task does, and hold what comes out to the
promises every importer makes: records or a clean report, never another exception.

A record must also be one the stores can hold: its line is in the file, its numbers fit the columns
they go to (a pid in a 32-bit column, a CPU in a 16-bit one) and its times map to a timestamp. A
record that breaks one of these fails the whole capture when it is stored, as surely as an
exception in the parser would.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

from stallscope.ingest.clock import clock_mapping
from stallscope.ingest.model import (
    Document,
    Frame,
    MetricPoint,
    MetricRow,
    ParseError,
    ParseReport,
    Record,
    Sample,
    TimedEvent,
)
from stallscope.ingest.registry import HEAD_BYTES, Importer

INT16 = 1 << 15
INT32 = 1 << 31
INT64 = 1 << 63
MAX_WARNINGS = 8
"""A small cap on the warnings a report keeps, so that inputs with many bad lines reach it."""


class Trickle(io.BytesIO):
    """A stream that hands out at most `most` bytes a read, as a slow upload or a decompressor does:
    records and lines cut at every chunk boundary."""

    def __init__(self, data: bytes, most: int) -> None:
        super().__init__(data)
        self._most = most

    def read(self, size: int | None = -1) -> bytes:
        return super().read(self._most if size is None or size < 0 else min(size, self._most))

    def read1(self, size: int | None = -1) -> bytes:
        return self.read(size)


@dataclass
class Outcome:
    """What one parse gave: the records up to the end (or up to the ParseError) and the report."""

    records: list[Record] = field(default_factory=list)
    report: ParseReport = field(default_factory=lambda: ParseReport(max_warnings=MAX_WARNINGS))
    error: ParseError | None = None


def parse_all(importer: Importer, data: bytes, read_size: int | None = None) -> Outcome:
    """Every record `importer` yields for `data`; a ParseError is part of the outcome, any other
    exception goes to the caller (the test fails with it)."""
    outcome = Outcome()
    stream = io.BytesIO(data) if read_size is None else Trickle(data, read_size)
    try:
        for record in importer.parse(stream, outcome.report):
            outcome.records.append(record)
    except ParseError as exc:
        outcome.error = exc
    return outcome


def check_detect(importer: Importer, head: bytes) -> None:
    answer = importer.detect(head)
    assert type(answer) is bool, f"{importer.name}.detect answered {answer!r}, not True or False"


def check_error(error: ParseError, data: bytes) -> None:
    assert str(error), "a ParseError without a message"
    assert error.reason.strip(), "a ParseError without a reason"
    assert 0 <= error.line <= line_count(data) + 1, f"ParseError on line {error.line}, outside the file"


def check_report(report: ParseReport) -> None:
    assert len(report.warnings) <= report.max_warnings, "more warnings kept than max_warnings"
    if report.suppressed_warnings:
        assert len(report.warnings) == report.max_warnings, "warnings suppressed before the cap"
    assert report.dropped_lines >= 0
    assert report.samples >= 0
    assert report.suppressed_warnings >= 0
    for warning in report.warnings:
        assert warning.line >= 0, warning
        assert isinstance(warning.message, str), warning
        assert warning.message.strip(), warning


def check_outcome(importer: Importer, data: bytes, outcome: Outcome) -> None:
    """Every promise of an importer's output that holds whatever the input was."""
    if outcome.error is not None:
        check_error(outcome.error, data)
    check_report(outcome.report)
    lines = line_count(data)
    to_timestamp = clock_mapping(importer.clock, {}, data[:HEAD_BYTES]).to_timestamp()
    for record in outcome.records:
        assert 1 <= record.line <= lines, f"record on line {record.line}, outside the file: {record!r}"
        for time_ns in check_record(record):
            to_timestamp(time_ns)  # OverflowError or ValueError: the store could not keep it


def check_record(record: Record) -> list[int]:
    """Check the record's fields; returns the times in it that will be stored."""
    if isinstance(record, Sample):
        assert isinstance(record.comm, str), record
        assert isinstance(record.event, str), record
        assert all(type(frame) is Frame and isinstance(frame.name, str) for frame in record.stack), record
        _fits(record, INT32, record.pid, record.tid)
        _fits(record, INT16, record.cpu)
        _fits(record, INT64, record.period)  # DTrace sums may be negative
        return _times(record, record.time_ns)
    if isinstance(record, TimedEvent):
        assert isinstance(record.name, str), record
        assert isinstance(record.comm, str), record
        assert all(type(frame) is Frame for frame in record.stack), record
        _fits(record, INT32, record.pid, record.tid, record.waker_tid)
        _fits(record, INT16, record.cpu)
        _fits(record, INT64, record.duration_ns)
        end = None
        if record.start_ns is not None and record.duration_ns is not None:
            end = record.start_ns + record.duration_ns
        return _times(record, record.start_ns, end)
    if isinstance(record, MetricPoint):
        assert isinstance(record.name, str), record
        assert record.name, record
        assert type(record.value) is float, record
        return _times(record, record.time_ns)
    if isinstance(record, MetricRow):
        assert len(record.values) == len(record.series) > 0, record
        assert all(isinstance(name, str) and name for name in record.series.names), record
        assert all(type(value) is float for value in record.values), record
        return _times(record, record.time_ns)
    assert isinstance(record, Document), f"not a record: {record!r}"
    assert isinstance(record.content, dict), record
    return []


def _fits(record: Record, bound: int, *values: int | None) -> None:
    for value in values:
        assert value is None or (type(value) is int and -bound <= value < bound), record


def _times(record: Record, *times: int | None) -> list[int]:
    found = [t for t in times if t is not None]
    for time_ns in found:
        assert type(time_ns) is int, f"time {time_ns!r} is not an integer: {record!r}"
    return found


def line_count(data: bytes) -> int:
    """Lines as the importers number them: split at `\\n` only."""
    return data.count(b"\n") + 1
