"""Read an anchor file: pairs of (capture clock, CLOCK_REALTIME) readings, as a table or as JSON.

The result is one `clock-anchors` document for the capture. It holds the pairs, their median
offset (realtime minus capture clock: the median resists one pair read across a context switch)
and their spread. The console uses it to align the host's other captures (`captures/host_clock.py`).
Pairs that cannot be read are dropped with a warning naming the line; a spread wider than
`WIDE_SPREAD_NS` is reported, because it means an NTP step, a suspend, or two clocks that were not
the ones the columns claim.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from statistics import median_low
from typing import Any, BinaryIO

from stallscope.ingest.appmetrics.timestamps import BadTime, EpochUnit, TimeReader
from stallscope.ingest.clock_anchors.columns import AnchorColumns, find_anchor_columns
from stallscope.ingest.json_text import loads
from stallscope.ingest.model import Document, ParseError, ParseReport, Record
from stallscope.ingest.text_lines import TextStream, reject_non_text

DOCUMENT_KIND = "clock-anchors"
MAX_ANCHOR_BYTES = 64 << 20
"""Anchor files are a few lines; anything near this is something else, refused rather than held."""
MAX_ANCHORS = 100_000
HEADER_SEARCH_LINES = 64
"""Comment lines the header may follow."""
KEPT_ANCHORS = 1_000
"""Pairs kept in the document, evenly spread, to show and to check by eye; the offset uses them all."""
WIDE_SPREAD_NS = 50_000_000
EARLIEST_REALTIME_NS = 946_684_800 * 1_000_000_000
"""2000-01-01: a realtime reading before it is a capture clock in the wrong column."""
_DELIMITERS = (",", "\t", ";")
_SCALES = {unit.scale_ns: unit for unit in EpochUnit}


def parse_anchor_file(stream: BinaryIO, report: ParseReport) -> Iterator[Record]:
    text = _read_text(stream, report)
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        pairs, perf_clock = _json_pairs(text, report)
    else:
        pairs, perf_clock = _table_pairs(text, report)
    if not pairs.sources:
        raise ParseError(0, "no clock anchor could be read (each needs a capture-clock and a realtime value)")
    yield Document(1, DOCUMENT_KIND, _document(pairs, perf_clock, report))


def _read_text(stream: BinaryIO, report: ParseReport) -> str:
    pieces: list[bytes] = []
    size = 0
    text = TextStream(stream)
    for piece in text:
        if not pieces:
            reject_non_text(piece, "a clock anchor file")
        size += len(piece)
        if size > MAX_ANCHOR_BYTES:
            raise ParseError(0, f"an anchor file larger than {MAX_ANCHOR_BYTES >> 20} MiB is not one")
        pieces.append(piece)
    if text.cut_short:
        report.truncated = True
        report.warn(0, "the compressed stream ends early; kept the anchors before the damage")
    return b"".join(pieces).decode("utf-8", "replace")


def _document(pairs: Pairs, perf_clock: bool, report: ParseReport) -> dict[str, object]:
    offsets = [real - source for source, real in zip(pairs.sources, pairs.realtimes, strict=True)]
    spread = max(offsets) - min(offsets)
    if spread > WIDE_SPREAD_NS:
        report.warn(
            0,
            f"the anchors disagree by {spread / 1e6:,.1f} ms (an NTP step, a suspend, or not the clocks "
            "the columns name?); the median offset is used",
        )
    step = max(1, len(offsets) // KEPT_ANCHORS)
    kept = zip(pairs.sources[::step], pairs.realtimes[::step], strict=True)
    return {
        "source_clock": "perf" if perf_clock else "monotonic",
        "offset_ns": median_low(offsets),
        "spread_ns": spread,
        "count": len(offsets),
        "anchors": [{"monotonic_ns": source, "realtime_ns": real} for source, real in kept],
    }


class Pairs:
    """The anchors read so far, as two columns: a million pairs as tuples cost more to build (and
    for the garbage collector to walk) than reading them."""

    def __init__(self) -> None:
        self.sources: list[int] = []
        self.realtimes: list[int] = []

    def append(self, source: int, realtime: int) -> None:
        self.sources.append(source)
        self.realtimes.append(realtime)

    def extend(self, sources: list[int], realtimes: list[int]) -> None:
        self.sources += sources
        self.realtimes += realtimes


class _PairReader:
    """Both readings of one anchor to nanoseconds, holding the file to one unit per column."""

    def __init__(self, columns: AnchorColumns, report: ParseReport) -> None:
        self._columns = columns
        self._report = report
        named = _SCALES.get(columns.realtime_scale_ns or 0)
        self._realtime = TimeReader(ParseReport(), named)
        self.pairs = Pairs()
        self.dropped_for_limit = 0

    def add(self, source_text: str, realtime_text: str, line: int) -> None:
        try:
            realtime = self._realtime.text(realtime_text.strip(), line)
            source = self._source_ns(source_text.strip())
        except (BadTime, ValueError) as exc:
            _drop(self._report, line, f"not a clock anchor: {exc}")
            return
        if realtime < EARLIEST_REALTIME_NS:
            _drop(self._report, line, f"realtime value {realtime_text.strip()!r} is before the year 2000")
            return
        if len(self.pairs.sources) >= MAX_ANCHORS:
            self.dropped_for_limit += 1
            return
        self.pairs.append(source, realtime)

    @property
    def realtime_scale_ns(self) -> int:
        """Nanoseconds per unit of the realtime numbers, once a line has set it (0 before, or ISO)."""
        return self._realtime.scale_ns

    def read_plain_pairs(self, body: str, delimiter: str | None, first_line: int) -> bool:
        """Every data line of a two-column table at once, when each is two plain numbers; False
        (nothing added) otherwise. Splitting the body into one list of tokens is done in C: a
        file of a hundred thousand pairs reads at the speed of its `int()`s."""
        tokens = (body.replace(delimiter, " ") if delimiter else body).split()
        if not tokens or len(tokens) % 2 or len(tokens) > 2 * MAX_ANCHORS:
            return False
        source_at, realtime_at = self._columns.source, self._columns.realtime
        sources, realtimes = tokens[source_at::2], tokens[realtime_at::2]
        report = self._report
        dropped, warned = report.dropped_lines, len(report.warnings)
        self.add(sources[0], realtimes[0], first_line)
        if self.pairs.sources and self.bulk(sources[1:], realtimes[1:]):
            return True
        self.pairs = Pairs()
        report.dropped_lines = dropped  # the line-by-line reading says it again, with the right line
        del report.warnings[warned:]
        return False

    def bulk_ints(self, sources: list[int], realtimes: list[int]) -> bool:
        """`bulk` for JSON integers, which need no parsing: only the units set so far."""
        reader = self._realtime
        scale = reader.scale_ns
        if not realtimes:
            return True
        if not scale or min(realtimes) < reader.low or max(realtimes) >= reader.high:
            return False
        source_scale = self._columns.source_scale_ns or scale
        real = realtimes if scale == 1 else [value * scale for value in realtimes]
        source = sources if source_scale == 1 else [value * source_scale for value in sources]
        if min(real) < EARLIEST_REALTIME_NS or min(source) < 0:
            return False
        self.pairs.extend(source, real)
        return True

    def bulk(self, sources: list[str], realtimes: list[str]) -> bool:
        """Add every pair at once when all are plain numbers in the units set so far; False (and
        nothing added) when any is not, for the caller to go line by line and name the bad ones."""
        reader = self._realtime
        try:
            realtime = _column_ns(realtimes, reader.scale_ns)
            source = _column_ns(sources, self._columns.source_scale_ns, reader.scale_ns)
        except (ValueError, IndexError):
            return False
        if realtime and (min(realtime) < max(EARLIEST_REALTIME_NS, reader.low * reader.scale_ns)):
            return False
        if realtime and max(realtime) >= reader.high * reader.scale_ns:
            return False
        self.pairs.extend(source, realtime)
        return True

    def _source_ns(self, text: str) -> int:
        scale = self._columns.source_scale_ns
        whole, dot, frac = text.partition(".")
        if not whole.isdigit() or (dot and not frac.isdigit()):
            raise ValueError(f"capture-clock value {text[:40]!r} is not a number")
        if dot:  # a decimal: seconds, unless the name says otherwise (perf prints seconds.micros)
            scale = scale or 1_000_000_000
            frac = frac[:9]
            return int(whole) * scale + int(frac.ljust(9, "0")) * scale // 1_000_000_000
        # An integer with no unit in its name: the unit the realtime column uses, else nanoseconds
        # (what clock_gettime and the collector give).
        return int(whole) * (scale or self._realtime.scale_ns or 1)


def _table_pairs(text: str, report: ParseReport) -> tuple[Pairs, bool]:
    head = text.split("\n", HEADER_SEARCH_LINES)[:HEADER_SEARCH_LINES]
    header_index = next((i for i, line in enumerate(head) if line.strip() and line[:1] != "#"), None)
    if header_index is None:
        return Pairs(), False
    header = head[header_index].rstrip("\r")
    delimiter = _delimiter(header)
    names = [name.strip().strip('"').lstrip("#").strip() for name in header.split(delimiter)]
    columns = find_anchor_columns(names)
    if columns is None:
        raise ParseError(
            header_index + 1,
            f"the header {header[:120]!r} names no capture-clock column (monotonic, uptime, "
            "perf…) and realtime column (realtime, wall, epoch…) pair",
        )
    reader = _PairReader(columns, report)
    body = text.split("\n", header_index + 1)[-1] if len(head) > header_index + 1 else ""
    if len(names) == 2 and reader.read_plain_pairs(body, delimiter, header_index + 2):
        return reader.pairs, columns.perf_clock
    lines = _lines(text)
    first = header_index + 1
    numbers = [n for n, line in enumerate(lines[first:], first + 1) if line.strip() and line[0] != "#"]
    if len(numbers) > MAX_ANCHORS:  # the rest cannot move a median of this many: count them only
        reader.dropped_for_limit = len(numbers) - MAX_ANCHORS
        del numbers[MAX_ANCHORS:]
    rows = [lines[n - 1].split(delimiter) for n in numbers]
    source_at, realtime_at = columns.source, columns.realtime
    wanted = max(source_at, realtime_at)
    for count, (number, fields) in enumerate(zip(numbers, rows, strict=True)):
        if len(fields) <= wanted:
            _drop(report, number, f"{len(fields)} fields, the header has {len(names)}")
            continue
        reader.add(fields[source_at].strip(' "'), fields[realtime_at].strip(' "'), number)
        if reader.realtime_scale_ns:  # the first good line set the units: try the rest in bulk
            rest = rows[count + 1 :]
            try:
                bulk = reader.bulk([f[source_at] for f in rest], [f[realtime_at] for f in rest])
            except IndexError:
                bulk = False
            if not bulk:
                for number, fields in zip(numbers[count + 1 :], rest, strict=True):
                    if len(fields) <= wanted:
                        _drop(report, number, f"{len(fields)} fields, the header has {len(names)}")
                        continue
                    reader.add(fields[source_at].strip(' "'), fields[realtime_at].strip(' "'), number)
            break
    _tell_limit(reader, report)
    return reader.pairs, columns.perf_clock


@cache
def _same_width_decimals(width: int) -> re.Pattern[str]:
    return re.compile(rf"\d+\.\d{{{width}}}(?: \d+\.\d{{{width}}})*")


def _column_ns(values: list[str], scale: int | None, integer_scale: int | None = None) -> list[int]:
    """Plain numbers to ns: decimals in `scale` (seconds when None), integers in `scale`, else in
    `integer_scale`, else ns. ValueError at the first value that is not a plain number."""
    joined = "".join(values)
    if joined.isdigit():
        factor = scale or integer_scale or 1
        return list(map(int, values)) if factor == 1 else [int(value) * factor for value in values]
    factor = scale or 1_000_000_000
    digits = len(str(factor)) - 1
    width = len(values[0].partition(".")[2]) if values else 0
    spaced = " ".join(values)
    # Every value one decimal point and the same fraction width (what printf writes): checked by one
    # match in C, then read without the points as integers of the fraction's unit.
    if 0 < width <= digits and _same_width_decimals(width).fullmatch(spaced):
        unit = factor // 10**width  # "12.345678" in s, width 6: 12345678 µs
        scaled = map(int, spaced.replace(".", "").split())
        return list(scaled) if unit == 1 else [value * unit for value in scaled]
    out = []
    for value in values:
        whole, _, frac = value.partition(".")
        if not whole.isdigit() or (frac and not frac.isdigit()):
            raise ValueError(value)
        out.append(int(whole) * factor + (int(frac[:digits].ljust(digits, "0")) if digits else 0))
    return out


def _delimiter(header: str) -> str | None:
    """The header's field separator; None (any run of blanks, as `str.split` takes it) when none."""
    return next((delimiter for delimiter in _DELIMITERS if delimiter in header), None)


def _json_pairs(text: str, report: ParseReport) -> tuple[Pairs, bool]:
    objects, perf_clock = _json_objects(text)
    objects = [(line, o) for line, o in objects if isinstance(o, dict)]
    if not objects:
        return Pairs(), perf_clock
    keys = list(objects[0][1])
    columns = find_anchor_columns(keys)
    if columns is None:
        raise ParseError(objects[0][0], f"the keys {keys[:8]} name no capture-clock and realtime pair")
    source_key, realtime_key = keys[columns.source], keys[columns.realtime]
    reader = _PairReader(columns, report)
    sources = [item.get(source_key) for _, item in objects]
    realtimes = [item.get(realtime_key) for _, item in objects]
    if _all_int(sources) and _all_int(realtimes) and len(objects) <= MAX_ANCHORS:
        reader.add(str(sources[0]), str(realtimes[0]), objects[0][0])
        if reader.pairs.sources and reader.bulk_ints(sources[1:], realtimes[1:]):
            return reader.pairs, perf_clock or columns.perf_clock
        reader = _PairReader(columns, report)
    for line, item in objects:
        source, realtime = item.get(source_key), item.get(realtime_key)
        if source is None or realtime is None or isinstance(source, bool) or isinstance(realtime, bool):
            _drop(report, line, f"an anchor without both {source_key!r} and {realtime_key!r}")
            continue
        reader.add(_number_text(source), _number_text(realtime), line)
    _tell_limit(reader, report)
    return reader.pairs, perf_clock or columns.perf_clock


def _all_int(values: list[Any]) -> bool:
    """Every value a JSON integer (`bool` is an int to Python, not to JSON)."""
    return set(map(type, values)) == {int}


def _number_text(value: object) -> str:
    return repr(value) if isinstance(value, float) else str(value)


def _json_objects(text: str) -> tuple[list[tuple[int, Any]], bool]:
    """The anchor objects of `{"anchors": [...]}`, of a list, or of JSON lines, with line numbers."""
    try:
        value = loads(text)
    except ValueError:
        return _json_lines(text), False
    if isinstance(value, dict) and isinstance(value.get("anchors"), list):
        # The collector's clock.json: `perf_clock` says which clock perf recorded on.
        perf_clock = value.get("perf_clock") == "default"
        return [(1, item) for item in value["anchors"]], perf_clock
    if isinstance(value, list):
        return [(1, item) for item in value], False
    return [(1, value)], False


_JSON_LINE = re.compile(r"\s*\{")


def _json_lines(text: str) -> list[tuple[int, Any]]:
    lines = _lines(text)
    numbers = [n for n, line in enumerate(lines, 1) if _JSON_LINE.match(line)]
    if len(numbers) == len(lines) or (len(numbers) == len(lines) - 1 and not lines[-1].strip()):
        try:  # one decoder call for the whole file; line by line only to name a bad line
            every = loads("[" + ",".join(lines[n - 1] for n in numbers) + "]")
        except ValueError:
            pass
        else:
            return list(zip(numbers, every, strict=True))
    objects: list[tuple[int, Any]] = []
    for number, line in enumerate(_lines(text), 1):
        if not _JSON_LINE.match(line):
            continue
        try:
            objects.append((number, loads(line)))
        except ValueError as exc:
            raise ParseError(number, f"not a JSON object: {exc}") from exc
    return objects


def _tell_limit(reader: _PairReader, report: ParseReport) -> None:
    if reader.dropped_for_limit:
        report.warn(0, f"{reader.dropped_for_limit:,} anchors past the first {MAX_ANCHORS:,} were ignored")


def _lines(text: str) -> list[str]:
    """Lines as every importer numbers them: split at newlines only (a lone carriage return, or a
    form feed, is not a line break to the other tools a person checks a line number with)."""
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def _drop(report: ParseReport, line: int, message: str) -> None:
    report.dropped_lines += 1
    report.warn(line, message)
