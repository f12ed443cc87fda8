"""perf's wall-clock column as the capture's clock: checked against readings taken while recording."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from stallscope.ingest.clock import clock_mapping
from stallscope.ingest.model import CaptureClock
from stallscope.ingest.perf_script.tod import tod_offset_ns

HEAD = (
    b"gzip 22464/22464 [000] 2026-11-21 21:57:20.289518   507.901084:    1001001 cpu-clock:pppH: \n"
    b"\t            9a4b [unknown] (/usr/bin/gzip)\n\n"
    b"cc1 22473/22473 [001] 2026-11-21 21:57:20.290514   507.902079:    1001001 cpu-clock:pppH: \n"
    b"\t            429f [unknown] (/usr/bin/cc1)\n\n"
)


def test_offset_is_wall_minus_perf_time() -> None:
    assert tod_offset_ns(HEAD) == 1_795_297_732_388_434_000


def test_a_given_utc_offset_moves_the_local_tod_to_utc() -> None:
    assert tod_offset_ns(HEAD, utc_offset_s=3600) == 1_795_297_732_388_434_000 - 3_600_000_000_000


def test_files_without_tod_have_no_offset() -> None:
    assert tod_offset_ns(b"gzip 22464/22464 [000]   507.901084:    1001001 cpu-clock:pppH: \n") is None


def test_mapping_prefers_anchors_and_uses_tod_otherwise() -> None:
    tod = clock_mapping(CaptureClock.MONOTONIC, {}, HEAD)
    assert (tod.mode, tod.offset_ns) == ("perf-tod", 1_795_297_732_388_434_000)
    anchors = [{"realtime_ns": 2_000, "monotonic_ns": 1_000}]
    assert clock_mapping(CaptureClock.MONOTONIC, {"anchors": anchors}, HEAD).mode == "anchor"
    assert clock_mapping(CaptureClock.MONOTONIC, {"offset_ns_given": 5}, HEAD).mode == "user-offset"


def test_real_capture_agrees_with_the_clock_readings_taken_around_it(corpus: Path) -> None:
    folder = corpus / "captures" / "clockmono"
    with gzip.open(folder / "cpu5s_clockmono.tod.perf.txt.gz", "rb") as f:
        head = f.read(64 * 1024)
    readings = [
        json.loads(line) for line in (folder / "cpu5s_clockmono.clock.jsonl").read_text().splitlines()
    ]
    realtime_minus_monotonic_ns = round(readings[0]["realtime_minus_monotonic"] * 1e9)
    offset = tod_offset_ns(head)
    assert offset is not None
    assert abs(offset - realtime_minus_monotonic_ns) < 50_000  # 50 µs: tod is printed to the µs
