"""DTrace aggregations keyed by a stack to samples (hand-written inputs: DTrace does not run here)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from stallscope.ingest.dtrace import IMPORTER, detect, parse_dtrace
from stallscope.ingest.model import FrameKind, ParseError, ParseReport, Sample

DATA = Path(__file__).parent / "data" / "dtrace"


def parse(data: bytes) -> tuple[list[Sample], ParseReport]:
    report = ParseReport()
    return list(parse_dtrace(io.BytesIO(data), report)), report


def names(sample: Sample) -> list[str]:
    return [frame.name for frame in sample.stack]


def test_ustack_count() -> None:
    samples, report = parse((DATA / "ustack_count.txt").read_bytes())
    assert report.warnings == []
    assert [(s.line, s.period, s.comm, s.event, s.time_ns) for s in samples] == [
        (6, 17, "", "profile-997", None),
        (13, 102, "", "profile-997", None),
        (21, 2048, "", "profile-997", None),
    ]
    assert names(samples[1]) == [
        "app`_start",
        "app`main",
        "app`report",
        "libc.so.1`printf",
        "libc.so.1`_ndoprnt",
        "libc.so.1`_write",
    ]
    jit = samples[2]
    assert [(f.name, f.kind) for f in jit.stack][:2] == [
        ("cb007fcd", FrameKind.UNKNOWN),
        ("libjava.so`Java_java_io_FileInputStream_readBytes", FrameKind.USER),
    ]


def test_keys_sums_and_kernel_stacks() -> None:
    samples, _ = parse((DATA / "execname_stack_sum.txt").read_bytes())
    assert [(s.comm, s.period, s.event) for s in samples] == [
        ("sched", 1_845_502, "dtrace"),
        ("postgres", 93_218_377, "dtrace"),
    ]
    assert names(samples[1])[0] == "unix`sys_syscall"
    assert names(samples[1])[-1] == "unix`swtch"
    assert {f.kind for s in samples for f in s.stack} == {FrameKind.KERNEL}  # zfs`... too: a kernel stack


def test_offsets_and_semicolons() -> None:
    (sample,), _ = parse(
        b"\n              libfoo.so`a;b+0x10\n              libfoo.so`main+12\n                1\n"
    )
    assert names(sample) == ["libfoo.so`main", "libfoo.so`a:b"]


def test_stack_without_a_value_at_the_end() -> None:
    samples, report = parse(
        b"\n              libc.so.1`a+0x1\n                1\n              libc.so.1`b+0x1\n"
    )
    assert len(samples) == 1
    assert report.truncated
    assert report.dropped_lines == 1


def test_not_dtrace_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="not DTrace aggregation output"):
        parse(b"time,cpu,usage\n1,2,3\n" * 5)


def test_importer_and_detect() -> None:
    assert (IMPORTER.name, IMPORTER.clock.value) == ("dtrace", "none")
    assert detect((DATA / "ustack_count.txt").read_bytes())
    assert detect((DATA / "execname_stack_sum.txt").read_bytes())


def test_the_last_value_without_its_newline_closes_its_record() -> None:
    data = (DATA / "ustack_count.txt").read_bytes().rstrip(b"\n")
    samples, report = parse(data)
    assert [s.period for s in samples] == [17, 102, 2048]
    assert (report.truncated, report.warnings) == (False, [])


def test_comment_lines_before_and_between_records() -> None:
    text = (DATA / "ustack_count.txt").read_bytes()
    marked = b"# dtrace -n 'profile-997 { @[ustack()] = count() }', host sol-3\n" + text.replace(
        b"\n\n", b"\n# next record\n", 1
    )
    assert detect(marked)
    samples, report = parse(marked)
    assert [(s.period, s.event) for s in samples] == [
        (17, "profile-997"),
        (102, "profile-997"),
        (2048, "profile-997"),
    ]
    assert (report.dropped_lines, report.warnings) == (0, [])


def test_utf16_with_a_bom() -> None:
    text = (DATA / "ustack_count.txt").read_text().replace("\n", "\r\n").encode("utf-16")
    samples, report = parse(text)
    assert [s.period for s in samples] == [17, 102, 2048]
    assert report.warnings == []
