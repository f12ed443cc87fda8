"""Folding samples into `stackcollapse-perf.pl` lines: options, event filter, ordering, files."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest
import zstandard

from stallscope.export import FoldOptions, StackFolder, collapse_file, fold, fold_by_event, folded_lines
from stallscope.ingest.model import Frame, FrameKind, ParseError, ParseReport, Sample
from stallscope.ingest.perf_script import parse_perf_script

TEXT = (
    "java 24636/25607 [000] 100.000001:  3 cycles: \n"
    "\tffffffff8103ce3b native_safe_halt ([kernel.kallsyms])\n"
    "\t7f722d142778 Ljava/io/PrintStream;::print->Ljava/io/PrintStream;::write (/tmp/perf-19982.map)\n"
    "\t7f1e21c41e9a start_thread (/lib/libpthread.so)\n"
    "\n"
    "V8 Worker 24636/25608 [001] 100.000002:  2 cycles: \n"
    "\t7f1e21c41e9a start_thread (/lib/libpthread.so)\n"
    "\n"
    "java 24636/25607 [000] 100.000003:  5 instructions: \n"
    "\t7f1e21c41e9a start_thread (/lib/libpthread.so)\n"
    "\n"
    "java 24636/25607 [000] 100.000004:  7 cycles: \n"
    "\n"
)


def samples(text: str = TEXT) -> list[Sample]:
    return list(parse_perf_script(io.BytesIO(text.encode()), ParseReport()))


def lines(options: FoldOptions, text: str = TEXT) -> list[str]:
    return [line.decode().rstrip("\n") for line in folded_lines(fold(samples(text), options).counts)]


def test_default_options() -> None:
    assert lines(FoldOptions()) == [
        "V8_Worker;start_thread 2",
        "java;start_thread;java/io/PrintStream:::print;java/io/PrintStream:::write_[i];native_safe_halt 3",
    ]


def test_pid_and_tid_roots() -> None:
    assert [line.split(";")[0] for line in lines(FoldOptions(pid=True))] == ["V8_Worker-24636", "java-24636"]
    assert [line.split(";")[0] for line in lines(FoldOptions(tid=True))] == [
        "V8_Worker-24636/25608",
        "java-24636/25607",
    ]
    text = "func_ab 15285 28075374.517811: cpu-clock: \n\t  400577 func_b (/root/func_ab)\n\n"
    assert lines(FoldOptions(tid=True), text) == ["func_ab-?/15285;func_b 1"]
    assert lines(FoldOptions(pid=True), text) == ["func_ab-?;func_b 1"]


def test_annotations() -> None:
    kernel = lines(FoldOptions(kernel=True))[1]
    assert "native_safe_halt_[k]" in kernel
    assert "PrintStream:::print;" in kernel
    jit = lines(FoldOptions(jit=True))[1]
    assert "java/io/PrintStream:::print_[j];java/io/PrintStream:::write_[i];native_safe_halt 3" in jit
    assert lines(FoldOptions(all=True))[1].endswith(
        "print_[j];java/io/PrintStream:::write_[i];native_safe_halt_[k] 3"
    )


def test_annotations_are_not_doubled() -> None:
    stack = (Frame("f_[j]", FrameKind.JIT), Frame("g_[i]", FrameKind.INLINE))
    sample = Sample(1, "x", None, 1, None, None, "cycles", None, stack)
    assert list(fold([sample], FoldOptions(jit=True)).counts) == ["x;f_[j];g_[i]"]


def test_default_event_is_the_first_seen_and_others_are_counted() -> None:
    result = fold(samples(), FoldOptions())
    assert result.event == "cycles"
    assert result.skipped_events == {"instructions": 1}
    assert result.first_skipped_lines == {"instructions": 9}
    assert (result.samples, result.empty_stacks, result.first_empty_line) == (3, 1, 12)


@pytest.mark.parametrize("event", ["instructions", "instructions:u"])
def test_chosen_event(event: str) -> None:
    result = fold(samples(), FoldOptions(event=event))
    assert result.counts == {"java;start_thread": 5}
    assert result.skipped_events == {"cycles": 3}


def test_events_kept_apart() -> None:
    results = fold_by_event(samples(), FoldOptions())
    assert sorted(results) == ["cycles", "instructions"]
    assert sum(results["cycles"].counts.values()) == 5
    assert results["instructions"].counts == {"java;start_thread": 5}
    assert all(not r.skipped_events for r in results.values())


def test_empty_stacks_left_out_or_kept() -> None:
    assert "java;[no stack] 7" not in lines(FoldOptions())
    assert "java;[no stack] 7" in lines(FoldOptions(keep_empty_stacks=True))


def test_weights_and_merging() -> None:
    # Two stacks that differ only in a frame's kind print the same without annotations: one line.
    a = Sample(1, "p", None, 1, None, None, "e", 2, (Frame("f", FrameKind.USER),))
    b = Sample(2, "p", None, 1, None, None, "e", None, (Frame("f", FrameKind.UNKNOWN),))
    assert fold([a, b, a]).counts == {"p;f": 5}


def test_lines_are_sorted_bytewise() -> None:
    counts = {"a;b;c": 1, "a;b": 2, "a\tb": 3, "é": 4, "z": 5, "B": 6}
    assert b"".join(folded_lines(counts)) == "B 6\na\tb 3\na;b 2\na;b;c 1\nz 5\né 4\n".encode()
    # Keys are sorted, not whole lines (as both references do): "a" sorts before "a\tb".
    assert b"".join(folded_lines({"a\tb": 2, "a": 1})) == b"a 1\na\tb 2\n"


def test_folder_streams_samples() -> None:
    folder = StackFolder(FoldOptions())
    for sample in samples():
        folder.add(sample)
    assert folder.result().counts == fold(samples()).counts


@pytest.mark.parametrize("packing", ["plain", "gzip", "zstd"])
def test_collapse_file(tmp_path: Path, packing: str) -> None:
    data = TEXT.encode()
    if packing == "gzip":
        data = gzip.compress(data)
    elif packing == "zstd":
        data = zstandard.ZstdCompressor().compress(data)
    path = tmp_path / "capture"
    path.write_bytes(data)
    out = io.BytesIO()
    report = collapse_file(path, FoldOptions(), out)
    assert out.getvalue() == b"".join(folded_lines(fold(samples()).counts))
    assert report.samples == 4
    assert [(w.line, w.message) for w in report.warnings] == [
        (9, "kept event 'cycles' only; skipped 1 sample(s) of event 'instructions'"),
        (12, "left out 1 sample(s) with an empty call chain"),
    ]


def test_collapse_file_refuses_perf_data(tmp_path: Path) -> None:
    path = tmp_path / "perf.data"
    path.write_bytes(b"PERFILE2" + bytes(1000))
    with pytest.raises(ParseError, match=r"perf\.data"):
        collapse_file(path, FoldOptions(), io.BytesIO())


def test_collapse_file_of_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty"
    path.write_bytes(b"")
    out = io.BytesIO()
    report = collapse_file(path, FoldOptions(), out)
    assert (out.getvalue(), report.samples, report.warnings) == (b"", 0, [])
