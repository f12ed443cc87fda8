"""The collector's /proc sampler output (`stallscope-proc`): header, generic records, units, damage."""

from __future__ import annotations

import io
import json

import pytest

from stallscope.ingest.appmetrics.proc_sampler import IMPORTER
from stallscope.ingest.appmetrics.proc_sampler.units import proc_unit
from stallscope.ingest.model import CaptureClock, Document, MetricPoint, ParseError, ParseReport, Record

T = 1_795_307_311_000_000_000
HEADER = {"stallscope": "proc-sampler", "version": 1, "host": "db1", "interval_ms": 50, "target_pids": [1234]}


def record(name: str, labels: dict[str, object], value: float, t: int = T) -> str:
    return json.dumps({"t": t, "name": name, "labels": labels, "value": value})


def parse(
    *lines: str, header: dict[str, object] | None = None, end: str = "\n"
) -> tuple[list[Record], ParseReport]:
    text = "\n".join([json.dumps(header or HEADER), *lines]) + end
    report = ParseReport()
    return list(IMPORTER.parse(io.BytesIO(text.encode()), report)), report


def points(records: list[Record]) -> list[MetricPoint]:
    return [r for r in records if isinstance(r, MetricPoint)]


def test_importer() -> None:
    assert IMPORTER.name == "stallscope-proc"
    assert IMPORTER.clock is CaptureClock.REALTIME


def test_the_header_is_kept_as_a_document() -> None:
    records, report = parse(record("cpu.user", {"cpu": "0"}, 12.5))
    assert records[0] == Document(1, "proc-sampler-header", HEADER)
    assert report.warnings == []


def test_records_map_generically_with_sorted_labels() -> None:
    records, report = parse(
        record("thread.state", {"tid": "1235", "pid": "1234", "state": "D", "comm": "java"}, 1),
        record("cpu.iowait", {"cpu": "1"}, 40.0),
        record("mem.MemAvailable", {}, 123456),
        record("pressure.io.full.avg10", {}, 2.5),
        record("disk.read_bytes", {"device": "nvme0n1"}, 4096),
        record("disk.io_ms", {"device": "nvme0n1"}, 830),
        record("thread.ctx_switches.voluntary", {"pid": 1234, "tid": 1235, "comm": "java"}, 120),
        record("gc.pause_ms", {}, 3),
    )
    got = points(records)
    assert got[0] == MetricPoint(
        2, "thread.state", T, 1.0, (("comm", "java"), ("pid", "1234"), ("state", "D"), ("tid", "1235")), None
    )
    assert [(p.name, p.unit) for p in got[1:]] == [
        ("cpu.iowait", "%"),
        ("mem.MemAvailable", "KiB"),
        ("pressure.io.full.avg10", "%"),
        ("disk.read_bytes", "B/s"),
        ("disk.io_ms", "ms/s"),
        ("thread.ctx_switches.voluntary", "/s"),
        ("gc.pause_ms", "ms"),
    ]
    assert got[6].labels == (("comm", "java"), ("pid", "1234"), ("tid", "1235"))
    assert report.warnings == []


def test_other_key_orders_and_spacing_read_the_same() -> None:
    fast, _ = parse(record("cpu.user", {"cpu": "0"}, 12.5))
    slow, _ = parse('{"value":12.5,"labels":{"cpu":"0"},"name":"cpu.user","t":1795307311000000000}')
    assert points(fast) == points(slow)


def test_broken_lines_are_dropped_and_named() -> None:
    records, report = parse(
        record("cpu.user", {"cpu": "0"}, 1),
        '{"t": 1795307311000000000, "name": "cpu.user", "labels": {"cpu": "0"}, "value": "high"}',
        record("cpu.user", {"cpu": "0"}, 2, t=1_795_307_311),
        '{"t": 1795307311000000000, "name": "cpu.user", "labels": {"cpu": "0"}, "value": 3',
        "[]",
        '{"t": 1795307311000000000, "labels": {}, "value": 1}',
        record("cpu.user", {"cpu": "0"}, 4),
    )
    assert [p.value for p in points(records)] == [1.0, 4.0]
    warned = {w.line: w.message for w in report.warnings}
    assert sorted(warned) == [3, 4, 5, 6, 7]
    assert "value 'high' is not a number" in warned[3]
    assert "t 1795307311 is not epoch nanoseconds" in warned[4]
    assert "not valid JSON" in warned[5]
    assert "not a JSON object" in warned[6]
    assert "name None" in warned[7]


def test_a_cut_last_line_is_tolerated() -> None:
    records, report = parse(record("cpu.user", {"cpu": "0"}, 1), '{"t": 1795307311000000000, "na', end="")
    assert len(points(records)) == 1
    assert report.truncated
    assert report.warnings[-1].line == 3


def test_a_newer_version_is_read_with_a_warning() -> None:
    records, report = parse(record("cpu.user", {}, 1), header={**HEADER, "version": 2})
    assert len(points(records)) == 1
    assert report.warnings[0].line == 1
    assert "version 2" in report.warnings[0].message


def test_a_second_header_is_noted() -> None:
    records, report = parse(record("cpu.user", {}, 1), json.dumps(HEADER), record("cpu.user", {}, 2))
    assert len(points(records)) == 2
    assert "second proc-sampler header" in report.warnings[0].message


def test_empty_and_headerless_inputs_are_errors() -> None:
    with pytest.raises(ParseError, match="the file is empty"):
        list(IMPORTER.parse(io.BytesIO(b"\n"), ParseReport()))
    with pytest.raises(ParseError, match="proc-sampler header") as raised:
        list(IMPORTER.parse(io.BytesIO(record("cpu.user", {}, 1).encode() + b"\n"), ParseReport()))
    assert raised.value.line == 1


def test_labels_with_braces_and_escapes_take_the_general_path() -> None:
    records, _ = parse(record("thread.state", {"comm": 'we{ird}"name', "state": "S"}, 1))
    assert points(records)[0].labels == (("comm", 'we{ird}"name'), ("state", "S"))


@pytest.mark.parametrize(
    ("name", "unit"),
    [
        ("mem.HugePages_Total", None),
        ("mem.Hugepagesize", "KiB"),
        ("pressure.cpu.some.total", "µs"),
        ("disk.reads", "/s"),
        ("thread.state", None),
        ("net.rx_bytes", "B"),
        ("anything", None),
    ],
)
def test_units_from_names(name: str, unit: str | None) -> None:
    assert proc_unit(name) == unit
