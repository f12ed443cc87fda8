"""Periodic /proc/PID/task/TID/stack dumps to samples: real recordings (see data/proc_stacks/README.md)
and hand-written variants of the headers people print."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest

from stallscope.ingest.model import FrameKind, ParseError, ParseReport, Sample
from stallscope.ingest.proc_stacks import IMPORTER, detect, parse_proc_stacks
from stallscope.ingest.registry import detect_importer

DATA = Path(__file__).parent / "data" / "proc_stacks"
RECORDED = ("ts_us.txt", "pid_state.txt", "iso.txt", "tail_date.txt", "head_bare.txt")
FSYNC_ROOT_FIRST = [
    "entry_SYSCALL_64_after_hwframe",
    "do_syscall_64",
    "__x64_sys_fsync",
    "do_fsync",
    "ext4_sync_file",
    "blkdev_issue_flush",
    "submit_bio_wait",
]


def parse(data: bytes) -> tuple[list[Sample], ParseReport]:
    report = ParseReport()
    return list(parse_proc_stacks(io.BytesIO(data), report)), report


def names(sample: Sample) -> list[str]:
    return [frame.name for frame in sample.stack]


@pytest.mark.parametrize("name", RECORDED)
def test_the_registry_picks_this_importer_for_every_recorded_variant(name: str) -> None:
    head = (DATA / name).read_bytes()[: 64 * 1024]
    assert detect(head)
    assert detect_importer(head).name == IMPORTER.name == "proc-stacks"


def test_the_issue_header_gives_one_sample_per_dump() -> None:
    samples, report = parse((DATA / "ts_us.txt").read_bytes())
    assert (report.warnings, report.dropped_lines, report.partial) == ([], 0, False)
    assert len(samples) == report.samples == 132
    first = samples[0]
    assert (first.line, first.comm, first.pid, first.tid, first.event) == (
        1,
        "stallwork",
        None,
        32258,
        "proc-stack",
    )
    assert first.time_ns == 1795625972170536 * 1000
    assert (first.period, first.weight, first.cpu) == (None, 1, None)
    assert names(first) == [
        "entry_SYSCALL_64_after_hwframe",
        "do_syscall_64",
        "__x64_sys_clock_nanosleep",
        "common_nsleep",
        "hrtimer_nanosleep",
    ]
    assert {frame.kind for s in samples for frame in s.stack} == {FrameKind.KERNEL}
    assert any(names(s) == FSYNC_ROOT_FIRST for s in samples)
    assert {s.comm for s in samples} == {"stallwork", "fsync", "lock", "io worker", "spin", "nap"}
    times = [s.time_ns for s in samples]
    assert times == sorted(times)


def test_a_running_thread_is_kept_with_an_empty_stack() -> None:
    samples, _ = parse((DATA / "ts_us.txt").read_bytes())
    empty = [s for s in samples if not s.stack]
    assert len(empty) == 9
    assert {s.comm for s in empty} == {"spin", "lock"}  # the threads that burn CPU (lock: inside the lock)


def test_the_state_goes_into_the_event_name() -> None:
    samples, report = parse((DATA / "pid_state.txt").read_bytes())
    assert report.warnings == []
    assert Counter(s.event for s in samples) == {"proc-stack:R": 59, "proc-stack:S": 48, "proc-stack:D": 13}
    assert {s.pid for s in samples} == {32258}
    blocked = [s for s in samples if s.event == "proc-stack:D"]
    assert {s.comm for s in blocked} <= {"fsync", "io worker"}
    assert all(s.stack for s in blocked)


def test_iso_times_keep_their_nanoseconds() -> None:
    samples, report = parse((DATA / "iso.txt").read_bytes())
    assert len(samples) == 108
    assert samples[0].time_ns == 1795625978_107271578  # 2026-11-25T16:59:38,107271578+00:00
    assert report.dropped_lines == 0


def test_tail_headers_give_pid_and_tid_and_date_lines_the_time() -> None:
    samples, report = parse((DATA / "tail_date.txt").read_bytes())
    assert (report.warnings, report.dropped_lines) == ([], 0)
    assert len(samples) == 168
    assert {(s.pid, s.comm) for s in samples} == {(32258, "")}
    assert [s.tid for s in samples[:2]] == [32258, 32260]
    assert samples[0].time_ns == 1795625981 * 10**9  # Wed Nov 25 16:59:41 UTC 2026
    assert len({s.time_ns for s in samples}) == 3
    assert sum(1 for s in samples if not s.stack) == 15


def test_head_without_times_gives_untimed_samples() -> None:
    samples, _ = parse((DATA / "head_bare.txt").read_bytes())
    assert len(samples) == 168
    assert {s.time_ns for s in samples} == {None}


def test_frame_names_follow_perf_scripts_kernel_naming() -> None:
    samples, report = parse(
        b"# ts_us=1795625972000000 tid=7 comm=nfsd\n"
        b"[<0>] rpc_wait_bit_killable+0x1e/0xa0 [sunrpc]\n"
        b"[<0>] nfs_wait_on_request+0x2c/0x40 [nfs 3f1a2b]\n"
        b"[<0>] 0xffffffffc0a5d1e0\n"
        b"[<0>] odd;name+0x1/0x2\n"
        b"[<ffffffff81063f52>] do_syscall_64+0x71/0x280\n"
        b"[<ffffffffffffffff>] 0xffffffffffffffff\n"
    )
    assert report.warnings == []
    assert names(samples[0]) == [
        "do_syscall_64",
        "odd:name",
        "[unknown]",
        "nfs_wait_on_request",
        "rpc_wait_bit_killable",
    ]


def test_header_variants() -> None:
    samples, report = parse(
        b"# started by hand\n"
        b"# 2026-11-25T16:59:38.5Z pid=1 tid=2 state=D (disk sleep) comm='VM Thread'\n"
        b"[<0>] io_schedule+0x12/0x40\n"
        b"# tid=3 ts_ms=1795625978600 comm=kworker/0:1H state=I\n"
        b"[<0>] worker_thread+0xb6/0x380\n"
        b"# ts=1795625978.7\n"
        b"==> /proc/1/stack <==\n"
        b"[<0>] ep_poll+0x2b5/0x300\n"
    )
    assert report.dropped_lines == 0
    assert [(s.pid, s.tid, s.comm, s.event, s.time_ns) for s in samples] == [
        (1, 2, "VM Thread", "proc-stack:D", 1795625978_500000000),
        (None, 3, "kworker/0:1H", "proc-stack:I", 1795625978_600000000),
        (1, 1, "", "proc-stack", 1795625978_700000000),
    ]


def test_a_line_of_no_kind_is_dropped_and_the_dump_kept() -> None:
    samples, report = parse(
        b"# ts_us=1795625972000000 tid=7 comm=a\n"
        b"[<0>] folio_wait_bit+0xd6/0x220\n"
        b"%%% damaged %%%\n"
        b"[<0>] do_syscall_64+0x71/0x280\n"
        b"# ts_us=1795625972100000 tid=8 comm=b\n"
    )
    assert [(s.comm, names(s)) for s in samples] == [("a", ["do_syscall_64", "folio_wait_bit"]), ("b", [])]
    assert report.dropped_lines == 1
    assert report.warnings[0].line == 3


def test_a_bad_time_drops_its_dump_only() -> None:
    samples, report = parse(
        b"# ts_us=17956259720000x0 tid=7 comm=a\n"
        b"[<0>] folio_wait_bit+0xd6/0x220\n"
        b"# ts_us=1795625972100000 tid=8 comm=b\n"
        b"[<0>] futex_wait+0x67/0x120\n"
    )
    assert [s.comm for s in samples] == ["b"]
    assert report.dropped_lines == 2
    assert "time cannot be read" in report.warnings[0].message


def test_a_time_zone_abbreviation_is_refused_with_a_way_out() -> None:
    samples, report = parse(
        b"Wed Nov 25 17:59:41 CET 2026\n==> /proc/9/task/9/stack <==\n[<0>] futex_wait+0x67/0x120\n"
    )
    assert [(s.tid, s.time_ns) for s in samples] == [(9, None)]
    assert "date -Ins" in report.warnings[0].message


def test_a_file_cut_inside_a_dump_loses_that_dump() -> None:
    data = (DATA / "ts_us.txt").read_bytes()
    samples, report = parse(data[:-5])
    assert len(samples) == 131
    assert report.truncated
    assert "ends inside this dump" in report.warnings[-1].message


def test_a_missing_final_newline_loses_nothing() -> None:
    data = (DATA / "ts_us.txt").read_bytes()
    samples, report = parse(data.rstrip(b"\n"))
    whole, _ = parse(data)
    assert [names(s) for s in samples] == [names(s) for s in whole]
    assert not report.partial


def test_a_thread_that_exited_is_no_running_thread() -> None:
    """`cat` (its stderr in the file) could not read the stack: that dump is dropped, not kept empty."""
    samples, report = parse(
        b"# ts_us=1795625972000000 tid=7 comm=worker\n"
        b"cat: /proc/5/task/7/stack: No such file or directory\n"
        b"# ts_us=1795625972000100 tid=8 comm=spin\n"
        b"# ts_us=1795625972000200 tid=9 comm=io\n"
        b"[<0>] io_schedule+0x12/0x40\n"
    )
    assert [(s.tid, names(s)) for s in samples] == [(8, []), (9, ["io_schedule"])]
    assert report.dropped_lines == 2
    assert "No such file or directory" in report.warnings[0].message
    assert "1 dump(s) whose stack file could not be read" in report.warnings[-1].message


def test_a_loop_that_could_read_no_stack_says_it_needs_root() -> None:
    """What `cat /proc/1/task/1/stack` prints to a process without CAP_SYS_ADMIN over that task."""
    refused = (
        b"# ts_us=1795625972000000 pid=1 tid=1 comm=init\n"
        b"cat: /proc/1/task/1/stack: Operation not permitted\n"
    )
    with pytest.raises(ParseError, match="needs root"):
        parse(refused * 3)


def test_stack_files_without_headers_are_refused() -> None:
    data = b"[<0>] futex_wait+0x67/0x120\n[<0>] do_syscall_64+0x71/0x280\n"
    assert not detect(data)
    with pytest.raises(ParseError, match="header before the"):
        parse(data)


def test_a_dmesg_call_trace_is_not_taken() -> None:
    oops = (
        b"[ 1234.567890] INFO: task fsync:32260 blocked for more than 120 seconds.\n"
        b"[ 1234.567899] Call Trace:\n"
        b"[ 1234.567901]  [<ffffffff8107a1b2>] schedule+0x29/0x70\n"
    )
    assert not detect(oops)
