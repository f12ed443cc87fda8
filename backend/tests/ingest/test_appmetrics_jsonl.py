"""Application metrics as JSON lines: long and wide objects, timestamps, labels and broken lines."""

from __future__ import annotations

import io
import json

import pytest

from stallscope.ingest.appmetrics import common
from stallscope.ingest.appmetrics.jsonl_metrics import IMPORTER, parse_jsonl
from stallscope.ingest.appmetrics.timestamps import NAIVE_ISO
from stallscope.ingest.model import CaptureClock, MetricPoint, ParseError, ParseReport
from tests.ingest.records import as_points, messages, parse_points

S = 1_000_000_000


def parse(text: str) -> tuple[list[MetricPoint], ParseReport]:
    return parse_points(IMPORTER, text)


def test_importer() -> None:
    assert IMPORTER.name == "metrics-jsonl"
    assert IMPORTER.clock is CaptureClock.REALTIME


def test_long_form_with_labels() -> None:
    points, report = parse(
        '{"ts": 1700000000123, "name": "latency_ms", "value": 3.5, "labels": {"host": "db1", "shard": 3}}\n'
        '{"time": 1700000000124, "name": "naks", "value": "2", "unit": "packets"}\n'
    )
    assert points == [
        MetricPoint(1, "latency_ms", 1_700_000_000_123_000_000, 3.5, (("host", "db1"), ("shard", "3")), "ms"),
        MetricPoint(2, "naks", 1_700_000_000_124_000_000, 2.0, (), "packets"),
    ]
    assert messages(report) == [(0, "timestamps: epoch milliseconds")]


def test_wide_form_numbers_are_series_and_text_is_labels() -> None:
    points, _ = parse('{"Timestamp": 1700000000, "latency_ms": 3.1, "naks": 2, "host": "db1", "ok": true}\n')
    assert points == [
        MetricPoint(1, "latency_ms", 1_700_000_000 * S, 3.1, (("host", "db1"),), "ms"),
        MetricPoint(1, "naks", 1_700_000_000 * S, 2.0, (("host", "db1"),), None),
    ]


@pytest.mark.parametrize(
    ("stamp", "note", "expected"),
    [
        ("1700000000", "epoch seconds", 1_700_000_000 * S),
        ("1700000000.25", "epoch seconds", 1_700_000_000 * S + S // 4),
        ('"1700000000"', "epoch seconds", 1_700_000_000 * S),
        ("1700000000123", "epoch milliseconds", 1_700_000_000_123_000_000),
        ("1700000000123456", "epoch microseconds", 1_700_000_000_123_456_000),
        ("1700000000123456789", "epoch nanoseconds", 1_700_000_000_123_456_789),
        ('"2023-11-14T22:13:20Z"', "ISO 8601", 1_700_000_000 * S),
        ('"2023-11-14T23:13:20+01:00"', "ISO 8601", 1_700_000_000 * S),
    ],
)
def test_each_timestamp_kind_and_its_note(stamp: str, note: str, expected: int) -> None:
    points, report = parse(f'{{"ts": {stamp}, "x": 1}}\n')
    assert [p.time_ns for p in points] == [expected]
    assert messages(report) == [(0, f"timestamps: {note}")]


def test_iso_without_zone_warns_once() -> None:
    points, report = parse('{"ts": "2023-11-14T22:13:20", "x": 1}\n{"ts": "2023-11-14T22:13:21", "x": 2}\n')
    assert len(points) == 2
    assert messages(report) == [(0, "timestamps: ISO 8601"), (1, NAIVE_ISO)]


def test_bad_lines_are_dropped_with_their_numbers() -> None:
    points, report = parse(
        '{"ts": 1700000000, "name": "a", "value": 1}\n'
        '{"ts": 1700000001, "name": "a", "value": "abc"}\n'
        '{"ts": 1700000002, "name": "a", "value": 2\n'
        "[1, 2]\n"
        '{"name": "a", "value": 3}\n'
        '{"ts": 1700000003, "host": "db1"}\n'
        '{"ts": 1700000004, "name": "a", "value": 4, "labels": "host=db1"}\n'
        '{"ts": 1700000005, "name": "a", "value": 5}\n'
    )
    assert [p.value for p in points] == [1.0, 5.0]
    warned = dict(messages(report)[1:])
    assert sorted(warned) == [2, 3, 4, 5, 6, 7]
    assert "value 'abc' is not a number" in warned[2]
    assert "not valid JSON" in warned[3]
    assert "not a JSON object" in warned[4]
    assert "no time" in warned[5]
    assert "no numeric fields" in warned[6]
    assert '"labels" is not an object' in warned[7]
    assert report.dropped_lines == 6


def test_a_cut_last_line_is_reported_as_cut() -> None:
    points, report = parse('{"ts": 1700000000, "x": 1}\n{"ts": 1700000001, "x"')
    assert len(points) == 1
    assert report.truncated
    assert messages(report)[-1] == (2, "the file ends in the middle of this line; dropped it")


def test_empty_file_is_a_clear_error() -> None:
    with pytest.raises(ParseError, match="the file is empty"):
        parse("\n  \n")


def test_blank_lines_keep_numbering() -> None:
    points, _ = parse('\n{"ts": 1700000000, "x": 1}\n\n{"ts": 1700000001, "x": 2}\n')
    assert [p.line for p in points] == [2, 4]


def test_the_batched_path_agrees_with_line_by_line(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [json.dumps({"ts": 1_700_000_000 + i, "name": f"s{i % 3}", "value": i * 0.5}) for i in range(500)]
    lines[250] = '{"ts": 1700000250, "name": "s1", "value": "bad"}'
    text = "\n".join(lines) + "\n"
    batched, batched_report = parse(text)
    # Tiny chunks put each line alone in its batch: the same points, the same warnings.
    monkeypatch.setattr(common, "CHUNK_BYTES", 7)
    single, report = parse(text)
    assert single == batched
    assert report.warnings == batched_report.warnings
    assert len(batched) == 499


def test_lines_off_the_learnt_layout_read_the_same_as_on_it() -> None:
    # The first line sets the template; the others vary spacing, escapes, kinds and text, and are
    # read the general way: the points must not depend on which way a line went.
    first = '{"ts": 1700000000, "name": "lat_ms", "value": 1.5, "labels": {"host": "db1"}}'
    variants = [
        '{"ts":1700000001,"name":"lat_ms","value":2,"labels":{"host":"db1"}}',
        '{"ts": 1700000002, "name": "l\\u0061t_ms", "value": 3, "labels": {"host": "db1"}}',
        '{"ts": 1700000003, "name": "lat_ms", "value": "4.5", "labels": {"host": "db1"}}',
        '{"ts": 1700000004, "name": "lat_ms", "value": -0, "labels": {"host": "db2", "az": "b"}}',
        '{"ts": 1700000005, "name": "lat_ms", "value": 6, "labels": {"host": "db\\"1"}}',
        '{"ts": 1700000006, "name": "lat_ms", "value": 7, "labels": null}',
        '{"ts": 1700000007, "name": "", "value": 8, "labels": {"host": "db1"}}',
        '{"ts": 1700000008123, "name": "lat_ms", "value": 9, "labels": {"host": "db1"}}',
    ]
    points, report = parse(first + "\n" + "\n".join(variants) + "\n")
    general, general_report = parse("\n".join(json.dumps(json.loads(v)) for v in [first, *variants]) + "\n")
    assert points == general
    assert report.warnings == general_report.warnings
    assert [p.value for p in points] == [1.5, 2.0, 3.0, 4.5, 0.0, 6.0, 7.0]
    assert points[4].labels == (("az", "b"), ("host", "db2"))
    assert points[5].labels == (("host", 'db"1'),)
    assert [w.line for w in report.warnings[1:]] == [8, 9]


def test_wide_lines_with_text_labels_and_negative_zero() -> None:
    lines = [
        f'{{"ts": {1_700_000_000 + i}, "a_ms": {i}, "b": -0, "host": "db{i % 2}", "ok": true}}'
        for i in range(3)
    ]
    points, _ = parse("\n".join(lines) + "\n")
    assert [(p.name, p.value, p.labels, p.unit) for p in points[:2]] == [
        ("a_ms", 0.0, (("host", "db0"),), "ms"),
        ("b", 0.0, (("host", "db0"),), None),
    ]
    assert str(points[1].value) == "0.0"  # JSON's integer -0 is 0
    assert [p.labels for p in points[2::2]] == [(("host", "db1"),), (("host", "db0"),)]


@pytest.mark.parametrize(
    ("key", "stamp", "note"),
    [
        ("@timestamp", '"2026-11-25T17:11:35.834791Z"', None),
        ("epoch_us", "1795626695834791", None),
        ("when", "1795626695834", "time key: 'when' (its values are times)"),
    ],
)
def test_the_time_key_is_found_by_name_or_by_content(key: str, stamp: str, note: str | None) -> None:
    text = "".join(f'{{"{key}": {stamp}, "fsync_p99_us": {v}, "service": "loop"}}\n' for v in (436.1, 312.1))
    assert IMPORTER.detect(text.encode())
    points, report = parse(text)
    assert [(p.name, p.value, p.labels, p.unit) for p in points] == [
        ("fsync_p99_us", 436.1, (("service", "loop"),), "µs"),
        ("fsync_p99_us", 312.1, (("service", "loop"),), "µs"),
    ]
    assert points[0].time_ns // 1000 in (1_795_626_695_834_791, 1_795_626_695_834_000)
    assert (note is None) or (0, note) in messages(report)


def test_the_given_time_key_wins() -> None:
    # `ts` is when a shipper read the line; the application's own time is `occurred_ms`.
    text = '{"ts": 1700000009, "occurred_ms": 1700000001000, "lat_ms": 3}\n'
    report = ParseReport()
    (point,) = as_points(parse_jsonl(io.BytesIO(text.encode()), report, "occurred_ms"))
    assert (point.name, point.time_ns) == ("lat_ms", 1_700_000_001 * S)  # neither time is a series
    assert (0, "time key: 'occurred_ms' (as given at upload)") in messages(report)
    rules, _ = parse(text)
    assert [(p.name, p.time_ns) for p in rules] == [
        ("occurred_ms", 1_700_000_009 * S),
        ("lat_ms", 1_700_000_009 * S),
    ]


def test_a_time_key_naming_its_unit_still_drops_a_time_past_the_stores_range() -> None:
    # The learnt layout's fast way once took any magnitude under a named unit and scaled it past it.
    lines = [f'{{"epoch_us":{1_795_626_703_842_595 + i},"fsync_p99_us":{i}.5}}\n' for i in range(40)]
    lines[20] = '{"epoch_us":100000000000000001,"fsync_p99_us":1.5}\n'
    points, report = parse("".join(lines))
    assert len(points) == 39
    assert report.dropped_lines == 1
    assert messages(report)[-1] == (
        21,
        "timestamp 100000000000000001 is not a time (after the year 5138, or before 1653); dropped this line",
    )
