"""`stallscope heatmap FILE` on files with records at known offsets, and on a real capture."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from stallscope.cli import main
from stallscope.commands.local_file import open_local_capture
from stallscope.ingest.model import EventKind, TimedEvent
from tests.fixtures.corpus import corpus_file

EPOCH_S = 1_763_712_100  # 2025-11-21T08:01:40Z


def sample(t: str, event: str = "cpu-clock", period: int = 1_000_000) -> str:
    frames = "\t    1000 scan (/usr/bin/db)\n\t    1001 main (/usr/bin/db)\n"
    return f"db 10/11 [000] {t}: {period} {event}:\n{frames}\n"


def perf_script(times: list[str], extra: str = "") -> str:
    return "".join(sample(t) for t in times) + extra


# Offsets: three in the first 20 ms, one on the 20 ms edge, one at 500 ms; then 1 ms and the last µs
# of the next second; nothing in the third; the fourth exactly on its boundary.
OFFSETS = [(0, "005000"), (0, "010000"), (0, "019999"), (0, "020000"), (0, "500000"), (1, "001000")]
OFFSETS += [(1, "999999"), (3, "000000")]
EXPECTED = {(0, 0): 3, (0, 1): 1, (0, 25): 1, (1, 0): 1, (1, 49): 1, (3, 0): 1}

TRACE = (
    "     5.000 ( 3.000 ms): app/100 fsync(fd: 4)                 = 0\n"
    "    12.000 ( 2.500 ms): app/100 fsync(fd: 4)                 = 0\n"
    "  1004.000 ( 7.000 ms): app/100 fsync(fd: 4)                 = 0\n"
    "  1500.000 ( 1.000 ms): app/101 futex(uaddr: 0x1, op: WAIT)  = 0\n"
    "  2010.000 (         ): app/102 futex(uaddr: 0x1, op: WAIT)  ...\n"
)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def heatmap_json(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["heatmap", str(path), "--json", *args]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def nonzero(result: dict[str, Any]) -> dict[tuple[int, int], int]:
    return {(c, r): v for c, col in enumerate(result["values"]) for r, v in enumerate(col) if v}


@pytest.fixture
def realtime_file(tmp_path: Path) -> Path:
    """perf recorded with `-k CLOCK_REALTIME`: epoch seconds in the time column."""
    return write(tmp_path, "realtime.txt", perf_script([f"{EPOCH_S + s}.{us}" for s, us in OFFSETS]))


def test_json_puts_records_at_known_offsets_in_their_cells(
    realtime_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = heatmap_json(realtime_file, capsys)
    assert (result["stream"], result["name"], result["wall_clock"], result["clock_note"]) == (
        "samples",
        "cpu-clock",
        True,
        None,
    )
    assert (result["first_second"], result["columns"], result["rows"], result["row_us"]) == (
        EPOCH_S,
        4,
        50,
        20_000,
    )
    assert nonzero(result) == EXPECTED
    assert "counts" not in result  # a count matrix would only repeat the values
    hot = result["hot"][0]
    assert (hot["second"], hot["row"], hot["offset_start_us"], hot["offset_end_us"], hot["value"]) == (
        EPOCH_S,
        0,
        0,
        20_000,
        3,
    )


def test_text_shades_the_matrix_and_lists_the_hottest_cells(
    realtime_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["heatmap", str(realtime_file), "--top", "2"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    # row labels right-aligned; 3 samples is the darkest shade, 1 of 3 a third of the way up the scale
    assert "  0 ms |@- -|" in lines
    assert " 20 ms |-   |" in lines
    assert " 40 ms |    |" in lines
    assert "980 ms | -  |" in lines
    assert any("first column: 2025-11-21 08:01:40Z" in line for line in lines)
    assert any("last column: 2025-11-21 08:01:43Z" in line for line in lines)
    assert "not wall-clock" not in out
    hot = lines[lines.index("hottest cells:") + 1 :]
    assert hot[0].split() == [
        "1.",
        "2025-11-21",
        "08:01:40Z",
        "(+0",
        "s)",
        "0",
        "ms..20",
        "ms",
        "3",
        "samples",
    ]
    assert len(hot) == 2


def test_own_clock_times_say_they_are_not_wall_clock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "boot.txt", perf_script([f"{100 + s}.{us}" for s, us in OFFSETS]))
    result = heatmap_json(path, capsys)
    assert (result["wall_clock"], result["first_second"]) == (False, 100)
    assert "seconds since boot" in result["clock_note"]
    assert nonzero(result) == EXPECTED
    assert main(["heatmap", str(path)]) == 0
    assert "not wall-clock" in capsys.readouterr().out
    aligned = heatmap_json(path, capsys, "--offset", str(EPOCH_S - 100))
    assert (aligned["wall_clock"], aligned["first_second"]) == (True, EPOCH_S)
    assert nonzero(aligned) == EXPECTED


def test_the_busiest_event_is_the_default_and_events_are_never_summed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    faults = "".join(sample(f"{EPOCH_S}.9{i:05d}", "page-faults", 1) for i in range(10))
    path = write(tmp_path, "two-events.txt", perf_script([f"{EPOCH_S}.000100"], faults))
    busiest = heatmap_json(path, capsys, "--rows", "10")
    assert (busiest["name"], nonzero(busiest)) == ("page-faults", {(0, 9): 10})
    cpu = heatmap_json(path, capsys, "--rows", "10", "--name", "cpu-clock", "--value", "duration")
    assert (cpu["unit"], nonzero(cpu)) == ("ns", {(0, 0): 1_000_000})
    assert main(["heatmap", str(path), "--value", "duration"]) == 1
    assert "--value count" in capsys.readouterr().err


def test_syscall_durations_are_summed_and_unclosed_calls_weigh_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "trace.txt", TRACE)
    result = heatmap_json(path, capsys, "--value", "duration")
    assert (result["stream"], result["unit"], result["wall_clock"]) == ("syscall", "ns", False)
    assert "relative to the start of the trace" in result["clock_note"]
    assert nonzero(result) == {(0, 0): 5_500_000, (1, 0): 7_000_000, (1, 25): 1_000_000}
    assert result["counts"][2][0] == 1
    assert result["unclosed"] == 1
    assert any("never ended" in note for note in result["notes"])
    fsync = heatmap_json(path, capsys, "--name", "fsync", "--value", "duration")
    assert nonzero(fsync) == {(0, 0): 5_500_000, (1, 0): 7_000_000}


def test_long_captures_merge_seconds_to_fit_the_width(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "long.txt", perf_script([f"{EPOCH_S + s}.000000" for s in range(0, 300, 10)]))
    result = heatmap_json(path, capsys, "--width", "30", "--rows", "1")
    assert (result["columns"], result["column_seconds"]) == (30, 10)
    assert all(col == [1] for col in result["values"])
    assert any("each column sums 10 s" in note for note in result["notes"])


def test_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "cpu.txt", perf_script([f"{EPOCH_S}.000100"]))
    assert main(["heatmap", str(path), "--rows", "30"]) == 2
    assert "whole microseconds" in capsys.readouterr().err
    assert main(["heatmap", str(path), "--stream", "syscall"]) == 1
    err = capsys.readouterr().err
    assert "no syscall records" in err
    assert "perf trace" in err
    assert "samples (1)" in err
    assert main(["heatmap", str(path), "--name", "nope"]) == 1
    assert "cpu-clock" in capsys.readouterr().err


def test_real_perf_trace_capture(capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus_file("captures", "perf_trace.mmap_fsync_futex.txt.gz")
    calls = 0
    closed_ns = 0
    with open_local_capture(path) as capture:
        for record in capture.records():
            if (
                isinstance(record, TimedEvent)
                and record.kind is EventKind.SYSCALL
                and record.start_ns is not None
            ):
                calls += 1
                closed_ns += record.duration_ns or 0
    result = heatmap_json(path, capsys, "--value", "duration", "--rows", "20")
    assert (result["stream"], result["format"], result["wall_clock"]) == ("syscall", "perf-trace", False)
    assert result["total_count"] == calls
    assert result["total"] == closed_ns
    assert len(result["values"]) == result["columns"] >= 2
    assert all(len(col) == 20 for col in result["values"])
    values = [h["value"] for h in result["hot"]]
    assert values == sorted(values, reverse=True)
    assert values[0] == result["max"]
    assert main(["heatmap", str(path), "--rows", "20"]) == 0
    assert "relative to the start of the trace" in capsys.readouterr().out


def test_gzip_files_are_read_like_plain_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "realtime.txt.gz"
    path.write_bytes(gzip.compress(perf_script([f"{EPOCH_S + s}.{us}" for s, us in OFFSETS]).encode()))
    assert nonzero(heatmap_json(path, capsys)) == EXPECTED
