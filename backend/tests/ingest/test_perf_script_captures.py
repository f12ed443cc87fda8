"""The parser on the real captures of the corpus (no expected folded output needed here)."""

from __future__ import annotations

import gzip
import io
import re
from collections import Counter
from pathlib import Path
from typing import BinaryIO

import pytest

from stallscope.ingest.model import ParseError, ParseReport, Sample
from stallscope.ingest.perf_script import parse_perf_script
from stallscope.ingest.perf_script import stacks as stacks_module
from stallscope.kit.compression import open_capture

HEAD_BYTES = 24 << 20


class _Head(io.RawIOBase):
    """The first `limit` bytes of a stream: what a capture cut while perf was writing looks like."""

    def __init__(self, inner: BinaryIO, limit: int) -> None:
        self._inner = inner
        self._left = limit

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        size = self._left if size < 0 else min(size, self._left)
        data = self._inner.read(size)
        self._left -= len(data)
        return data


def samples_of(path: Path, limit: int | None = None) -> tuple[list[Sample], ParseReport]:
    report = ParseReport()
    with open_capture(path) as stream:
        source: BinaryIO = stream if limit is None else _Head(stream, limit)  # type: ignore[assignment]
        return list(parse_perf_script(source, report)), report


def names(sample: Sample) -> tuple[str, ...]:
    return tuple(frame.name for frame in sample.stack)


@pytest.fixture(scope="module")
def cpu20s(corpus: Path) -> tuple[list[Sample], ParseReport]:
    return samples_of(corpus / "captures" / "cpu20s.perf.txt.gz")


def test_cpu20s_totals(cpu20s: tuple[list[Sample], ParseReport]) -> None:
    samples, report = cpu20s
    assert (report.samples, report.dropped_lines, report.truncated, report.warnings) == (39_856, 0, False, [])
    assert len(samples) == 39_856
    assert len({s.comm for s in samples}) == 54
    assert sum(len(s.stack) == 127 for s in samples) == 1_339  # cut at perf's frame limit
    assert {s.event for s in samples} == {"cpu-clock"}
    assert {s.period for s in samples} == {1_001_001}
    exited = [s for s in samples if s.comm == ":-1"]
    assert [(s.pid, s.tid) for s in exited] == [(None, None)]


def test_cpu20s_lines_point_at_headers(corpus: Path, cpu20s: tuple[list[Sample], ParseReport]) -> None:
    with gzip.open(corpus / "captures" / "cpu20s.perf.txt.gz", "rt") as text:
        lines = text.read().split("\n")
    for sample in cpu20s[0]:
        header = lines[sample.line - 1]
        assert header.lstrip().startswith(sample.comm), header
        assert f"{(sample.time_ns or 0) // 1_000_000_000}." in header


def test_cpu20s_with_and_without_offsets_agree(
    corpus: Path, cpu20s: tuple[list[Sample], ParseReport]
) -> None:
    custom, report = samples_of(corpus / "captures" / "cpu20s.F.perf.txt.gz")
    assert report.warnings == []
    assert [(s.tid, s.time_ns, s.event, s.period, names(s)) for s in custom] == [
        (s.tid, s.time_ns, s.event, s.period, names(s)) for s in cpu20s[0]
    ]
    assert all(s.pid == s.tid for s in custom if s.comm in ("deeprec", "gzip"))  # -F pid,tid


def test_tiny_caches_give_the_same_samples(
    corpus: Path, cpu20s: tuple[list[Sample], ParseReport], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The byte-keyed caches are emptied when full; results must not depend on it."""
    monkeypatch.setattr(stacks_module, "MAX_CACHED_LINES", 50)
    monkeypatch.setattr(stacks_module, "MAX_CACHED_BODY_BYTES", 10_000)
    small, _ = samples_of(corpus / "captures" / "cpu20s.perf.txt.gz", 4 << 20)
    assert [(s.line, names(s)) for s in small] == [(s.line, names(s)) for s in cpu20s[0][: len(small)]]


@pytest.fixture(scope="module")
def offcpu(corpus: Path) -> tuple[list[Sample], ParseReport]:
    return samples_of(corpus / "captures" / "offcpu5s.perf.txt.gz")


def test_offcpu_tracepoints(offcpu: tuple[list[Sample], ParseReport]) -> None:
    samples, report = offcpu
    assert (report.dropped_lines, report.truncated, report.warnings) == (0, False, [])
    assert Counter(s.event for s in samples) == {
        "sched:sched_stat_runtime": 71_329,
        "sched:sched_switch": 54_237,
        "sched:sched_waking": 35_282,
        "sched:sched_wakeup": 35_163,
    }
    assert sum(not s.stack for s in samples) == 158
    assert all(s.trace_args for s in samples)
    states = Counter(
        re.search(r"prev_state=(\S+) ==>", s.trace_args or "").group(1)  # type: ignore[union-attr]
        for s in samples
        if s.event == "sched:sched_switch"
    )
    assert {"S", "R", "D", "I", "R+", "Z", "X"} <= set(states)


def test_offcpu_cut_mid_write_keeps_every_complete_sample(
    corpus: Path, offcpu: tuple[list[Sample], ParseReport]
) -> None:
    head, report = samples_of(corpus / "captures" / "offcpu5s.perf.txt.gz", HEAD_BYTES)
    full = offcpu[0]
    assert report.truncated
    assert report.dropped_lines >= 1
    assert len(report.warnings) == 1
    assert "ends in the middle" in report.warnings[0].message
    assert [(s.line, s.time_ns, names(s)) for s in head] == [
        (s.line, s.time_ns, names(s)) for s in full[: len(head)]
    ]
    # The sample after the last one kept is the one the cut went through.
    assert report.warnings[0].line == full[len(head)].line


def test_faults_head(corpus: Path) -> None:
    samples, report = samples_of(corpus / "captures" / "faults5s.perf.txt.gz", HEAD_BYTES)
    assert report.truncated
    assert len(report.warnings) == 1
    events = Counter(s.event for s in samples)
    assert set(events) == {"page-faults", "exceptions:page_fault_user"}
    assert all(s.period == 1 for s in samples if s.event == "page-faults")
    assert all(s.trace_args and s.trace_args.startswith("address=") for s in samples if s.period is None)


def test_wall_clock_column_is_skipped(corpus: Path) -> None:
    folder = corpus / "captures" / "clockmono"
    plain, _ = samples_of(folder / "cpu5s_clockmono.perf.txt.gz")
    with_tod, report = samples_of(folder / "cpu5s_clockmono.tod.perf.txt.gz")
    assert report.warnings == []
    assert [(s.tid, s.time_ns, names(s)) for s in with_tod] == [(s.tid, s.time_ns, names(s)) for s in plain]


def test_perf_trace_output_is_not_perf_script(corpus: Path) -> None:
    with pytest.raises(ParseError, match="not `perf script` output"):
        samples_of(corpus / "captures" / "perf_trace.mmap_fsync_futex.txt.gz")
