"""`stallscope threads` on local files: the same numbers as the API, without a server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from stallscope.cli import main
from tests.threads.test_threads_api import MS, SCHED, SCHEDULE, proc_sampler


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    status = main(["threads", *args, "--json"])
    return status, json.loads(capsys.readouterr().out)


def test_scheduler_file_gives_the_apis_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sched.txt"
    path.write_text(SCHED)
    status, result = run_json(capsys, str(path))
    assert status == 0
    assert result["source"] == "sched"
    worker = next(t for t in result["threads"] if t["tid"] == 100)
    assert worker["wall_ns"] == 2500 * MS
    assert worker["states_ns"]["runnable"] == 1000 * MS
    assert worker["shares"]["sleeping"] == 0.2
    assert worker["latency"]["p99_ns"] == 500 * MS
    assert worker["top_stacks"]["sleeping"]["frames"] == list(reversed(SCHEDULE))


def test_comm_filter_and_plain_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sched.txt"
    path.write_text(SCHED)
    assert main(["threads", str(path), "--comm", "^main$"]) == 0
    out = capsys.readouterr().out
    assert "scheduler intervals (exact)" in out
    assert "main ?/200" in out
    assert "worker" not in out.split("top blocking stack")[0]


def test_proc_sampler_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "proc.jsonl"
    path.write_bytes(proc_sampler())
    status, result = run_json(capsys, str(path))
    assert status == 0
    assert result["source"] == "proc-sampler"
    (db,) = result["threads"]
    assert db["wall_ns"] == 250 * MS  # 5 ticks of the header's 50 ms
    assert db["states_ns"]["running"] == 150 * MS


def test_a_file_without_thread_data_and_a_bad_regex_fail_clearly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cpu.txt"
    path.write_text("app 1/1 [000] 1.0: 1 cpu-clock:\n\t1 main (/bin/app)\n\n")
    assert main(["threads", str(path)]) == 1
    assert "no scheduler intervals" in capsys.readouterr().err
    assert main(["threads", str(path), "--comm", "("]) == 2
    assert "not a valid regular expression" in capsys.readouterr().err
    assert main(["threads", str(tmp_path / "missing.txt")]) == 1
    assert "missing.txt" in capsys.readouterr().err


def test_real_scheduler_capture_finds_the_lock_and_the_fsync(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, result = run_json(
        capsys, str(corpus / "captures" / "offcpu5s.perf.txt.gz"), "--comm", "mutex|fsync"
    )
    assert status == 0
    threads = result["threads"]
    lock_waiters = [t for t in threads if t["comm"] == "mutex16"]
    assert len(lock_waiters) == 16
    for t in lock_waiters:
        assert t["shares"]["sleeping"] > 0.5
        assert "futex" in " ".join(t["top_stacks"]["sleeping"]["frames"])
    fsync = next(t for t in threads if t["comm"] == "fsync_io")
    assert fsync["states_ns"]["uninterruptible"] > 0
    assert "io_schedule" in fsync["top_stacks"]["uninterruptible"]["frames"]
    for t in threads:
        assert sum(t["states_ns"].values()) == t["wall_ns"]
