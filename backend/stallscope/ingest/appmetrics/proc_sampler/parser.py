"""Stream the collector's /proc sampler output (`stallscope-proc`) into points.

The first line is the header (`{"stallscope": "proc-sampler", "version": 1, "host": ..., ...}`),
yielded whole as a document so the host and sampling interval stay with the capture; every other line
is `{"t": <epoch ns>, "name": ..., "labels": {...}, "value": ...}`. Lines map to points generically,
so a new series in the collector needs no change here; units come from the name (`proc_unit`).

The sampler writes one line per thread per tick, so this is the busiest metrics format: lines in the
collector's own layout go through one regular expression, with labels decoded once per distinct label
text; any other layout of the same JSON takes the general path.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any, BinaryIO

from stallscope.ingest.appmetrics.common import (
    Labels,
    cut,
    drop,
    empty,
    is_number,
    labels_of,
    number,
    text_lines,
)
from stallscope.ingest.appmetrics.proc_sampler.units import proc_unit
from stallscope.ingest.json_text import loads
from stallscope.ingest.model import Document, MetricPoint, ParseError, ParseReport, Record
from stallscope.ingest.value_ranges import MAX_TIME_DIGITS, MAX_TIME_NS

FORMAT = "proc-sampler"
VERSION = 1
MIN_EPOCH_NS = 10**17
"""Below this `t` is not epoch nanoseconds (it is 1973 in them, or a present-day time in ms)."""
_MAX_CACHED = 100_000
_RECORD = re.compile(
    rb'\s*\{\s*"t"\s*:\s*(\d+)\s*,\s*"name"\s*:\s*"([^"\\]+)"\s*,\s*"labels"\s*:\s*(\{[^{}]*\})\s*,'
    rb'\s*"value"\s*:\s*(-?[0-9][0-9.eE+\-]*)\s*\}\s*'
)
"""A record in the collector's own layout, with a name (an empty one goes the general way, which drops it)."""


def parse_proc_sampler(stream: BinaryIO, report: ParseReport) -> Iterator[Record]:
    """Yield the header document, then the points, of `stallscope-proc` output read from `stream`."""
    reader = text_lines(stream)
    lines = iter(reader)
    for raw in lines:
        if raw.strip():
            break
    else:
        raise empty()
    yield _header(raw, reader.number, report)
    records = _Records(report)
    for raw in lines:
        match = _RECORD.fullmatch(raw)
        if match is not None:
            point = records.fast(match, raw, reader.number)
        elif not raw.strip():
            continue
        else:
            point = records.slow(raw, reader.number, reader.cut_tail)
        if point is not None:
            yield point


def _header(raw: bytes, line: int, report: ParseReport) -> Document:
    try:
        header = loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ParseError(line, f"the proc-sampler header is not valid JSON: {exc}") from exc
    if not isinstance(header, dict) or header.get("stallscope") != FORMAT:
        raise ParseError(
            line, 'expected the proc-sampler header {"stallscope": "proc-sampler", "version": 1, ...}'
        )
    version = header.get("version")
    if version != VERSION:
        report.warn(
            line,
            f"proc-sampler version {version!r}; this importer knows version {VERSION} and reads it as that",
        )
    return Document(line, "proc-sampler-header", header)


class _Records:
    """Turns record lines into points, caching what repeats: names, units and label sets."""

    def __init__(self, report: ParseReport) -> None:
        self._report = report
        self._names: dict[bytes, tuple[str, str | None]] = {}
        self._labels: dict[bytes, Labels] = {}

    def fast(self, match: re.Match[bytes], raw: bytes, line: int) -> MetricPoint | None:
        raw_t, raw_name, raw_labels, raw_value = match.groups()
        time_ns = int(raw_t) if len(raw_t) <= MAX_TIME_DIGITS else MAX_TIME_NS + 1
        if not MIN_EPOCH_NS <= time_ns <= MAX_TIME_NS:
            drop(self._report, line, f"t {raw_t[:40].decode()} is not epoch nanoseconds")
            return None
        named = self._names.get(raw_name)
        if named is None:
            named = self._name(raw_name.decode("utf-8", "replace"), raw_name)
        labels = self._labels.get(raw_labels)
        if labels is None:
            try:
                labels = labels_of(loads(raw_labels))
            except (ValueError, UnicodeDecodeError, AttributeError):
                return self.slow(raw, line, False)  # the general path says what is wrong
            if len(self._labels) >= _MAX_CACHED:
                self._labels.clear()
            self._labels[raw_labels] = labels
        try:
            value = float(raw_value)
        except ValueError:
            drop(self._report, line, f"value {raw_value.decode('ascii', 'replace')!r} is not a number")
            return None
        return MetricPoint(line, named[0], time_ns, value, labels, named[1])

    def slow(self, raw: bytes, line: int, maybe_cut: bool) -> MetricPoint | None:
        """Any other layout of a record, and every broken line, with the reason it is dropped."""
        try:
            obj = loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            if maybe_cut:
                cut(self._report, line)
            else:
                drop(self._report, line, f"not valid JSON ({exc})")
            return None
        if not isinstance(obj, dict):
            drop(self._report, line, "not a JSON object")
            return None
        if obj.get("stallscope") == FORMAT:
            self._report.warn(line, "a second proc-sampler header (the sampler restarted?); reading on")
            return None
        return self._record(obj, line)

    def _record(self, obj: dict[str, Any], line: int) -> MetricPoint | None:
        t, name, value, labels = obj.get("t"), obj.get("name"), obj.get("value"), obj.get("labels", {})
        if not is_number(t) or not math.isfinite(t):  # type: ignore[arg-type]
            drop(self._report, line, f"t {t!r:.40} is not epoch nanoseconds")
            return None
        if not isinstance(name, str) or not name:
            drop(self._report, line, f"name {name!r} is not a non-empty string")
            return None
        if not is_number(value):
            drop(self._report, line, f"value {value!r} is not a number")
            return None
        if not isinstance(labels, dict):
            drop(self._report, line, "labels is not an object")
            return None
        time_ns = round(t)  # type: ignore[arg-type]
        if not MIN_EPOCH_NS <= time_ns <= MAX_TIME_NS:
            drop(self._report, line, f"t {time_ns} is not epoch nanoseconds")
            return None
        unit = self._name(name, name.encode())[1]
        return MetricPoint(line, name, time_ns, number(value), labels_of(labels), unit)

    def _name(self, name: str, raw: bytes) -> tuple[str, str | None]:
        named = (name, proc_unit(name))
        if len(self._names) < _MAX_CACHED:
            self._names[raw] = named
        return named
