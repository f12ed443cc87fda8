"""`stallscope diff A B` on capture files written to disk: the numbers, both outputs, clear errors."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
import zstandard

from stallscope.cli import main
from tests.diff.texts import AFTER, BEFORE, MS, sched_capture
from tests.fixtures.corpus import corpus_file


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    data = text.encode()
    if name.endswith(".gz"):
        data = gzip.compress(data)
    elif name.endswith(".zst"):
        data = zstandard.ZstdCompressor().compress(data)
    path.write_bytes(data)
    return path


def run_json(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> dict[str, Any]:
    assert main(["diff", *map(str, argv), "--json"]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def row(rows: list[dict[str, Any]], name: str) -> dict[str, Any]:
    (found,) = [r for r in rows if r["name"] == name]
    return found


def test_cpu_diff_of_a_two_to_one_change(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = write(tmp_path, "before.txt.gz", BEFORE)
    after = write(tmp_path, "after.txt.zst", AFTER)
    result = run_json(capsys, before, after, "--normalize", "none")
    assert (result["source"], result["event"], result["unit"]) == ("cpu", "cpu-clock", "ns")
    assert (result["a"]["total"], result["b"]["total"]) == (8 * MS, 8 * MS)
    assert (result["a"]["samples"], result["a"]["format"]) == (8, "perf-script")
    assert [f["name"] for f in result["by_total"][:2]] == ["scan", "sort"]
    scan = row(result["by_total"], "scan")
    assert (scan["total_a"], scan["total_b"], scan["total_delta"]) == (2 * MS, 4 * MS, 2 * MS)
    sort = row(result["by_self"], "sort")
    assert (sort["self_a"], sort["self_b"], sort["self_delta"]) == (4 * MS, 2 * MS, -2 * MS)
    assert row(result["by_total"], "query")["total_delta"] == 0
    assert result["function_count"] == 5


def test_plain_text_names_what_was_compared(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = write(tmp_path, "before.txt", BEFORE)
    # B has every sample twice: normalised, only scan and sort move.
    after = write(tmp_path, "after.txt", AFTER + AFTER.replace("100.", "102."))
    assert main(["diff", str(before), str(after), "--top", "2"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "B against A: CPU samples of cpu-clock, weighed by time"
    assert lines[1].split() == ["A", str(before), "8.00", "ms", "in", "8", "samples"]
    assert lines[2].split() == ["B", str(after), "16.0", "ms", "in", "16", "samples"]
    assert lines[1].index(" ms in") == lines[2].index(" ms in")
    assert "A scaled x2 to B's total" in lines[3]
    total_at = lines.index("Functions by total delta (2 of 5)")
    header, first, second = lines[total_at + 1 : total_at + 4]
    assert header.split() == ["A", "(scaled)", "B", "delta", "change", "function"]
    assert first.split() == ["4.00", "ms", "8.00", "ms", "+4.00", "ms", "+100.0%", "scan"]
    assert second.split() == ["8.00", "ms", "4.00", "ms", "-4.00", "ms", "-50.0%", "sort"]
    assert "Functions by self delta (2 of 5)" in lines


def test_plain_text_writes_off_cpu_time_and_counts_as_people_read_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    healthy = write(tmp_path, "healthy.sched.txt", sched_capture(d_ms=10, s_ms=100))
    impacted = write(tmp_path, "impacted.sched.txt", sched_capture(d_ms=30, s_ms=100))
    assert main(["diff", str(healthy), str(impacted), "--state", "D", "--normalize", "none"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "B against A: off-CPU time in state D, weighed by time"
    assert lines[1].split()[2:] == ["10.0", "ms", "in", "1", "interval"]
    assert lines[2].split()[2:] == ["30.0", "ms", "in", "1", "interval"]
    fsync = next(line for line in lines if line.endswith("__x64_sys_fsync"))
    assert fsync.split() == ["10.0", "ms", "30.0", "ms", "+20.0", "ms", "+200.0%", "__x64_sys_fsync"]
    # Counted events keep their counts, thousands separated, and say what they count.
    faults = write(tmp_path, "faults.txt", AFTER)
    assert main(["diff", str(faults), str(faults), "--event", "page-faults"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("weights in events")


def test_off_cpu_diff_of_scheduler_captures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    healthy = write(tmp_path, "healthy.sched.txt", sched_capture(d_ms=10, s_ms=100))
    impacted = write(tmp_path, "impacted.sched.txt.gz", sched_capture(d_ms=30, s_ms=100))
    result = run_json(capsys, healthy, impacted, "--normalize", "none", "--state", "D")
    assert (result["source"], result["unit"], result["state"]) == ("off-cpu", "us", "D")
    assert (result["a"]["total"], result["b"]["total"]) == (10_000, 30_000)
    fsync = row(result["by_total"], "__x64_sys_fsync")
    assert (fsync["total_a"], fsync["total_b"], fsync["total_delta"]) == (10_000, 30_000, 20_000)
    every_state = run_json(capsys, healthy, impacted, "--normalize", "none")
    # D grows by 20 ms; main's S wait shrinks by as much (it ends when worker's D ends).
    assert (every_state["a"]["total"], every_state["b"]["total"]) == (600_000, 600_000)
    assert row(every_state["by_total"], "__x64_sys_futex")["total_delta"] == -20_000


def test_off_cpu_source_can_be_forced_and_cpu_files_have_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sched = write(tmp_path, "sched.txt", sched_capture(d_ms=10, s_ms=100))
    cpu = write(tmp_path, "cpu.txt", BEFORE)
    assert main(["diff", str(sched), str(cpu)]) == 1
    assert "A is a scheduler capture (off-CPU time) and B is not" in capsys.readouterr().err
    result = run_json(capsys, sched, cpu, "--source", "off-cpu")
    assert (result["a"]["total"], result["b"]["total"]) == (600_000, 0)
    assert row(result["by_total"], "__schedule")["total_delta"] == -600_000


def test_collapsed_stacks_and_event_choice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path, "a.folded", "app;main;parse 3\napp;main;render 1\n")
    b = write(tmp_path, "b.folded", "app;main;parse 1\napp;main;render 3\n")
    result = run_json(capsys, a, b)
    assert row(result["by_self"], "render")["self_delta"] == 2
    assert row(result["by_self"], "parse")["self_delta"] == -2
    faults = run_json(
        capsys, write(tmp_path, "b.txt", AFTER), write(tmp_path, "a.txt", AFTER), "--event", "page-faults"
    )
    assert (faults["event"], faults["unit"], faults["b"]["total"]) == ("page-faults", "events", 1)
    assert main(["diff", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "--event", "cycles"]) == 1
    assert (
        "neither file has samples of event 'cycles' (events: cpu-clock, page-faults)"
        in capsys.readouterr().err
    )


def test_bad_files_are_named_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write(tmp_path, "good.txt", BEFORE)
    binary = tmp_path / "perf.data"
    binary.write_bytes(b"PERFILE2" + bytes(64))
    assert main(["diff", str(good), str(binary)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"stallscope diff: {binary}: ")
    assert "perf.data file" in err
    broken = tmp_path / "broken.txt.gz"
    broken.write_bytes(gzip.compress(BEFORE.encode())[:6])  # cut in the header: nothing decodes
    assert main(["diff", str(broken), str(good)]) == 1
    assert capsys.readouterr().err.startswith(f"stallscope diff: {broken}: ")
    missing = tmp_path / "missing.txt"
    assert main(["diff", str(good), str(missing)]) == 1
    assert capsys.readouterr().err.strip() == f"stallscope diff: {missing}: No such file or directory"


def test_the_same_recording_printed_two_ways_has_an_empty_diff(capsys: pytest.CaptureFixture[str]) -> None:
    a = corpus_file("captures", "cpu20s.perf.txt.gz")
    b = corpus_file("captures", "cpu20s.F.perf.txt.gz")
    result = run_json(capsys, a, b, "--top", "5")
    assert result["a"]["samples"] == result["b"]["samples"] == 39_856
    assert result["a"]["total"] == result["b"]["total"]
    assert result["scale"] == 1.0
    assert result["function_count"] > 1000
    for table in ("by_total", "by_self"):
        assert len(result[table]) == 5
        assert all(f["total_delta"] == 0 and f["self_delta"] == 0 for f in result[table])
    # The heaviest functions, which differ by nothing, lead the tables.
    assert result["by_total"][0]["total_b"] > 0
