"""Already-collapsed stacks to samples with no times, weighted by their count."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest

from stallscope.export import FoldOptions, StackFolder
from stallscope.ingest.collapsed import IMPORTER, detect, parse_collapsed
from stallscope.ingest.model import FrameKind, ParseError, ParseReport, Sample


def parse(data: bytes) -> tuple[list[Sample], ParseReport]:
    report = ParseReport()
    return list(parse_collapsed(io.BytesIO(data), report)), report


def test_lines_to_samples() -> None:
    samples, report = parse(
        b"java;start_thread;Lfoo/Bar:.run 12\nbash;entry_SYSCALL_64_[k];do_sys_open_[k] 3\n\n"
    )
    first, second = samples
    assert (first.comm, [f.name for f in first.stack], first.period, first.weight) == (
        "java",
        ["start_thread", "Lfoo/Bar:.run"],
        12,
        12,
    )
    assert (first.time_ns, first.pid, first.tid, first.cpu, first.event, first.line) == (
        None,
        None,
        None,
        None,
        "collapsed",
        1,
    )
    assert [(f.name, f.kind) for f in second.stack] == [
        ("entry_SYSCALL_64", FrameKind.KERNEL),
        ("do_sys_open", FrameKind.KERNEL),
    ]
    assert (report.samples, report.warnings) == (2, [])


def test_frames_with_spaces_and_stacks_sharing_tuples() -> None:
    samples, _ = parse(
        b"node;V8 WorkerThread;Builtin: InterpreterEntryTrampoline 5\n"
        b"node;V8 WorkerThread;Builtin: InterpreterEntryTrampoline 7\n"
    )
    assert samples[0].stack is samples[1].stack
    assert samples[0].stack[-1].name == "Builtin: InterpreterEntryTrampoline"


def test_bad_lines_are_dropped_after_the_first_good_one() -> None:
    samples, report = parse(b"a;b 1\nnot a stack\na;c x\na;d 2\n")
    assert [s.period for s in samples] == [1, 2]
    assert (report.dropped_lines, [w.line for w in report.warnings]) == (2, [2, 3])


def test_first_line_must_be_collapsed() -> None:
    with pytest.raises(ParseError, match="not collapsed stacks"):
        parse(b"time,cpu,usage\n1,2,3\n")


def test_a_last_line_without_its_newline_is_kept() -> None:
    """Editors and `printf` leave it out; dropping the line lost a third of one real file's weight."""
    samples, report = parse(b"a;b 10\na;c 12")
    assert [s.period for s in samples] == [10, 12]
    assert (report.truncated, report.dropped_lines, report.warnings) == (False, 0, [])


def test_a_one_line_file_without_a_newline_is_detected_and_read() -> None:
    assert detect(b"main;work 7")
    samples, _ = parse(b"main;work 7")
    assert [(s.comm, [f.name for f in s.stack], s.period) for s in samples] == [("main", ["work"], 7)]


def test_a_last_line_that_stops_before_its_count_is_dropped_as_cut() -> None:
    samples, report = parse(b"a;b 10\na;c")
    assert [s.period for s in samples] == [10]
    assert report.truncated
    assert (report.dropped_lines, report.warnings[0].line) == (1, 2)
    assert "ends in the middle of this line" in report.warnings[0].message


def test_comment_lines_are_skipped_first_or_anywhere() -> None:
    text = b"# collapsed by stackcollapse-perf.pl from host db-7\na;b 3\n# a note\na;c 4\n"
    assert detect(text)
    samples, report = parse(text)
    assert [(s.line, s.period) for s in samples] == [(2, 3), (4, 4)]
    assert (report.dropped_lines, report.warnings) == (0, [])


def test_utf16_with_a_bom_reads_as_utf8() -> None:
    """What PowerShell's `>` writes when a folded file is redirected on Windows."""
    text = "# folded\r\nnode;main;lire_fichier 5\r\nnode;main;écrire 2\r\n".encode("utf-16")
    samples, report = parse(text)
    assert [([f.name for f in s.stack], s.period) for s in samples] == [
        (["main", "lire_fichier"], 5),
        (["main", "écrire"], 2),
    ]
    assert report.warnings == []


def test_round_trip_through_the_folded_export(corpus: Path) -> None:
    reference = corpus / "captures" / "derived" / "cpu20s.collapsed.inferno-default.txt.gz"
    text = gzip.decompress(reference.read_bytes())
    samples, report = parse(text)
    assert report.warnings == []
    assert len(samples) == text.count(b"\n") == 8_979
    folder = StackFolder(FoldOptions())
    folder.add_all(samples)
    expected = dict(line.rsplit(" ", 1) for line in text.decode().splitlines())
    assert {k: str(v) for k, v in folder.result().counts.items()} == expected
    assert detect(text[:65536])


def test_importer() -> None:
    assert (IMPORTER.name, IMPORTER.clock.value) == ("collapsed", "none")
