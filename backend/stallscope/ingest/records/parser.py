"""Read a `stallscope-records` file back into canonical records (the layout: `export.records`).

The stored rows come back as the records that stored them: a sample's weight as its period when its
event was weighted (else one per sample, as stored), times as the epoch instants they were stored at
(the importer's clock is wall-clock, so nothing is aligned again), each stack as one shared tuple. The
original parse's report (its dropped lines, warnings and the bounds it reached) is replayed into this
one, so the capture tells the same story. A line that cannot be read is dropped with a warning naming
it and why; the header must be readable, or nothing is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO

from stallscope.ingest.json_text import loads
from stallscope.ingest.model import (
    CaptureOrigin,
    Document,
    EventKind,
    Frame,
    FrameKind,
    MetricPoint,
    ParseError,
    ParseReport,
    Record,
    Sample,
    Stack,
    TimedEvent,
)
from stallscope.ingest.records import format as fmt
from stallscope.ingest.text_lines import TextLines, drop_line, note_cut_tail

INT16 = 1 << 15
INT32 = 1 << 31
INT64 = 1 << 63
FRAME_KINDS = {kind.value: kind for kind in FrameKind}
EVENT_KINDS = {kind.value: kind for kind in EventKind}
COUNTED = {fmt.SAMPLE: "samples", fmt.EVENT: "events", fmt.POINT: "metric_points", fmt.DOCUMENT: "documents"}
"""Record lines, by the `record_counts` key the header counts them under."""
MAX_LIMITS = 16
"""Bounds an original parse can have reached (four today); a header listing more is not believed."""


class BadLine(ValueError):
    """A line that does not hold what its kind says; the message says what is wrong."""


def parse_records(stream: BinaryIO, report: ParseReport) -> Iterator[Record]:
    lines = TextLines(stream)
    reader: _Reader | None = None
    for first, batch in lines.batches():
        for number, line in enumerate(batch, first):
            if reader is None:
                reader = _Reader(_header(line), report)
                continue
            if not line.strip():
                continue
            try:
                record = reader.read(number, line)
            except (BadLine, ValueError) as exc:
                drop_line(lines, report, number, f"{exc}; dropped the line")
                continue
            if record is not None:
                yield record
    note_cut_tail(lines, report, "record")
    if reader is None:
        raise ParseError(1, f"empty: no {fmt.FORMAT} header")
    reader.check_counts()


def _header(line: bytes) -> dict[str, Any]:
    try:
        header = loads(line)
    except ValueError as exc:
        raise ParseError(1, f"the header is not JSON: {exc}") from exc
    if not isinstance(header, dict) or header.get("format") != fmt.FORMAT:
        raise ParseError(
            1, f'not a {fmt.FORMAT} file (its first line must be {{"format": "{fmt.FORMAT}", ...}})'
        )
    version = header.get("version")
    if type(version) is not int or not 1 <= version <= fmt.VERSION:
        raise ParseError(
            1, f"{fmt.FORMAT} version {version!r}: this console reads versions 1 to {fmt.VERSION}"
        )
    capture = header.get("capture")
    if not isinstance(capture, dict):
        raise ParseError(1, "the header has no capture object")
    return capture


class _Reader:
    """The state a file is read with: its dictionary so far and what its header said."""

    def __init__(self, capture: dict[str, Any], report: ParseReport) -> None:
        self._frames: dict[int, Frame] = {}
        self._stacks: dict[int, Stack] = {}
        self._series: dict[int, tuple[str, tuple[tuple[str, str], ...], str | None]] = {}
        self._report = report
        self._counts: dict[str, int] = dict.fromkeys(COUNTED.values(), 0)
        self._expected = _expected_counts(capture)
        events = capture.get("sample_events")
        self._weighted = {
            e["name"]
            for e in (events if isinstance(events, list) else [])
            if isinstance(e, dict)
            and isinstance(e.get("name"), str)
            and e.get("unit", "samples") != "samples"
        }
        _replay_report(capture.get("report"), report)
        report.origin = _origin(capture, report)
        self._kinds = {
            fmt.FRAME: self._frame,
            fmt.STACK: self._stack,
            fmt.SAMPLE: self._sample,
            fmt.EVENT: self._event,
            fmt.SERIES: self._series_line,
            fmt.POINT: self._point,
            fmt.DOCUMENT: self._document,
        }
        self._unknown: set[str] = set()

    def read(self, number: int, line: bytes) -> Record | None:
        fields = loads(line)
        if not isinstance(fields, list) or not fields or not isinstance(fields[0], str):
            raise BadLine('not a record line (expected ["kind", ...])')
        kind = fields[0]
        handler = self._kinds.get(kind)
        if handler is None:
            if kind not in self._unknown:  # a newer writer's addition: say so once, read on
                self._unknown.add(kind)
                self._report.warn(
                    number, f"skipped lines of unknown kind {kind!r} (written by a newer version?)"
                )
            return None
        record = handler(number, fields)
        if record is not None and kind in COUNTED:
            self._counts[COUNTED[kind]] += 1
        return record

    def check_counts(self) -> None:
        """Warn when the file holds fewer records than its header counted: it was cut or edited."""
        for name, expected in self._expected.items():
            found = self._counts[name]
            if found != expected:
                self._report.warn(
                    0, f"the header counts {expected:,} {name.replace('_', ' ')}, the file holds {found:,}"
                )

    def _frame(self, number: int, f: list[Any]) -> None:
        _arity(f, 4)
        kind = FRAME_KINDS.get(f[2]) if isinstance(f[2], str) else None
        if kind is None:
            raise BadLine(f"unknown frame kind {f[2]!r}")
        self._frames[_int(f[1], "frame id", INT64)] = Frame(_str(f[3], "frame name"), kind)

    def _stack(self, number: int, f: list[Any]) -> None:
        _arity(f, 3)
        if not isinstance(f[2], list):
            raise BadLine("a stack's frames must be a list of frame ids")
        try:
            stack = tuple(self._frames[frame_id] for frame_id in f[2])
        except (KeyError, TypeError):
            raise BadLine("the stack names a frame the file has not defined") from None
        self._stacks[_int(f[1], "stack id", INT64)] = stack

    def _stack_of(self, value: Any) -> Stack:
        if value is None:
            return ()
        try:
            return self._stacks[value]
        except (KeyError, TypeError):
            raise BadLine(f"stack {value!r} is not defined above") from None

    def _sample(self, number: int, f: list[Any]) -> Sample:
        _arity(f, 9)
        event = _str(f[6], "event")
        weight = _int(f[7], "weight", INT64)
        period = weight if weight != 1 or event in self._weighted else None
        self._report.samples += 1
        return Sample(
            number,
            _str(f[4], "comm"),
            _opt_int(f[2], "pid", INT32),
            _opt_int(f[3], "tid", INT32),
            _opt_int(f[5], "cpu", INT16),
            _opt_int(f[1], "time", INT64),
            event,
            period,
            self._stack_of(f[8]),
        )

    def _event(self, number: int, f: list[Any]) -> TimedEvent:
        _arity(f, 15)
        kind = EVENT_KINDS.get(f[3]) if isinstance(f[3], str) else None
        if kind is None:
            raise BadLine(f"unknown event kind {f[3]!r}")
        attrs = f[14]
        if attrs is not None and not isinstance(attrs, dict):
            raise BadLine("an event's attrs must be an object or null")
        return TimedEvent(
            number,
            kind,
            _str(f[4], "name"),
            _opt_int(f[1], "time", INT64),
            _opt_int(f[2], "duration", INT64),
            pid=_opt_int(f[5], "pid", INT32),
            tid=_opt_int(f[6], "tid", INT32),
            comm=_str(f[7], "comm"),
            cpu=_opt_int(f[8], "cpu", INT16),
            state=_opt_str(f[9], "state"),
            stack=self._stack_of(f[10]),
            waker_tid=_opt_int(f[11], "waker tid", INT32),
            args=_opt_str(f[12], "args"),
            result=_opt_str(f[13], "result"),
            attrs=attrs or {},
        )

    def _series_line(self, number: int, f: list[Any]) -> None:
        _arity(f, 5)
        name = _str(f[2], "series name")
        if not name:
            raise BadLine("a series without a name")
        labels = f[3]
        if not isinstance(labels, dict) or not all(isinstance(v, str) for v in labels.values()):
            raise BadLine("a series' labels must be an object of strings")
        self._series[_int(f[1], "series id", INT64)] = (
            name,
            tuple(sorted(labels.items())),
            _opt_str(f[4], "unit"),
        )

    def _point(self, number: int, f: list[Any]) -> MetricPoint:
        _arity(f, 4)
        try:
            name, labels, unit = self._series[f[1]]
        except (KeyError, TypeError):
            raise BadLine(f"series {f[1]!r} is not defined above") from None
        return MetricPoint(number, name, _int(f[2], "time", INT64), _value(f[3]), labels, unit)

    def _document(self, number: int, f: list[Any]) -> Document:
        _arity(f, 3)
        if not isinstance(f[2], dict):
            raise BadLine("a document's content must be an object")
        return Document(number, _str(f[1], "document kind"), f[2])


def _expected_counts(capture: dict[str, Any]) -> dict[str, int]:
    counts = capture.get("counts")
    records = counts.get("records") if isinstance(counts, dict) else None
    if not isinstance(records, dict):
        return {}
    return {name: n for name in COUNTED.values() if type(n := records.get(name, 0)) is int}


def _origin(capture: dict[str, Any], report: ParseReport) -> CaptureOrigin | None:
    """The format and clock mapping of the capture the records came from, when the header names them."""
    from stallscope.ingest.registry import importers  # the registry lists this importer: import late

    name, clock = capture.get("format"), capture.get("clock")
    if not isinstance(name, str) or not isinstance(clock, dict):
        return None
    if name not in {importer.name for importer in importers()} - {fmt.FORMAT}:
        report.warn(
            1, f"the records came from a capture in format {name!r}, which this console does not know"
        )
        return None
    return CaptureOrigin(name, clock)


def _replay_report(original: Any, report: ParseReport) -> None:
    """The original parse's report, told again: what the upload lacked, the records lack too."""
    if not isinstance(original, dict):
        return
    dropped = original.get("dropped_lines")
    if type(dropped) is int and dropped > 0:
        report.dropped_lines += dropped
    if original.get("truncated") is True:
        report.truncated = True
    for key, tell, most in (("limits", report.limit_reached, MAX_LIMITS), ("warnings", report.warn, None)):
        warnings = original.get(key)
        for warning in warnings[:most] if isinstance(warnings, list) else ():
            message = warning.get("message") if isinstance(warning, dict) else None
            if isinstance(message, str) and message.strip():
                line = warning.get("line")
                tell(line if type(line) is int and line >= 0 else 0, message)


def _arity(fields: list[Any], size: int) -> None:
    if len(fields) != size:
        raise BadLine(f"a {fields[0]} line has {size} fields, this one {len(fields)}")


def _int(value: Any, what: str, bound: int) -> int:
    if type(value) is not int or not -bound <= value < bound:
        raise BadLine(f"{what} {value!r} is not an integer that fits")
    return value


def _opt_int(value: Any, what: str, bound: int) -> int | None:
    return None if value is None else _int(value, what, bound)


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise BadLine(f"{what} {value!r} is not a string")
    return value


def _opt_str(value: Any, what: str) -> str | None:
    return None if value is None else _str(value, what)


def _value(value: Any) -> float:
    if type(value) is float:
        return value
    if type(value) is int and -INT64 <= value < INT64:
        return float(value)
    if isinstance(value, str) and value in fmt.NON_FINITE:
        return fmt.NON_FINITE[value]
    raise BadLine(f"metric value {value!r} is not a number")
