"""Clock anchor files: every shape people write them in, and what is not one."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from stallscope.ingest.clock_anchors import DOCUMENT_KIND, IMPORTER
from stallscope.ingest.model import Document, ParseError, ParseReport
from stallscope.ingest.registry import detect_importer

DATA = Path(__file__).parent / "data" / "clock"
BOOT_NS = 1_795_615_746_000_000_000
"""A host that booted at 2026-11-25 14:09:06 UTC (epoch ns)."""


def parse(data: bytes) -> tuple[dict[str, object], ParseReport]:
    report = ParseReport()
    (document,) = list(IMPORTER.parse(io.BytesIO(data), report))
    assert isinstance(document, Document)
    assert document.kind == DOCUMENT_KIND
    return document.content, report


SHAPES = {
    "csv in ns": b"monotonic_ns,realtime_ns\n5000000000,1795615751000000000\n",
    "tsv, clock_gettime names": b"CLOCK_MONOTONIC\tCLOCK_REALTIME\n5.000000000\t1795615751.000000000\n",
    "whitespace, seconds": b"# uptime and date +%s.%N\nuptime_s epoch_s\n5.0 1795615751.0\n",
    "ISO realtime": b"mono_s;wall\n5.000000;2026-11-25T14:09:11Z\n",
    "with a host column": b"host,monotonic_us,realtime_us\ndb-7,5000000,1795615751000000\n",
    "collector clock.json": b'{"perf_clock": "monotonic", "anchors": [{"monotonic_ns": 5000000000, '
    b'"realtime_ns": 1795615751000000000}]}',
    "JSON lines": b'{"mono_ns": 5000000000, "wall_ns": 1795615751000000000}\n',
    "JSON list": b'[{"boottime_ms": 5000, "unix_ms": 1795615751000}]',
}


@pytest.mark.parametrize("name", SHAPES)
def test_each_shape_is_detected_and_gives_the_boot_offset(name: str) -> None:
    data = SHAPES[name]
    assert detect_importer(data).name == IMPORTER.name
    content, report = parse(data)
    assert content["offset_ns"] == BOOT_NS, report.warnings
    assert content["source_clock"] == "monotonic"


def test_a_perf_clock_column_is_named_as_such() -> None:
    content, _ = parse(b"perf_clock_s,realtime_ns\n5.0,1795615751000000000\n")
    assert content["source_clock"] == "perf"
    content, _ = parse(
        b'{"perf_clock": "default", "anchors": [{"monotonic_ns": 1, "realtime_ns": 1795615751000000000}]}'
    )
    assert content["source_clock"] == "perf"


@pytest.mark.parametrize(
    "data",
    [
        b"epoch_s,uptime_s,load\n1795615751,5,1.5\n",  # a metrics table with an uptime counter
        b"timestamp,realtime_lag_ms\n1795615751,3\n",
        b'{"ts": 1795615751, "uptime": 5, "rss_kb": 100}\n',
    ],
)
def test_metrics_tables_beside_an_uptime_column_are_not_anchor_files(data: bytes) -> None:
    assert detect_importer(data).name != IMPORTER.name


def test_the_recorded_anchors_agree_with_perfs_wall_clock_column() -> None:
    """Both taken on this machine around one `perf record -k CLOCK_MONOTONIC` (see data/clock/README.md)."""
    content, report = parse((DATA / "clock_anchors.csv").read_bytes())
    assert not report.warnings
    perf_tod_offset_ns = 1_795_615_746_618_408_000  # 17:46:48.480424 UTC at 13061.862016 s
    assert abs(int(str(content["offset_ns"])) - perf_tod_offset_ns) < 10_000
    assert content == parse((DATA / "clock.json").read_bytes())[0]


def test_bad_lines_are_dropped_with_their_line_and_the_rest_kept() -> None:
    data = b"monotonic_ns,realtime_ns\n5000000000,1795615751000000000\nfive,1795615751\n7000000000,12\n"
    content, report = parse(data)
    assert content["anchors"] == [{"monotonic_ns": 5_000_000_000, "realtime_ns": 1_795_615_751_000_000_000}]
    assert report.dropped_lines == 2
    assert [w.line for w in report.warnings] == [3, 4]
    assert "before the year 2000" in report.warnings[1].message


def test_anchors_that_disagree_are_reported_and_the_median_is_used() -> None:
    rows = [(5, 0), (6, 0), (7, 2)]  # seconds since boot, seconds of error (an NTP step on the last)
    data = b"monotonic_s,realtime_s\n" + b"".join(
        b"%d,%d\n" % (mono, BOOT_NS // 10**9 + mono + err) for mono, err in rows
    )
    content, report = parse(data)
    assert content["offset_ns"] == BOOT_NS
    assert content["spread_ns"] == 2 * 10**9
    assert "disagree by 2,000.0 ms" in report.warnings[0].message


def test_a_header_without_the_two_clocks_is_refused_with_the_line() -> None:
    with pytest.raises(ParseError, match="line 1: the header"):
        parse(b"alpha,beta\n1,2\n")
    with pytest.raises(ParseError, match="no clock anchor could be read"):
        parse(b"monotonic_ns,realtime_ns\n")
