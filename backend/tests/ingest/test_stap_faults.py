"""systemtap page-fault timings (`start_us:end_us:tid:pid:duration_us:retval`, stacks) to FAULT events."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from stallscope.ingest.model import EventKind, FrameKind, ParseError, ParseReport, TimedEvent
from stallscope.ingest.stap import IMPORTER, detect, parse_stap_faults
from stallscope.ingest.stap.frames import parse_frame_line
from stallscope.ingest.stap.vm_fault import flag_names

DATA = Path(__file__).parent / "data" / "stap"


def parse(data: bytes) -> tuple[list[TimedEvent], ParseReport]:
    report = ParseReport()
    return list(parse_stap_faults(io.BytesIO(data), report)), report


def test_sample_file() -> None:
    events, report = parse((DATA / "faults.txt").read_bytes())
    assert report.warnings == []
    assert report.dropped_lines == 0
    assert [(e.line, e.duration_ns, e.attrs["major"]) for e in events] == [
        (1, 34_000, False),
        (5, 8_576_000, True),
        (10, 3_000, False),
        (11, 8_456_000, True),
        (15, 2_000, False),
    ]
    first = events[0]
    assert (first.kind, first.name, first.start_ns, first.tid, first.pid) == (
        EventKind.FAULT,
        "page_fault",
        1_795_307_379_633_210_000,
        4242,
        4240,
    )
    assert [f.name for f in first.stack] == ["__libc_start_main", "main", "_dl_runtime_resolve_xsave"]
    assert events[2].stack == ()
    retried = events[3]
    assert (retried.result, retried.attrs) == (
        "MAJOR|RETRY",
        {"major": True, "retry": True, "error": False, "vm_fault": 0x404},
    )
    assert [f.name for f in retried.stack] == ["__libc_start_main", "inflate_chunk", "[libz.so.1.2.7]"]
    assert (events[4].result, events[4].attrs["error"], events[4].stack[0].kind) == (
        "SIGBUS",
        True,
        FrameKind.UNKNOWN,
    )


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            " 0x7f3a5e8b2f3d : _dl_runtime_resolve_xsave+0x3d/0x60 [/lib64/ld-2.17.so]",
            ("_dl_runtime_resolve_xsave", FrameKind.USER),
        ),
        (
            " 0x00007f3a5e8b2f3d : malloc+0x0/0x300 [/usr/lib64/libc-2.28.so] (inexact)",
            ("malloc", FrameKind.USER),
        ),
        (" 0xffffffff8105a9b0 : handle_mm_fault+0x0/0x340 [kernel]", ("handle_mm_fault", FrameKind.KERNEL)),
        (
            " 0xffffffffc0123456 : ext4_filemap_fault+0x2f/0x50 [ext4]",
            ("ext4_filemap_fault", FrameKind.KERNEL),
        ),
        (" 0x7f3a5e8c1120 [/usr/lib64/libz.so.1+0x3120/0x15000]", ("[libz.so.1]", FrameKind.USER)),
        (" 0x7f3a5e8c1120 : operator++0x12/0x40 [/usr/bin/app]", ("operator+", FrameKind.USER)),
        (" 0x7f3a5e8c1120", ("[unknown]", FrameKind.UNKNOWN)),
        ("0x7f3a5e8c1120 : main+0x1/0x2 [/a]", None),  # no leading space: not a backtrace line
        ("1:2:3:4:1:0", None),
    ],
)
def test_ubacktrace_lines(line: str, expected: tuple[str, FrameKind] | None) -> None:
    assert parse_frame_line(line) == expected


def test_vm_fault_flags() -> None:
    assert flag_names(0) == "0"
    assert flag_names(0x204) == "MAJOR|LOCKED"
    assert flag_names(0x80000) == "0"  # the hstate index bits of a poisoned huge page are not a flag
    assert flag_names(0x100000) == "0x100000"


def test_hex_retval_and_a_header_line() -> None:
    events, report = parse(b"probe started\n100:110:7:7:10:0x4\n")
    assert events[0].attrs["major"] is True
    assert report.dropped_lines == 1


def test_times_that_are_not_epoch_microseconds_are_flagged() -> None:
    _, report = parse(b"4120553291:4120553300:7:7:9:0\n")
    assert "do not look like gettimeofday_us()" in report.warnings[0].message


def test_inconsistent_duration_keeps_the_printed_one() -> None:
    events, report = parse(b"1795307379633210:1795307379633244:7:7:30:0\n")
    assert events[0].duration_ns == 30_000
    assert "duration_us differs" in report.warnings[0].message


def test_not_stap_output_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="not systemtap fault output"):
        parse(b"time,cpu,usage\n" * 30)


def test_a_fault_line_cut_short_is_dropped() -> None:
    data = (DATA / "faults.txt").read_bytes()
    cut = data[: data.rindex(b"\n1795307379650500:") + 20]  # ends inside the last fault line
    events, report = parse(cut)
    assert report.truncated
    assert len(events) == 4
    assert report.warnings[-1].message == "the file ends in the middle of this line; dropped it"


def test_a_whole_last_line_without_its_newline_is_kept() -> None:
    data = (DATA / "faults.txt").read_bytes()
    events, report = parse(data.rstrip(b"\n"))
    assert len(events) == 5
    assert [frame.name for frame in events[-1].stack] == ["[unknown]"]
    assert (report.truncated, report.warnings) == (False, [])


def test_comment_lines_are_skipped() -> None:
    data = (DATA / "faults.txt").read_bytes()
    events, report = parse(b"# stap -v faults.stp, host db-7\n" + data)
    assert len(events) == 5
    assert (report.dropped_lines, report.warnings) == (0, [])
    assert detect(b"# stap -v faults.stp, host db-7\n" + data)


def test_importer_and_detect() -> None:
    assert (IMPORTER.name, IMPORTER.clock.value) == ("stap-faults", "realtime")
    assert detect((DATA / "faults.txt").read_bytes())
    assert not detect(b"1:2:3\n")
