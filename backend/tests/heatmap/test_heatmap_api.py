"""The heatmap endpoints on hand-written captures whose records sit at known offsets."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stallscope.analysis.heatmap import CellBins, build_heatmap
from stallscope.commands.local_file import open_local_capture
from stallscope.ingest.model import EventKind, TimedEvent
from tests.fixtures.corpus import corpus_file
from tests.fixtures.db import Conn
from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed

OFFSET_S = 1_763_712_000  # 2025-11-21T08:00:00Z: perf time 100.0 becomes ...100 UTC
T0 = OFFSET_S + 100  # the first second with samples


def sample(t: str, event: str = "cpu-clock", comm: str = "db", period: int = 1_000_000) -> str:
    """One perf script sample at perf time `t` (seconds, as printed)."""
    frames = f"\t    1000 scan (/usr/bin/{comm})\n\t    1001 main (/usr/bin/{comm})\n"
    return f"{comm} 10/11 [000] {t}: {period} {event}:\n{frames}\n"


SAMPLE_TIMES = [
    # second 100: three in the first 20 ms (the last 1 µs before the row edge), one on the edge, one mid
    "100.005000",
    "100.010000",
    "100.019999",
    "100.020000",
    "100.500000",
    # second 101: the first and the very last row
    "101.001000",
    "101.999999",
    # second 102: nothing; second 103: exactly on the second
    "103.000000",
]
CPU_CAPTURE = "".join(sample(t) for t in SAMPLE_TIMES) + "".join(
    sample(t, event="page-faults", period=1) for t in ("100.005000", "101.500000")
)

SYSCALL_CAPTURE = (
    "     5.000 ( 3.000 ms): app/100 fsync(fd: 4)                 = 0\n"
    "    12.000 ( 2.500 ms): app/100 fsync(fd: 4)                 = 0\n"
    "  1004.000 ( 7.000 ms): app/100 fsync(fd: 4)                 = 0\n"
    "  1500.000 ( 1.000 ms): app/101 futex(uaddr: 0x1, op: WAIT)  = 0\n"
    "  2010.000 (         ): app/102 futex(uaddr: 0x1, op: WAIT)  ...\n"
)


def upload(api: TestClient, body: str, filename: str, **params: str) -> int:
    incident = make_incident(api)
    capture = upload_bytes(api, incident["id"], body.encode(), filename, **params)
    parsed = wait_parsed(api, capture["id"])
    assert parsed["status"] == "ready", parsed
    return int(capture["id"])


@pytest.fixture(scope="module")
def cpu_capture(api: TestClient, worker: subprocess.Popen[bytes]) -> int:
    return upload(api, CPU_CAPTURE, "offsets.txt", offset=f"{OFFSET_S}s")


@pytest.fixture(scope="module")
def syscall_capture(api: TestClient, worker: subprocess.Popen[bytes]) -> int:
    return upload(api, SYSCALL_CAPTURE, "trace.txt", offset=f"{OFFSET_S}s")


def heatmap(api: TestClient, capture_id: int | str, **params: Any) -> dict[str, Any]:
    response = api.get("/api/heatmap", params={"captures": str(capture_id), **params})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def nonzero(result: dict[str, Any]) -> dict[tuple[int, int], int]:
    """{(column, row): value} of the cells that hold anything."""
    return {(c, r): v for c, column in enumerate(result["values"]) for r, v in enumerate(column) if v != 0}


def test_samples_land_in_their_second_and_row(api: TestClient, cpu_capture: int) -> None:
    result = heatmap(api, cpu_capture, stream="samples", rows=50)
    assert (result["event"], result["unit"], result["wall_clock"]) == ("cpu-clock", "samples", True)
    assert (result["first_second"], result["columns"], result["column_seconds"]) == (T0, 4, 1)
    assert result["start"].startswith("2025-11-21T08:01:40")
    assert nonzero(result) == {(0, 0): 3, (0, 1): 1, (0, 25): 1, (1, 0): 1, (1, 49): 1, (3, 0): 1}
    assert result["values"][2] == [0] * 50  # the empty second is still a column
    assert (result["max"], result["total"], result["total_count"]) == (3, 8, 8)
    assert result["row_totals"][0] == 5


def test_hottest_cells_name_the_seconds_and_offsets(api: TestClient, cpu_capture: int) -> None:
    hot = heatmap(api, cpu_capture, stream="samples", rows=50, top=3)["hot"]
    assert [(h["column"], h["row"], h["value"]) for h in hot] == [(0, 0, 3), (0, 1, 1), (0, 25, 1)]
    first = hot[0]
    assert (first["second"], first["seconds"], first["offset_start_us"], first["offset_end_us"]) == (
        T0,
        1,
        0,
        20_000,
    )
    assert first["start"].startswith("2025-11-21T08:01:40")
    assert first["end"].startswith("2025-11-21T08:01:41")


def test_database_binning_matches_the_offline_analysis(api: TestClient, cpu_capture: int) -> None:
    bins = CellBins(20)
    for t in SAMPLE_TIMES:
        whole, fraction = t.split(".")
        bins.add_us((OFFSET_S + int(whole)) * 1_000_000 + int(fraction))
    offline = build_heatmap(bins.cells(), rows=20)
    served = heatmap(api, cpu_capture, stream="samples", rows=20)
    assert served["values"] == offline.values
    assert served["first_second"] == offline.first_second


def test_whole_slices_are_read_from_parse_time_counts_and_partial_ones_from_samples(
    api: TestClient, cpu_capture: int, db: Conn
) -> None:
    ms = 1_000_000  # each cpu-clock sample weighs 1 ms
    slices = db.execute(
        "SELECT event, slice - %s, samples, weight FROM sample_slices WHERE capture_id = %s ORDER BY 1, 2",
        (T0 * 100, cpu_capture),
    ).fetchall()
    # 10 ms slices: 100.010 and 100.019999 share one; 100.020 opens the next.
    assert slices == [
        ("cpu-clock", 0, 1, ms),
        ("cpu-clock", 1, 2, 2 * ms),
        ("cpu-clock", 2, 1, ms),
        ("cpu-clock", 50, 1, ms),
        ("cpu-clock", 100, 1, ms),
        ("cpu-clock", 199, 1, ms),
        ("cpu-clock", 300, 1, ms),
        ("page-faults", 0, 1, 1),
        ("page-faults", 150, 1, 1),
    ]
    # [100.015, 101.9995): the slices at either end are partly outside, and so are 100.010 and
    # 101.999999; both ends come from raw samples, everything between from the slices.
    window = {
        "stream": "samples",
        "rows": 100,
        "start": "2025-11-21T08:01:40.015Z",
        "end": "2025-11-21T08:01:41.9995Z",
    }
    assert nonzero(heatmap(api, cpu_capture, **window)) == {(0, 1): 1, (0, 2): 1, (0, 50): 1, (1, 0): 1}
    doubled = "UPDATE sample_slices SET samples = samples * 2 WHERE capture_id = %s AND event = 'cpu-clock'"
    db.execute(doubled, (cpu_capture,))
    try:
        # What the heatmap reads: the whole slices doubled, the raw edge (row 1) did not, and a
        # thread filter or rows of partial slices (40 rows of 25 ms) read raw samples.
        assert nonzero(heatmap(api, cpu_capture, **window)) == {(0, 1): 1, (0, 2): 2, (0, 50): 2, (1, 0): 2}
        assert nonzero(heatmap(api, cpu_capture, **window, comm="db")) == {
            (0, 1): 1,
            (0, 2): 1,
            (0, 50): 1,
            (1, 0): 1,
        }
        assert heatmap(api, cpu_capture, stream="samples", rows=40)["total"] == 8
    finally:
        db.execute(doubled.replace("* 2", "/ 2"), (cpu_capture,))


def test_value_duration_sums_cpu_clock_periods(api: TestClient, cpu_capture: int) -> None:
    result = heatmap(api, cpu_capture, stream="samples", value="duration", rows=10)
    assert result["unit"] == "ns"
    assert result["values"][0][0] == 4_000_000  # 5, 10, 19.999 and 20 ms all fall in the first 100 ms
    assert result["counts"][0][0] == 4
    assert result["total"] == 8_000_000


def test_events_are_never_summed_and_counted_ones_have_no_duration(api: TestClient, cpu_capture: int) -> None:
    faults = heatmap(api, cpu_capture, stream="samples", event="page-faults", rows=2)
    assert faults["event"] == "page-faults"
    assert nonzero(faults) == {(0, 0): 1, (1, 1): 1}
    response = api.get(
        "/api/heatmap",
        params={
            "captures": str(cpu_capture),
            "stream": "samples",
            "event": "page-faults",
            "value": "duration",
        },
    )
    assert response.status_code == 422
    assert "value=count" in response.json()["detail"]


def test_filters_and_time_range(api: TestClient, cpu_capture: int) -> None:
    assert heatmap(api, cpu_capture, stream="samples", comm="web")["total"] == 0
    window = heatmap(
        api, cpu_capture, stream="samples", rows=50, start="2025-11-21T08:01:41Z", end="2025-11-21T08:01:43Z"
    )
    assert (window["first_second"], window["columns"]) == (T0 + 1, 2)
    assert nonzero(window) == {(0, 0): 1, (0, 49): 1}


def test_long_ranges_merge_columns_and_say_so(api: TestClient, cpu_capture: int) -> None:
    merged = heatmap(api, cpu_capture, stream="samples", rows=50, max_columns=2)
    assert (merged["columns"], merged["column_seconds"]) == (2, 2)
    assert nonzero(merged) == {(0, 0): 4, (0, 1): 1, (0, 25): 1, (0, 49): 1, (1, 0): 1}
    assert any("each column sums 2 s" in note for note in merged["notes"])
    assert merged["hot"][0]["seconds"] == 2


def test_syscall_durations_are_summed_per_cell(api: TestClient, syscall_capture: int) -> None:
    result = heatmap(api, syscall_capture, stream="syscall", value="duration", rows=50)
    assert (result["first_second"], result["unit"]) == (OFFSET_S, "ns")
    # 5 ms and 12 ms calls share the first 20 ms of second 0; 1004 ms is row 0 of second 1
    assert nonzero(result) == {(0, 0): 5_500_000, (1, 0): 7_000_000, (1, 25): 1_000_000}
    assert result["counts"][0][0] == 2
    assert result["unclosed"] == 1
    assert any("never ended" in note for note in result["notes"])
    counted = heatmap(api, syscall_capture, stream="syscall", rows=50)
    assert counted["values"][2][0] == 1  # the unclosed call counts where it started
    assert counted["unit"] == "calls"
    fsync = heatmap(api, syscall_capture, stream="syscall", name="fsync", value="duration", rows=50)
    assert nonzero(fsync) == {(0, 0): 5_500_000, (1, 0): 7_000_000}


def test_streams_list_what_the_captures_hold(api: TestClient, cpu_capture: int, syscall_capture: int) -> None:
    cpu = api.get("/api/heatmap/streams", params={"captures": str(cpu_capture)}).json()
    assert cpu["default"] == "samples"
    assert [(s["stream"], s["count"]) for s in cpu["streams"]] == [("samples", 10)]
    names = cpu["streams"][0]["names"]
    assert [(n["name"], n["count"], n["durations"]) for n in names] == [
        ("cpu-clock", 8, True),
        ("page-faults", 2, False),
    ]
    both = api.get("/api/heatmap/streams", params={"captures": f"{cpu_capture},{syscall_capture}"}).json()
    assert [s["stream"] for s in both["streams"]] == ["samples", "syscall"]
    syscalls = both["streams"][1]
    assert (syscalls["count"], syscalls["unit"], syscalls["durations"]) == (5, "calls", True)
    assert {n["name"]: n["count"] for n in syscalls["names"]} == {"fsync": 3, "futex": 2}
    assert heatmap(api, syscall_capture)["stream"] == "syscall"  # the busiest stream by default


def test_captures_on_their_own_clock_say_so(api: TestClient, worker: subprocess.Popen[bytes]) -> None:
    capture_id = upload(api, CPU_CAPTURE, "unaligned.txt")
    result = heatmap(api, capture_id, stream="samples", rows=50)
    assert result["wall_clock"] is False
    assert any("own clock" in note for note in result["notes"])
    assert result["first_second"] == 100  # perf's seconds since boot, shown from 1970
    assert nonzero(result)[(0, 0)] == 3


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ("30", "whole microseconds"),
        ("0", "between 1 and 1000"),
        ("5000", "between 1 and 1000"),
        ("x", "whole number"),
    ],
)
def test_bad_rows_are_clear_422s(api: TestClient, cpu_capture: int, rows: str, message: str) -> None:
    response = api.get("/api/heatmap", params={"captures": str(cpu_capture), "rows": rows})
    assert response.status_code == 422
    assert message in response.json()["detail"]


def test_unknown_captures_and_streams_are_clear_errors(api: TestClient, cpu_capture: int) -> None:
    missing = api.get("/api/heatmap", params={"captures": "999999"})
    assert missing.status_code == 404
    assert "999999" in missing.json()["detail"]
    bad = api.get("/api/heatmap", params={"captures": str(cpu_capture), "stream": "bogus"})
    assert bad.status_code == 422
    assert api.get("/api/heatmap/streams", params={"captures": "1,x"}).status_code == 422


def test_only_captures_holding_the_stream_make_the_columns(
    api: TestClient, cpu_capture: int, syscall_capture: int
) -> None:
    # The syscall capture starts 100 s earlier; it has no samples, so it must not widen the samples' map.
    both = f"{cpu_capture},{syscall_capture}"
    samples = heatmap(api, both, stream="samples", rows=50)
    assert (samples["first_second"], samples["columns"]) == (T0, 4)
    syscalls = heatmap(api, both, stream="syscall", rows=50)
    assert (syscalls["first_second"], syscalls["columns"]) == (OFFSET_S, 3)


def test_a_real_capture_matches_the_offline_command(api: TestClient, worker: subprocess.Popen[bytes]) -> None:
    path = corpus_file("captures", "perf_trace.mmap_fsync_futex.txt.gz")
    incident = make_incident(api)
    capture = upload_bytes(api, incident["id"], path.read_bytes(), path.name)
    assert wait_parsed(api, capture["id"])["status"] in {"ready", "partial"}
    bins = CellBins(20)
    with open_local_capture(path) as local:
        for record in local.records():
            if (
                isinstance(record, TimedEvent)
                and record.kind is EventKind.SYSCALL
                and record.start_ns is not None
            ):
                bins.add_ns(record.start_ns, record.duration_ns)
    offline = build_heatmap(bins.cells(), rows=20, value="duration")
    served = heatmap(api, capture["id"], stream="syscall", rows=20, value="duration")
    assert served["values"] == offline.values
    assert (served["first_second"], served["total"], served["max"]) == (
        offline.first_second,
        offline.total,
        offline.max,
    )
