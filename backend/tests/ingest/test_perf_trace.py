"""`perf trace` output to SYSCALL events: the real captures and one snippet per rule."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest

from stallscope.ingest.model import EventKind, ParseError, ParseReport, TimedEvent
from stallscope.ingest.perf_trace import (
    ABSOLUTE_IMPORTER,
    IMPORTER,
    detect,
    detect_absolute,
    parse_perf_trace,
)
from stallscope.ingest.perf_trace.line import EVENT, read_line
from stallscope.ingest.registry import detect_importer
from stallscope.kit.compression import open_capture

DATA = Path(__file__).parent / "data" / "perf_trace"


def parse(text: str) -> tuple[list[TimedEvent], ParseReport]:
    report = ParseReport()
    return list(parse_perf_trace(io.BytesIO(text.encode()), report)), report


def parse_file(path: Path) -> tuple[list[TimedEvent], ParseReport]:
    report = ParseReport()
    with open_capture(path) as stream:
        return list(parse_perf_trace(stream, report)), report


def test_complete_call() -> None:
    line = (
        "12453.692 ( 9.060 ms): memsqld/55950 mmap(len: 1265444, prot: READ, flags: PRIVATE|POPULATE, "
        "fd: 65</path/to/file>) = 0x7f95ece9f000\n"
    )
    (event,), report = parse(line)
    assert (event.kind, event.name, event.start_ns, event.duration_ns) == (
        EventKind.SYSCALL,
        "mmap",
        12_453_692_000,
        9_060_000,
    )
    assert (event.comm, event.tid, event.pid, event.line) == ("memsqld", 55950, None, 1)
    assert event.args == "len: 1265444, prot: READ, flags: PRIVATE|POPULATE, fd: 65</path/to/file>"
    assert (event.result, event.attrs, report.warnings) == ("0x7f95ece9f000", {}, [])


def test_errno_result() -> None:
    (event,), _ = parse(
        "  2020.850 ( 3.620 ms): python3/21530 futex(uaddr: 0x7fb564000ba0, op: WAIT_BITSET|PRIVATE_FLAG, "
        "utime: 0x7fb5696f1970, val3: MATCH_ANY) = -1 ETIMEDOUT (Connection timed out)\n"
    )
    assert (event.result, event.attrs) == ("-1 ETIMEDOUT (Connection timed out)", {"errno": "ETIMEDOUT"})


def test_split_call_is_joined() -> None:
    events, report = parse(
        "     4.408 (         ): fsync_io/21511 fsync(fd: 4)                                   ...\n"
        "     5.734 ( 0.026 ms): python3/21512 mmap(len: 8192, prot: READ|WRITE)           = 0x7fb569cc7000\n"
        "     4.408 (13.690 ms): fsync_io/21511  ... [continued]: fsync())                   = 0\n"
    )
    assert [e.name for e in events] == ["mmap", "fsync"]
    fsync = events[1]
    assert (fsync.start_ns, fsync.duration_ns, fsync.args, fsync.result, fsync.line) == (
        4_408_000,
        13_690_000,
        "fd: 4",
        "0",
        1,
    )
    assert report.warnings == []


def test_continuation_without_its_start_keeps_time_but_no_args() -> None:
    (event,), report = parse("   879.264 ( 4.638 ms): mutex16/21523  ... [continued]: futex())     = 0\n")
    assert (event.start_ns, event.duration_ns, event.args, event.comm) == (
        879_264_000,
        4_638_000,
        None,
        "mutex16",
    )
    assert "had no start line" in report.warnings[0].message


def test_call_still_open_at_the_end_has_no_duration() -> None:
    (event,), report = parse(
        "  2013.224 (         ): mutex16/21525 futex(uaddr: 0x55956171f0a0, op: WAIT, val: 2)     ...\n"
    )
    assert (event.name, event.start_ns, event.duration_ns, event.result) == (
        "futex",
        2_013_224_000,
        None,
        None,
    )
    assert "never returned" in report.warnings[0].message


def test_new_call_on_the_same_thread_closes_the_lost_one_unclosed() -> None:
    events, _ = parse(
        "     1.000 (         ): app/7 read(fd: 3)     ...\n     2.000 ( 0.010 ms): app/7 close(fd: 3) = 0\n"
    )
    assert [(e.name, e.duration_ns) for e in events] == [("read", None), ("close", 10_000)]


def test_exit_group_never_returns() -> None:
    (event,), _ = parse("    51.232 (         ): sleep/31001 exit_group()                   = ?\n")
    assert (event.name, event.duration_ns, event.result, event.attrs) == (
        "exit_group",
        None,
        None,
        {"no_return": True},
    )


@pytest.mark.parametrize(
    ("line", "comm", "tid", "duration"),
    [
        ("     0.000 sleep/8729 nanosleep(rqtp: 0x7ffcb0b4c940, rmtp: 0) = 0\n", "sleep", 8729, None),
        ("     2.221 ( 0.958 ms): 6724 execve(arg0: 140733557168278) = -2\n", "", 6724, 958_000),
        ("     2.221 ( 0.958 ms): brk() = 0x55d\n", "", None, 958_000),
        ("   123.456 ( 0.002 ms): Web Content/123 read(fd: 3, count: 4) = 0\n", "Web Content", 123, 2_000),
        ("   123.456 ( 0.002 ms): kworker/u8:1-e/32 read(fd: 3) = 0\n", "kworker/u8:1-e", 32, 2_000),
    ],
)
def test_optional_columns(line: str, comm: str, tid: int | None, duration: int | None) -> None:
    (event,), report = parse(line)
    assert (event.comm, event.tid, event.duration_ns) == (comm, tid, duration)
    assert report.warnings == []


def test_other_lines_are_dropped_with_a_warning_and_the_summary_skipped() -> None:
    events, report = parse(
        "     1.000 ( 0.010 ms): app/7 close(fd: 3) = 0\n"
        "     1.500 app/7 majfault [__clear_user+0x3f] => 0x7f0000 (d.)\n"
        "\n Summary of events:\n\n app (7), 2 events, 100.0%\n"
    )
    assert [e.name for e in events] == ["close"]
    assert (report.dropped_lines, report.warnings[0].line, report.warnings[1].line) == (1, 2, 4)


def test_not_perf_trace_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="not `perf trace` output"):
        parse("time,cpu,usage\n" * 30)


def test_cut_last_line_is_dropped() -> None:
    events, report = parse(
        "     1.000 ( 0.010 ms): app/7 close(fd: 3) = 0\n     2.000 ( 0.010 ms): app/7 clo"
    )
    assert len(events) == 1
    assert report.truncated
    assert report.dropped_lines == 1


def test_callchains_become_stacks() -> None:
    events, report = parse_file(DATA / "callgraph.txt")
    assert report.warnings == []
    nanosleep = next(e for e in events if e.name == "clock_nanosleep")
    assert (nanosleep.duration_ns, [f.name for f in nanosleep.stack]) == (
        50_126_000,
        ["[unknown]", "clock_nanosleep@GLIBC_2.2.5"],  # root first; [0] is where unwinding stopped
    )
    exits = [e for e in events if e.name == "exit_group"]
    assert exits
    assert all(e.duration_ns is None and e.attrs == {"no_return": True} for e in exits)


def test_no_inherit_with_tracepoints_is_perf_trace_and_events_end_no_call() -> None:
    """`--no-inherit` drops the comm/tid column; `-e sched:*` adds lines that are not syscalls."""
    head = (DATA / "no_inherit_tracepoints.txt").read_bytes()
    assert detect_importer(head) is IMPORTER
    events, report = parse_file(DATA / "no_inherit_tracepoints.txt")
    assert (report.warnings, report.dropped_lines) == ([], 0)
    kinds = Counter((e.kind, e.name) for e in events)
    assert kinds[(EventKind.TRACEPOINT, "sched:sched_switch")] == 3
    assert kinds[(EventKind.TRACEPOINT, "sched:sched_waking")] == 2
    (sleep,) = [e for e in events if e.kind is EventKind.SYSCALL]
    # The sched_switch between its start and its `[continued]` line did not end the call.
    assert (sleep.name, sleep.start_ns, sleep.duration_ns, sleep.result) == (
        "clock_nanosleep",
        4_802_000,
        50_139_000,
        "0",
    )
    exec_event = next(e for e in events if e.name == "sched:sched_process_exec")
    assert (exec_event.start_ns, exec_event.duration_ns, exec_event.comm, exec_event.tid) == (
        128_000,
        None,
        "",
        None,
    )
    assert exec_event.args == 'filename: "/usr/bin/sleep", pid: 14147 (sleep), old_pid: 14147 (sleep)'


def test_tracepoints_alone_have_no_duration_column() -> None:
    head = (DATA / "tracepoints.txt").read_bytes()
    assert detect_importer(head) is IMPORTER
    events, report = parse_file(DATA / "tracepoints.txt")
    assert (len(events), report.warnings) == (7, [])
    assert {e.kind for e in events} == {EventKind.TRACEPOINT}
    wakeup = next(e for e in events if e.name == "sched:sched_wakeup")
    assert (wakeup.start_ns, wakeup.comm, wakeup.tid) == (4_176_000, "sh", 14153)
    assert wakeup.args == 'comm: "sh", pid: 14152 (sh), prio: 120, target_cpu: 1'


@pytest.mark.parametrize(
    ("line", "name", "comm", "tid"),
    [
        (
            "  1235.131 CPU 0/KVM/3750 msr:write_msr(msr: 0x830, val: 4294969595)\n",
            "msr:write_msr",
            "CPU 0/KVM",
            3750,
        ),
        (
            '     0.037 :0/0 sched:sched_wakeup(comm: "perf-exec", pid: 30932 (perf-exec))\n',
            "sched:sched_wakeup",
            ":0",
            0,
        ),
        (
            "     3.100 (         ): app/7 probe_libc:malloc(__probe_ip: 140234)\n",
            "probe_libc:malloc",
            "app",
            7,
        ),
    ],
)
def test_event_lines_of_every_shape(line: str, name: str, comm: str, tid: int) -> None:
    (event,), report = parse(line)
    assert (event.kind, event.name, event.comm, event.tid, event.duration_ns) == (
        EventKind.TRACEPOINT,
        name,
        comm,
        tid,
        None,
    )
    assert report.warnings == []


def test_lost_events_are_counted_and_reported_once() -> None:
    events, report = parse_file(DATA / "lost_events.txt.gz")
    assert (len(events), report.dropped_lines) == (333, 0)
    lost = [w for w in report.warnings if w.message.startswith("perf lost")]
    assert [(w.line, w.message) for w in lost] == [
        (69, "perf lost 15,348 events: the trace has gaps where its buffers were full")
    ]


def test_a_last_line_without_its_newline_is_kept() -> None:
    events, report = parse(
        "     1.000 ( 0.010 ms): app/7 close(fd: 3) = 0\n     2.000 ( 0.010 ms): app/7 close(fd: 4) = 0"
    )
    assert [e.args for e in events] == ["fd: 3", "fd: 4"]
    assert (report.truncated, report.warnings) == (False, [])


def test_comment_lines_are_skipped() -> None:
    text = "# perf trace -e close -p 7, db-7\n     1.000 ( 0.010 ms): app/7 close(fd: 3) = 0\n"
    assert detect(text.encode())
    events, report = parse(text)
    assert [(e.line, e.name) for e in events] == [(2, "close")]
    assert (report.dropped_lines, report.warnings) == (0, [])


def test_absolute_times_pick_the_absolute_importer() -> None:
    head = (DATA / "absolute_T.txt").read_bytes()
    assert detect_absolute(head)
    assert not detect(head)
    events, _ = parse_file(DATA / "absolute_T.txt")
    assert events[0].start_ns == 4_547_524_298_000  # 4547 s since boot, on perf's clock
    assert (IMPORTER.clock.value, ABSOLUTE_IMPORTER.clock.value) == ("relative", "monotonic")


def test_reference_capture(corpus: Path) -> None:
    events, report = parse_file(corpus / "captures" / "perf_trace.mmap_fsync_futex.txt.gz")
    # 17,242 lines: 6,237 calls split in two, plus one continuation whose start perf never printed.
    assert len(events) == 11_005
    assert Counter(e.name for e in events) == {"futex": 9_128, "fsync": 1_734, "mmap": 143}
    assert all(e.duration_ns is not None and e.start_ns is not None for e in events)
    assert Counter(e.attrs.get("errno") for e in events) == {None: 10_315, "ETIMEDOUT": 562, "EAGAIN": 128}
    assert sum(e.args is None for e in events) == 1
    assert [w.message for w in report.warnings] == [
        "1 `[continued]` line(s) had no start line; kept without their arguments"
    ]
    longest = max(events, key=lambda e: e.duration_ns or 0)
    assert (longest.name, longest.tid, longest.start_ns, longest.duration_ns) == (
        "futex",
        21510,
        14_546_000,
        1_998_260_000,
    )
    with open_capture(corpus / "captures" / "perf_trace.mmap_fsync_futex.txt.gz") as stream:
        assert detect(stream.read(65536))


@pytest.mark.parametrize("name", ["tracepoints.txt", "no_inherit_tracepoints.txt"])
def test_the_fast_event_shape_reads_what_the_general_reader_reads(name: str) -> None:
    """`EVENT` (one match, for speed) and `read_line` (every variant) agree on every event line."""
    checked = 0
    for raw in (DATA / name).read_bytes().splitlines():
        fast, general = EVENT.match(raw), read_line(raw)
        if general is None or general.shape != "event":
            assert fast is None, raw
            continue
        assert fast is not None, raw
        time_s, time_ms, comm, tid, event_name, args = fast.groups()
        assert (f"{time_s.decode()}.{time_ms.decode()}", event_name.decode(), args.decode()) == (
            general.time_ms,
            general.name,
            general.args,
        )
        assert (comm.decode() if comm else "", int(tid) if tid else None) == (general.comm, general.tid)
        checked += 1
    assert checked > 5
