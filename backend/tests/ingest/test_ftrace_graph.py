"""function_graph text to FUNCTION events (hand-written inputs: the tracer is not on the corpus kernel)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from stallscope.ingest.ftrace import IMPORTER, detect, graph, parse_ftrace
from stallscope.ingest.ftrace.graph import GraphTracker
from stallscope.ingest.ftrace.graph_line import read_body, us_to_ns
from stallscope.ingest.ftrace.parser import _Parser
from stallscope.ingest.model import EventKind, FrameKind, ParseError, ParseReport, TimedEvent
from stallscope.ingest.registry import detect_importer
from stallscope.ingest.text_lines import TextLines

DATA = Path(__file__).parent / "data" / "ftrace"


def parse(data: bytes) -> tuple[list[TimedEvent], ParseReport]:
    report = ParseReport()
    return list(parse_ftrace(io.BytesIO(data), report)), report


def path(event: TimedEvent) -> list[str]:
    return [frame.name for frame in event.stack]


def by_line(events: list[TimedEvent]) -> dict[int, TimedEvent]:
    return {event.line: event for event in events}


def test_default_columns() -> None:
    events, report = parse((DATA / "function_graph.txt").read_bytes())
    lines = by_line(events)
    spin = lines[12]
    assert (spin.kind, spin.name, spin.duration_ns, spin.cpu, spin.start_ns) == (
        EventKind.FUNCTION,
        "native_queued_spin_lock_slowpath",
        1_059_700,
        0,
        None,  # no funcgraph-abstime column: no times
    )
    assert path(spin) == [
        "__x64_sys_futex",
        "do_futex",
        "futex_wait",
        "_raw_spin_lock",
        "native_queued_spin_lock_slowpath",
    ]
    assert {frame.kind for frame in spin.stack} == {FrameKind.KERNEL}
    assert (lines[6].name, lines[6].duration_ns) == ("__x64_sys_futex", 35_068_010)
    assert (lines[17].name, lines[17].duration_ns) == ("__schedule", 33_998_590)  # `*` mark, 2 decimals
    assert (lines[26].name, lines[26].duration_ns) == ("vfs_read", 3_594_274_000)  # `$` mark, no decimals
    # CPU 1's calls interleave with CPU 0's without mixing their paths.
    assert path(lines[15]) == ["__x64_sys_write", "ksys_write", "vfs_write"]
    assert len(events) == 15
    assert [w.message for w in report.warnings] == [
        "2 function call(s) with no exit in the trace; kept with no duration",
        "1 function exit(s) whose entry is not in the trace; "
        "their callers before the trace began are unknown",
    ]


def test_exit_whose_entry_precedes_the_trace_is_named_from_its_tail() -> None:
    events, _ = parse((DATA / "function_graph.txt").read_bytes())
    schedule = by_line(events)[5]
    assert (schedule.name, path(schedule), schedule.duration_ns, schedule.cpu) == (
        "schedule",
        ["schedule"],
        2_034_948,
        1,
    )


def test_calls_open_at_the_end_are_unclosed() -> None:
    events, _ = parse((DATA / "function_graph.txt").read_bytes())
    unclosed = [e for e in events if e.duration_ns is None]
    assert [(e.name, e.cpu) for e in unclosed] == [("ksys_read", 1), ("__x64_sys_read", 1)]


def test_absolute_time_task_column_and_context_switches() -> None:
    events, report = parse((DATA / "function_graph_abstime_proc.txt").read_bytes())
    assert report.warnings == []
    assert report.dropped_lines == 0
    lines = by_line(events)
    wait = lines[9]
    assert (wait.name, wait.start_ns, wait.duration_ns, wait.comm, wait.tid, wait.attrs) == (
        "jbd2_log_wait_commit",
        4_120_553_296_000,
        4_565_204,
        "fsync",
        3810,
        {"retval": "0"},
    )
    # The journal thread ran in between; the fsync task's stack survived the switch.
    assert path(lines[5]) == ["__x64_sys_fsync"]
    assert lines[5].duration_ns == 4_575_118
    assert (lines[14].comm, lines[14].tid) == ("jbd2/vda1-8", 231)
    assert lines[7].attrs == {"retval": "0x0"}
    assert "do_IRQ" in {e.name for e in events}


def test_the_briefs_example_line() -> None:
    (event,), _ = parse(b" 7) # 1059.700 us | native_queued_spin_lock_slowpath();\n")
    assert (event.name, event.duration_ns, event.cpu, path(event)) == (
        "native_queued_spin_lock_slowpath",
        1_059_700,
        7,
        ["native_queued_spin_lock_slowpath"],
    )


def test_depth_comes_from_the_indentation_not_from_pairing() -> None:
    """A lost stretch: `b() {` never closes; the next depth-1 call is still a child of `a`."""
    text = (
        b" 0)               |  a() {\n"
        b" 0)               |    b() {\n"
        b" 0)   1.000 us    |    c();\n"
        b" 0)   9.000 us    |  }\n"
    )
    events, report = parse(text)
    assert [(e.name, path(e), e.duration_ns) for e in events] == [
        ("b", ["a", "b"], None),
        ("c", ["a", "c"], 1_000),
        ("a", ["a"], 9_000),
    ]
    assert report.warnings[0].message.startswith("1 function call(s) with no exit")


def test_lost_events_cut_the_open_calls() -> None:
    text = b" 0)               |  a() {\nCPU:0 [LOST 12 EVENTS]\n 0)   2.000 us    |  d();\n"
    events, report = parse(text)
    assert [(e.name, e.duration_ns) for e in events] == [("a", None), ("d", 2_000)]
    assert any("lost 12 events (CPU 0: 12)" in warning.message for warning in report.warnings)


def test_comments_and_interrupt_arrows_are_skipped() -> None:
    text = (
        b" 1)               |  f() {\n"
        b" 1)               |    /* sched_wakeup: comm=x pid=1 */\n"
        b" 1)   ==========> |\n"
        b" 1)   0.300 us    |    g();\n"
        b" 1)   <========== |\n"
        b" 1)   1.200 us    |  } /* f */\n"
    )
    events, report = parse(text)
    assert [(e.name, path(e)) for e in events] == [("g", ["f", "g"]), ("f", ["f"])]
    assert report.warnings == []
    assert report.dropped_lines == 0


@pytest.mark.parametrize(
    ("body", "shape", "depth", "name"),
    [
        (b"  sys_open() {", "entry", 0, "sys_open"),
        (b"      kmem_cache_alloc();", "leaf", 2, "kmem_cache_alloc"),
        (b"    } /* kmem_cache_free() */", "exit", 1, "kmem_cache_free"),
        (b"  } /* cgroup_migrate = -22 */", "exit", 0, "cgroup_migrate"),
        (b"          __might_sleep() {", "entry", 4, "__might_sleep"),
        (b"    /* I'm a comment! */", "comment", 1, ""),
    ],
)
def test_bodies(body: bytes, shape: str, depth: int, name: str) -> None:
    parsed = read_body(body)
    assert parsed is not None
    assert (parsed.shape, parsed.depth, parsed.name) == (shape, depth, name)


def test_microseconds() -> None:
    assert [us_to_ns(t) for t in (b"0.313", b"119760.2", b"3594274", b"1837.709")] == [
        313,
        119_760_200,
        3_594_274_000,
        1_837_709,
    ]


def test_not_ftrace_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="not ftrace text"):
        parse(b"time,cpu,usage\n1,2,3\n")


def test_importer_and_detect() -> None:
    assert (IMPORTER.name, IMPORTER.clock.value) == ("ftrace", "monotonic")
    assert detect((DATA / "function_graph.txt").read_bytes())
    assert detect((DATA / "function_graph_abstime_proc.txt").read_bytes())


def test_without_the_duration_column() -> None:
    """perf-tools' `funcgraph -D` (`nofuncgraph-duration`): the body follows the CPU column."""
    data = (DATA / "function_graph_no_duration.txt").read_bytes()
    assert detect_importer(data) is IMPORTER
    events, report = parse(data)
    assert (report.dropped_lines, report.truncated) == (0, False)
    assert [(e.line, e.name, path(e), e.cpu) for e in events[:4]] == [
        (4, "security_file_permission", ["vfs_read", "rw_verify_area", "security_file_permission"], 0),
        (3, "rw_verify_area", ["vfs_read", "rw_verify_area"], 0),
        (
            9,
            "filemap_get_pages",
            [
                "vfs_read",
                "ext4_file_read_iter",
                "generic_file_read_iter",
                "filemap_read",
                "filemap_get_pages",
            ],
            0,
        ),
        (
            10,
            "touch_atime",
            ["vfs_read", "ext4_file_read_iter", "generic_file_read_iter", "filemap_read", "touch_atime"],
            0,
        ),
    ]
    assert sorted((e.cpu, e.name) for e in events if len(e.stack) == 1) == [(0, "vfs_read"), (1, "vfs_read")]
    assert all(e.duration_ns is None and e.start_ns is None for e in events)  # neither column printed
    assert not any("not an ftrace line" in w.message for w in report.warnings)


def test_without_the_duration_column_the_exit_time_gives_the_duration() -> None:
    data = (DATA / "function_graph_no_duration_abstime_proc.txt").read_bytes()
    assert detect_importer(data) is IMPORTER
    events, report = parse(data)
    assert report.dropped_lines == 0
    assert [(e.name, e.comm, e.tid, e.start_ns, e.duration_ns) for e in events] == [
        ("rw_verify_area", "cat", 4711, 4_567_100_011_000, None),
        ("filemap_read", "cat", 4711, 4_567_100_020_000, None),
        ("ext4_file_read_iter", "cat", 4711, 4_567_100_012_000, 19_000),
        ("vfs_read", "cat", 4711, 4_567_100_010_000, 23_000),
        ("pipe_read", "sh", 4702, 4_567_100_101_000, 2_500_000),
        ("vfs_read", "sh", 4702, 4_567_100_100_000, 2_502_000),
    ]


@pytest.mark.parametrize("tail", [b"[...]\n", b"CPU:1 [LOST 12 EVENTS]\n", b"\nEnding tracing...\n"])
def test_one_stray_line_at_the_end_of_a_short_file_does_not_hide_it(tail: bytes) -> None:
    text = (
        b" 0)               |  do_nanosleep() {\n"
        b" 0)   0.198 us    |    hrtimer_start();\n"
        b" 0)   3.447 us    |  }\n"
    )
    assert detect_importer(text + tail) is IMPORTER
    events, _ = parse(text + tail)
    assert [(e.name, e.duration_ns) for e in events] == [("hrtimer_start", 198), ("do_nanosleep", 3_447)]


def test_lost_events_are_counted_per_cpu_and_summed_once() -> None:
    text = (
        b" 0)               |  a() {\n"
        b"CPU:0 [LOST 12 EVENTS]\n"
        b" 1)   2.000 us    |  d();\n"
        b"CPU:1 [LOST 300 EVENTS]\n"
        b"CPU:0 [LOST 8 EVENTS]\n"
    )
    _, report = parse(text)
    summary = [w for w in report.warnings if w.message.startswith("ftrace lost")]
    assert [(w.line, w.message) for w in summary] == [
        (2, "ftrace lost 320 events (CPU 0: 20, CPU 1: 300): the trace has gaps where its buffers were full")
    ]


UNTIMED = b"".join(
    line + b"\n"
    for line in [
        b"# tracer: function_graph",
        b" 1)       inner_leaf();",  # the trace begins two calls deep on CPU 1
        b" 1)     } /* begun_before */",
        b" 0) a() {",
        b" 0)   b() {",
        b" 0)     /* sched_wakeup: comm=x pid=1 */",
        b" 0)     c(); /* = -22 */",
        b" 0)     d() {",
        b" 0)       e();",
        b" 0)   }",  # `d() {` never closes
        b" 1) f() {",
        b" 1)   g() {",
        b" 1)     h();",
        b" 1)   } /* g = 0x0 */",
        b" 0)   b() {",
        b" 0)     c();",
        b"CPU:0 [LOST 3 EVENTS]",
        b" 0)   b() {",
        b" 0)     c();",
        b" ------------------------------------------",
        b" 1)    sh-4802    =>    cat-4711  ",
        b" ------------------------------------------",
        b" 1)   i();",
        b" 1) }",
        b" 0)   }",
        b" 0) }",
        b" 10) j();",
        b" 0) not a call",
    ]
)


def parse_line_by_line(data: bytes) -> tuple[list[TimedEvent], ParseReport]:
    """Every line through `_graph_slow`: the general path (each layout's pattern, `GraphTracker.line`)."""
    report = ParseReport()
    parser = _Parser(report, TextLines(io.BytesIO(data)))
    for number, raw in enumerate(data.split(b"\n"), 1):
        parser._graph_slow(raw, number)
    parser.graph.finish()
    parser._final_warnings()
    return parser.graph.out, report


@pytest.mark.parametrize(
    "data", [(DATA / "function_graph_no_duration.txt").read_bytes(), UNTIMED, UNTIMED * 3], ids=str
)
def test_the_untimed_fast_path_yields_what_the_general_path_does(data: bytes) -> None:
    """`GraphTracker.untimed_lines` (lines without time or duration columns, in runs) against `line`."""
    events, report = parse(data)
    expected, general = parse_line_by_line(data)
    assert events == expected
    assert (report.warnings, report.dropped_lines) == (general.warnings, general.dropped_lines)


def test_the_untimed_fast_path_takes_every_call_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def general(*_: object) -> None:
        raise AssertionError("a bare line went to GraphTracker.line")

    monkeypatch.setattr(GraphTracker, "line", general)
    events, _ = parse((DATA / "function_graph_no_duration.txt").read_bytes())
    assert len(events) == 14


def test_dropping_the_path_tree_keeps_the_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past `MAX_CACHED_PATHS` the tree of paths starts again; the events are the same."""
    for data in (UNTIMED * 3, (DATA / "function_graph.txt").read_bytes()):
        events, _ = parse(data)
        monkeypatch.setattr(graph, "MAX_CACHED_PATHS", 2)
        assert parse(data)[0] == events
        monkeypatch.undo()
