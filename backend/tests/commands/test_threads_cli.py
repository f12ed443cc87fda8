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
    (sleeping,) = worker["top_stacks"]["sleeping"]
    assert (sleeping["frames"], sleeping["count"], sleeping["longest_ns"]) == (
        list(reversed(SCHEDULE)),
        1,
        500 * MS,
    )
    main_thread = next(t for t in result["threads"] if t["tid"] == 200)
    assert (main_thread["wall_ns"], main_thread["inferred_ns"]["running"]) == (1500 * MS, 500 * MS)


def test_comm_filter_and_plain_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sched.txt"
    path.write_text(SCHED)
    assert main(["threads", str(path), "--comm", "^main$"]) == 0
    out = capsys.readouterr().out
    assert "scheduler intervals (exact;" in out
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
        assert "futex" in " ".join(t["top_stacks"]["sleeping"][0]["frames"])
    fsync = next(t for t in threads if t["comm"] == "fsync_io")
    assert fsync["states_ns"]["uninterruptible"] > 0
    assert "io_schedule" in fsync["top_stacks"]["uninterruptible"][0]["frames"]
    # 2,433 waits of this capture have no switch-in: their thread's next event bounds them.
    assert fsync["states_ns"]["unknown"] == 0
    assert fsync["inferred_ns"]["uninterruptible"] > 0
    for t in threads:
        assert sum(t["states_ns"].values()) == t["wall_ns"]
    # No futex addresses in this capture: the mutex16 waits are one call site, all sixteen threads.
    (site,) = [lock for lock in result["locks"] if len(lock["waiters"]) == 16]
    assert site["kind"] == "site"
    assert {w["comm"] for w in site["waiters"]} == {"mutex16"}
    assert "futex_wait" in site["frames"]
    assert site["caller"][-1] == "__GI___lll_lock_wait"


def test_perf_trace_futex_calls_are_grouped_by_address(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = corpus / "captures" / "perf_trace.mmap_fsync_futex.txt.gz"
    status, result = run_json(capsys, str(path))
    assert (status, result["source"], result["threads"]) == (0, "none", [])
    top = result["locks"][0]
    assert (top["kind"], top["address"], top["pid"]) == ("address", "0x55956171f0a0", None)
    assert {w["comm"] for w in top["waiters"]} == {"mutex16"}
    assert top["waiter_count"] == 16
    assert top["waits"] == 4_251  # every futex(op: WAIT|PRIVATE_FLAG) call on it, each with its duration
    assert main(["threads", str(path)]) == 0
    assert "futex 0x55956171f0a0: x4251" in capsys.readouterr().out
