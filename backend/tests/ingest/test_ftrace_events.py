"""Event lines (`trace-cmd report`, the ftrace trace file) to TRACEPOINT events with their stacks."""

from __future__ import annotations

import gzip
import io
from collections import Counter
from pathlib import Path

from stallscope.ingest.ftrace import detect, parse_ftrace
from stallscope.ingest.ftrace.event_line import frame_name
from stallscope.ingest.model import EventKind, FrameKind, ParseReport, TimedEvent

DATA = Path(__file__).parent / "data" / "trace_cmd"
FTRACE = Path(__file__).parent / "data" / "ftrace"
REPORT = DATA / "block_wakeup.report.txt.gz"


def parse(data: bytes) -> tuple[list[TimedEvent], ParseReport]:
    report = ParseReport()
    return list(parse_ftrace(io.BytesIO(data), report)), report


def names(event: TimedEvent) -> list[str]:
    return [frame.name for frame in event.stack]


def test_real_trace_cmd_report() -> None:
    events, report = parse(gzip.decompress(REPORT.read_bytes()))
    assert (report.warnings, report.dropped_lines, report.truncated) == ([], 0, False)
    assert Counter(e.name for e in events) == {
        "sched_wakeup": 3_445,
        "block_rq_complete": 123,
        "block_bio_queue": 98,
        "block_rq_issue": 97,
        "block_rq_insert": 71,
    }
    assert all(e.kind is EventKind.TRACEPOINT and e.duration_ns is None for e in events)
    assert sum(bool(e.stack) for e in events) == 3_307  # every kernel_stack found its event
    insert = next(e for e in events if e.name == "block_rq_insert" and e.comm == "dd")
    assert (insert.line, insert.tid, insert.cpu, insert.start_ns) == (10_387, 15_016, 1, 3_789_278_860_000)
    assert insert.args == "254,0 WS 4194304 () 321040384 + 8192 0x2,0,4 [dd]"
    # Root first, the tracer's own frames (trace_event_raw_event_block_rq) left out.
    assert names(insert)[:4] == [
        "entry_SYSCALL_64_after_hwframe",
        "do_syscall_64",
        "__x64_sys_fsync",
        "do_fsync",
    ]
    assert names(insert)[-1] == "dd_insert_requests"
    assert {f.kind for e in events for f in e.stack} == {FrameKind.KERNEL}


def test_stack_of_an_event_on_another_cpu_waits_for_its_own() -> None:
    text = (
        b"cpus=2\n"
        b"     app-100   [000]  10.000001: block_rq_insert:      8,0 W 4096 () 8 + 8 [app]\n"
        b"  <idle>-0     [001]  10.000002: block_rq_complete:    8,0 W () 16 + 8 [0]\n"
        b"     app-100   [000]  10.000003: kernel_stack:         <stack trace >\n"
        b"=> trace_event_raw_event_block_rq (ffffffff81af64f3)\n"
        b"=> blk_mq_insert_request (ffffffff81b09037)\n"
        b"=> submit_bio (ffffffff81af8b5a)\n"
    )
    events, report = parse(text)
    insert = next(e for e in events if e.name == "block_rq_insert")
    assert names(insert) == ["submit_bio", "blk_mq_insert_request"]
    assert next(e for e in events if e.name == "block_rq_complete").stack == ()
    assert report.warnings == []


def test_ftrace_trace_file_with_flags_tgid_and_user_stack() -> None:
    text = (
        b"# tracer: nop\n#\n# entries-in-buffer/entries-written: 3/3   #P:2\n"
        b"            bash-1977  (   1977) [000] d..2.  123.456789: sched_wakeup: "
        b"comm=cat pid=2000 prio=120 target_cpu=000\n"
        b"            bash-1977  (   1977) [000] d..2.  123.456790: <stack trace>\n"
        b" => __schedule+0x2e3/0x870\n"
        b" => <ffffffff81234567>\n"
        b"            bash-1977  (   1977) [000] d..2.  123.456791: <user stack trace>\n"
        b" => /usr/lib/x86_64-linux-gnu/libc.so.6[+0xeb3e]\n"
        b" => <00007f2c9dfd5b3e>\n"
    )
    (event,), report = parse(text)
    assert (event.comm, event.tid, event.pid, event.cpu, event.start_ns) == (
        "bash",
        1977,
        1977,
        0,
        123_456_789_000,
    )
    assert [(f.name, f.kind) for f in event.stack] == [
        ("[unknown]", FrameKind.UNKNOWN),
        ("[libc.so.6]", FrameKind.USER),
        ("[unknown]", FrameKind.UNKNOWN),
        ("__schedule", FrameKind.KERNEL),
    ]
    assert report.warnings == []


def test_stack_with_no_event_of_its_task_is_dropped() -> None:
    text = (
        b"     app-100   [000]  10.000001: sched_wakeup:         x:1 [120] CPU:000\n"
        b"   other-200   [000]  10.000002: kernel_stack:         <stack trace >\n"
        b"=> try_to_wake_up (ffffffff813aa887)\n"
    )
    (event,), report = parse(text)
    assert event.stack == ()
    assert report.dropped_lines == 1
    assert "1 stack trace(s) not following an event" in report.warnings[0].message


def test_funcgraph_events_from_trace_cmd_become_function_events() -> None:
    text = (
        b"version = 6\ncpus=2\n"
        b"   ruby-2564  [001] 107227.460779: funcgraph_entry:                   |  sys_open() {\n"
        b"   ruby-2564  [001] 107227.460794: funcgraph_entry:        3.518 us   |    _cond_resched();\n"
        b"   ruby-2564  [001] 107227.460801: funcgraph_exit:       + 11.065 us  |  }\n"
    )
    events, _ = parse(text)
    assert [(e.kind, e.name, e.start_ns, e.duration_ns, e.comm, e.tid) for e in events] == [
        (EventKind.FUNCTION, "_cond_resched", 107_227_460_794_000, 3_518, "ruby", 2564),
        (EventKind.FUNCTION, "sys_open", 107_227_460_779_000, 11_065, "ruby", 2564),
    ]


def test_frame_names() -> None:
    assert frame_name(b"=> try_to_wake_up (ffffffff813aa887)") == ("try_to_wake_up", True)
    assert frame_name(b" => __schedule+0x2e3/0x870") == ("__schedule", True)
    assert frame_name(b" => <00007f2c9dfd5b3e>") == ("[unknown]", False)


def test_detect() -> None:
    with gzip.open(REPORT) as stream:
        assert detect(stream.read(65536))


def test_a_real_trace_pipe_read_that_lost_events() -> None:
    """`CPU:0 [LOST 1067 EVENTS]` where a too-small ring buffer overflowed before `trace_pipe` was read:
    on the first line, before any record, and again for CPU 1 further down. Counted per CPU, once."""
    data = (FTRACE / "events_lost.txt").read_bytes()
    assert data.startswith(b"CPU:0 [LOST 1067 EVENTS]\n")
    assert detect(data)
    events, report = parse(data)
    assert (len(events), report.dropped_lines) == (198, 0)
    assert {e.kind for e in events} == {EventKind.TRACEPOINT}
    assert [w.line for w in report.warnings] == [1]
    assert report.warnings[0].message == (
        "ftrace lost 1,836 events (CPU 0: 1,067, CPU 1: 769): the trace has gaps where its buffers were full"
    )


def test_lost_events_are_reported_even_when_the_warnings_are_full() -> None:
    """The gaps outweigh one more dropped line: the summary takes the last kept warning's place."""
    data = (FTRACE / "events_lost.txt").read_bytes() + b"".join(b"garbled %d\n" % n for n in range(150))
    _, report = parse(data)
    assert report.dropped_lines == 150
    assert len(report.warnings) == report.max_warnings
    assert report.warnings[-1].message.startswith("ftrace lost 1,836 events (CPU 0: 1,067, CPU 1: 769)")
    assert report.suppressed_warnings == 150 - report.max_warnings + 1
