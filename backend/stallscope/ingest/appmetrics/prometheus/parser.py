"""Stream a Prometheus query result (`/api/v1/query_range`, or an instant `/api/v1/query`) into points.

The document is `{"status": "success", "data": {"resultType": "matrix", "result": [series...]}}`,
each series `{"metric": {"__name__": ..., labels...}, "values": [[<epoch s>, "<value>"], ...]}`
(`"value": [...]` for an instant vector); a bare `data` object is read too. It is walked forward, not
loaded (see `stream`), and `[t, "v"]` pairs, nearly all of the bytes, are read by regular expression:
runs of plain pairs on one line a run at a time (`pairs`), any other pair on its own. Timestamps are
epoch seconds with a fraction, converted exactly; values are text, `NaN` and `±Inf` included. A
series whose values come before its labels (legal JSON, never written by Prometheus) is held in
memory until the labels arrive.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import chain, repeat
from typing import Any, BinaryIO

from stallscope.ingest.appmetrics.common import Labels, drop, empty, label_text
from stallscope.ingest.appmetrics.prometheus.pairs import Pairs, read_run
from stallscope.ingest.appmetrics.prometheus.stream import JsonStream
from stallscope.ingest.appmetrics.units import unit_from_name
from stallscope.ingest.model import MetricPoint, ParseError, ParseReport
from stallscope.ingest.value_ranges import fits_time

UNNAMED = "result"
"""The name of series without `__name__` (results of expressions such as `rate(x[5m])`)."""
_PAIR = re.compile(r'\[\s*([0-9]{1,11})(?:\.([0-9]{1,9})[0-9]*)?\s*,\s*"([^"\\]*)"\s*\]\s*([,\]])')
_FRACTION_SCALE: tuple[int, ...] = tuple(10 ** (9 - digits) for digits in range(10))
_NEAR_END = 256


def parse_prometheus(stream: BinaryIO, report: ParseReport) -> Iterator[MetricPoint]:
    """Yield the points of a Prometheus query result read from `stream`."""
    # Runs of points are handed over whole: chaining them adds no generator step per point.
    return chain.from_iterable(_document(stream, report))


def _document(stream: BinaryIO, report: ParseReport) -> Iterator[Iterable[MetricPoint]]:
    js = JsonStream(stream)
    if js.peek() == "":
        raise empty()
    status: Any = "success"
    failure: dict[str, Any] = {}
    found = False
    for key in js.members():
        if key == "status":
            status = js.value()
        elif key in ("error", "errorType"):
            failure[key] = js.value()
        elif key == "data":
            for data_key in js.members():
                found = found or data_key == "result"
                yield from _data_member(js, data_key, report)
        else:
            found = found or key == "result"
            yield from _data_member(js, key, report)
    if status != "success":
        reason = ": ".join(str(failure[k]) for k in ("errorType", "error") if k in failure)
        raise ParseError(0, f"the query failed ({reason or status})")
    if not found:
        raise ParseError(0, 'no "result" in the document: expected a Prometheus query_range response')


def _data_member(js: JsonStream, key: str, report: ParseReport) -> Iterator[Iterable[MetricPoint]]:
    if key == "resultType":
        kind = js.value()
        if kind not in ("matrix", "vector"):
            raise ParseError(js.line(), f"a {kind!r} result has no series; expected a range query (matrix)")
    elif key == "result":
        if js.peek() != "[":
            raise ParseError(js.line(), "the result is not a list of series")
        series = _Series(report)
        for _ in js.elements():
            yield from series.read(js)


class _Series:
    """Reads one series object at a time, keeping what repeats between series (names' units)."""

    def __init__(self, report: ParseReport) -> None:
        self._report = report
        self._told_unnamed = False
        self._told_histograms = False

    def read(self, js: JsonStream) -> Iterator[Iterable[MetricPoint]]:
        named: tuple[str, Labels, str | None] | None = None
        held: list[Pairs] = []
        report = self._report
        for key in js.members():
            if key == "metric":
                named = self._metric(js)
                yield from self._points(held, named)
                held.clear()
            elif key in ("values", "value"):
                batches = _pairs(js, report) if key == "values" else _instant(js, report)
                if named is None:
                    held.extend(batches)
                    continue
                for batch in batches:
                    yield self._batch(batch, named)
            elif key in ("histograms", "histogram") and not self._told_histograms:
                report.warn(js.line(), "native histograms are not read; only float samples are")
                self._told_histograms = True
        if held:
            yield from self._points(held, self._metric_missing(js))

    def _metric(self, js: JsonStream) -> tuple[str, Labels, str | None]:
        line = js.line()
        metric = js.value()
        if not isinstance(metric, dict):
            raise ParseError(line, f'"metric" is not an object: {metric!r:.80}')
        name = metric.pop("__name__", None)
        if not isinstance(name, str) or not name:
            name = UNNAMED
            if not self._told_unnamed:
                self._report.warn(line, f"series without __name__ (expression results) are named {UNNAMED!r}")
                self._told_unnamed = True
        labels = tuple(sorted((str(k), label_text(v)) for k, v in metric.items()))
        return name, labels, unit_from_name(name)

    def _metric_missing(self, js: JsonStream) -> tuple[str, Labels, str | None]:
        if not self._told_unnamed:
            self._report.warn(js.line(), f'a series without "metric"; named {UNNAMED!r}')
            self._told_unnamed = True
        return UNNAMED, (), None

    def _points(
        self, batches: list[Pairs], named: tuple[str, Labels, str | None]
    ) -> Iterator[Iterable[MetricPoint]]:
        for batch in batches:
            yield self._batch(batch, named)

    def _batch(self, batch: Pairs, named: tuple[str, Labels, str | None]) -> Iterable[MetricPoint]:
        """The points of pairs that share a line; a value that is not a number is dropped, and said."""
        line, times, texts = batch
        name, labels, unit = named
        try:
            values = list(map(float, texts))
        except ValueError:
            return list(self._one_by_one(batch, named))
        return map(MetricPoint, repeat(line), repeat(name), times, values, repeat(labels), repeat(unit))

    def _one_by_one(self, batch: Pairs, named: tuple[str, Labels, str | None]) -> Iterator[MetricPoint]:
        line, times, texts = batch
        name, labels, unit = named
        for time_ns, text in zip(times, texts, strict=True):
            try:
                value = float(text)
            except ValueError:
                drop(self._report, line, f"value {text!r} of {name} is not a number", "value")
                continue
            yield MetricPoint(line, name, time_ns, value, labels, unit)


def _pairs(js: JsonStream, report: ParseReport) -> Iterator[Pairs]:
    """The `[t, "v"]` pairs of a `values` array: by regular expression, or decoded when unusual."""
    js.expect("[")
    if js.peek() == "]":
        js.pos += 1
        return
    match_pair = _PAIR.match
    while True:
        if len(js.buf) - js.pos < _NEAR_END:
            js.fill()
        run = read_run(js.buf, js.pos)
        if run is not None:
            times, texts, end = run
            line = js.line()
            js.pos = end  # after the last pair's `,`: more pairs follow
            yield line, times, texts
            continue
        match = match_pair(js.buf, js.pos)
        if match is not None:
            line = js.line()
            js.pos = match.end()
            whole, frac, text, separator = match.groups()
            time_ns = int(whole) * 1_000_000_000
            if frac:
                time_ns += int(frac) * _FRACTION_SCALE[len(frac)]
            yield line, [time_ns], [text]
        else:
            line = js.line()
            pair = _one_pair(js.value(), line, report)
            if pair is not None:
                yield pair
            separator = js.peek()
            js.pos += 1
        if separator == "]":
            return
        if separator != ",":
            raise ParseError(
                js.line(), f"expected ',' or ']' between values, found {separator or 'the end'!r}"
            )


def _instant(js: JsonStream, report: ParseReport) -> list[Pairs]:
    """The single `[t, "v"]` of an instant vector's `value`."""
    line = js.line()
    pair = _one_pair(js.value(), line, report)
    return [] if pair is None else [pair]


def _one_pair(value: object, line: int, report: ParseReport) -> Pairs | None:
    if not (isinstance(value, list) and len(value) == 2 and isinstance(value[1], str)):
        drop(report, line, f'expected [<time>, "<value>"], found {value!r:.80}', "value")
        return None
    time_ns = seconds_to_ns(repr(value[0]) if isinstance(value[0], float) else str(value[0]))
    if time_ns is None:
        drop(report, line, f"timestamp {value[0]!r:.40} is not a time in epoch seconds", "value")
        return None
    return line, [time_ns], [value[1]]


def seconds_to_ns(text: str) -> int | None:
    """Epoch seconds as Prometheus writes them (`1700000000.123`) to nanoseconds, exactly; None if
    they are not a time."""
    try:
        time_ns = _seconds_to_ns(text)
    except (ValueError, OverflowError):  # NaN or infinite, or more digits than int() takes
        return None
    return time_ns if time_ns is not None and fits_time(time_ns) else None


def _seconds_to_ns(text: str) -> int | None:
    whole, dot, frac = text.partition(".")
    if frac.isdigit() and whole.lstrip("-").isdigit():
        ns = abs(int(whole)) * 1_000_000_000 + int(frac[:9].ljust(9, "0"))
        return -ns if whole.startswith("-") else ns
    if not dot and whole.lstrip("-").isdigit():
        return int(whole) * 1_000_000_000
    try:
        number = float(text)
    except ValueError:
        return None
    return round(number * 1_000_000_000)
