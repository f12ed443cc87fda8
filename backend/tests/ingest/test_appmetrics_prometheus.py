"""Prometheus query results: matrices and vectors, streamed, with their odd corners."""

from __future__ import annotations

import io
import json

import pytest

from stallscope.ingest.appmetrics.prometheus import IMPORTER
from stallscope.ingest.appmetrics.prometheus.parser import UNNAMED, seconds_to_ns
from stallscope.ingest.appmetrics.prometheus.stream import JsonStream
from stallscope.ingest.model import CaptureClock, MetricPoint, ParseError, ParseReport

S = 1_000_000_000
RANGE = {
    "status": "success",
    "data": {
        "resultType": "matrix",
        "result": [
            {
                "metric": {"__name__": "http_request_duration_seconds", "job": "api", "le": "0.5"},
                "values": [[1700000000.123, "3.5"], [1700000015, "NaN"], [1700000030, "+Inf"]],
            },
            {"metric": {"__name__": "up", "instance": "db1:9100"}, "values": [[1700000000, "1"]]},
        ],
    },
}


def parse(data: bytes | str | object, chunk: int | None = None) -> tuple[list[MetricPoint], ParseReport]:
    if isinstance(data, str):
        data = data.encode()
    elif not isinstance(data, bytes):
        data = json.dumps(data).encode()
    stream: io.BytesIO = _Trickle(data, chunk) if chunk else io.BytesIO(data)
    report = ParseReport()
    points = list(IMPORTER.parse(stream, report))
    assert all(isinstance(p, MetricPoint) for p in points)
    return points, report


class _Trickle(io.BytesIO):
    """A stream that hands out at most `chunk` bytes a read, as a slow upload might."""

    def __init__(self, data: bytes, chunk: int) -> None:
        super().__init__(data)
        self._most = chunk

    def read(self, size: int | None = -1) -> bytes:
        return super().read(self._most if size is None or size < 0 else min(size, self._most))


def test_importer() -> None:
    assert IMPORTER.name == "prometheus-range"
    assert IMPORTER.clock is CaptureClock.REALTIME


def test_a_range_query() -> None:
    points, report = parse(RANGE)
    labels = (("job", "api"), ("le", "0.5"))
    assert [(p.name, p.time_ns, p.labels, p.unit) for p in points] == [
        ("http_request_duration_seconds", 1_700_000_000_123_000_000, labels, "s"),
        ("http_request_duration_seconds", 1_700_000_015 * S, labels, "s"),
        ("http_request_duration_seconds", 1_700_000_030 * S, labels, "s"),
        ("up", 1_700_000_000 * S, (("instance", "db1:9100"),), None),
    ]
    values = [p.value for p in points]
    assert values[0] == 3.5
    assert values[1] != values[1]
    assert values[2] == float("inf")
    assert report.warnings == []


@pytest.mark.parametrize("chunk", [1, 3, 7, 64])
@pytest.mark.parametrize("indent", [None, 2])
def test_streaming_in_any_chunking_and_layout_gives_the_same_points(chunk: int, indent: int | None) -> None:
    expected, _ = parse(RANGE)
    from stallscope.ingest.appmetrics.prometheus import stream

    original = stream.CHUNK_CHARS
    stream.CHUNK_CHARS = chunk
    try:
        got, _ = parse(json.dumps(RANGE, indent=indent), chunk=chunk)
    finally:
        stream.CHUNK_CHARS = original
    assert [(p.name, p.time_ns, p.labels, repr(p.value)) for p in got] == [
        (p.name, p.time_ns, p.labels, repr(p.value)) for p in expected
    ]


def test_pretty_printed_documents_give_each_value_its_line() -> None:
    points, _ = parse(json.dumps(RANGE, indent=1))
    lines = [p.line for p in points]
    assert lines == sorted(lines)
    assert len(set(lines)) == 4
    assert lines[0] > 1


def test_an_instant_vector_and_a_bare_data_object() -> None:
    vector = {
        "resultType": "vector",
        "result": [{"metric": {"__name__": "up"}, "value": [1700000000.5, "1"]}],
    }
    points, _ = parse(vector)
    assert [(p.name, p.time_ns, p.value) for p in points] == [("up", 1_700_000_000 * S + S // 2, 1.0)]


def test_series_without_a_name_and_values_before_labels() -> None:
    doc = {
        "status": "success",
        "data": {"resultType": "matrix", "result": [{"values": [[1700000000, "2"]], "metric": {"job": "x"}}]},
    }
    points, report = parse(doc)
    assert [(p.name, p.labels, p.value) for p in points] == [(UNNAMED, (("job", "x"),), 2.0)]
    assert len(report.warnings) == 1
    assert "__name__" in report.warnings[0].message


def test_bad_values_are_dropped_with_a_warning() -> None:
    points, report = parse(
        '{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"a"},'
        '"values":[[1700000000,"1"],[1700000001,"fast"],[1700000002],["x","3"],[1700000003,"4"]]}]}}'
    )
    assert [p.value for p in points] == [1.0, 4.0]
    assert report.dropped_lines == 3
    assert all(w.line == 1 and w.message.endswith("dropped this value") for w in report.warnings)


def test_an_error_response_is_an_error() -> None:
    with pytest.raises(ParseError, match="bad_data: invalid parameter"):
        parse({"status": "error", "errorType": "bad_data", "error": "invalid parameter 'query'"})


def test_a_scalar_result_is_refused() -> None:
    with pytest.raises(ParseError, match="'scalar' result"):
        parse({"status": "success", "data": {"resultType": "scalar", "result": [1700000000, "1"]}})


def test_a_truncated_document_is_an_error_naming_its_line() -> None:
    text = json.dumps(RANGE, indent=2)
    with pytest.raises(ParseError) as raised:
        parse(text[: len(text) // 2])
    assert raised.value.line > 1


def test_empty_file_and_no_result() -> None:
    with pytest.raises(ParseError, match="the file is empty"):
        parse(b"  \n")
    with pytest.raises(ParseError, match='no "result"'):
        parse({"status": "success", "data": {"resultType": "matrix"}})


def test_memory_stays_at_the_window_on_a_large_document() -> None:
    series = [
        {"metric": {"__name__": "m", "i": str(i)}, "values": [[1700000000 + t, str(t)] for t in range(2000)]}
        for i in range(20)
    ]
    data = json.dumps({"status": "success", "data": {"resultType": "matrix", "result": series}}).encode()
    seen = 0
    longest = 0
    original = JsonStream.fill

    def watched(self: JsonStream) -> bool:
        nonlocal longest
        grew = original(self)
        longest = max(longest, len(self.buf))
        return grew

    from stallscope.ingest.appmetrics.prometheus import stream

    JsonStream.fill = watched  # type: ignore[method-assign]
    saved, stream.CHUNK_CHARS = stream.CHUNK_CHARS, 4096
    try:
        for _ in IMPORTER.parse(io.BytesIO(data), ParseReport()):
            seen += 1
    finally:
        JsonStream.fill = original  # type: ignore[method-assign]
        stream.CHUNK_CHARS = saved
    assert seen == 40_000
    assert len(data) > 100 * 4096
    assert longest < 2 * 4096


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1700000000", 1_700_000_000 * S),
        ("1700000000.123456789", 1_700_000_000_123_456_789),
        ("1.7e9", 1_700_000_000 * S),
    ],
)
def test_seconds_are_converted_exactly(text: str, expected: int) -> None:
    assert seconds_to_ns(text) == expected
