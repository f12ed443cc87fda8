"""Scheduler intervals from the corpus's real off-CPU captures (with and without tracepoint arguments)."""

from __future__ import annotations

import gzip
import re
from collections import Counter
from pathlib import Path

import pytest

from stallscope.ingest.model import EventKind, ParseReport, Record, TimedEvent
from stallscope.ingest.sched import detect, parse_sched
from stallscope.kit.compression import open_capture

_SWITCH = re.compile(
    r"\s*.*?\s+(-?\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+sched:sched_switch: prev_comm=.* prev_pid=(\d+) "
    r"prev_prio=\d+ prev_state=(\S+) ==> next_comm=.* next_pid=(\d+)"
)


def parse(path: Path) -> tuple[list[Record], ParseReport]:
    report = ParseReport()
    with open_capture(path) as stream:
        return list(parse_sched(stream, report)), report


def off_cpu(records: list[Record]) -> list[TimedEvent]:
    return [r for r in records if isinstance(r, TimedEvent) and r.kind is EventKind.OFF_CPU]


@pytest.fixture(scope="module")
def offcpu5s(corpus: Path) -> tuple[list[Record], ParseReport]:
    return parse(corpus / "captures" / "offcpu5s.perf.txt.gz")


def test_offcpu5s_totals(offcpu5s: tuple[list[Record], ParseReport]) -> None:
    records, report = offcpu5s
    assert all(isinstance(r, TimedEvent) for r in records)  # every event in the file is a sched: one
    kinds = Counter(r.kind for r in records if isinstance(r, TimedEvent))
    # 51,756 on-CPU intervals between a switch-in and a switch-out, 2,432 from a sighting to one.
    assert kinds == {EventKind.OFF_CPU: 53_764, EventKind.ON_CPU: 54_188}
    off = off_cpu(records)
    # 54,237 switches: 6 written twice by perf, 57 out of the idle task, 410 exits (Z 405, X 5).
    assert Counter(e.state for e in off) == {"S": 20_830, "R": 15_785, "D": 9_747, "I": 7_402}
    assert sum(e.duration_ns is None for e in off) == 2_478
    assert sum("seen_running_ns" in e.attrs for e in off) == 2_433
    inferred = [e for e in off if "inferred_duration_ns" in e.attrs]
    assert len(inferred) == 2_433  # the other 45 were still off when the capture ended
    assert all(e.attrs["inferred_duration_ns"] == e.attrs["seen_running_ns"] - e.start_ns for e in inferred)  # type: ignore[operator]
    on = [r for r in records if isinstance(r, TimedEvent) and r.kind is EventKind.ON_CPU]
    assert sum("inferred_duration_ns" in e.attrs for e in on) == 2_432
    assert all(e.duration_ns is None or e.duration_ns >= 0 for e in off)
    assert (report.samples, report.dropped_lines, report.truncated) == (196_011, 0, False)
    assert [w.message.split(":")[0] for w in report.warnings] == [
        "6 sched_switch sample(s) repeated exactly (same CPU, time and threads) were ignored",
        "2478 off-CPU interval(s) unclosed (duration unknown)",
        "21 on-CPU interval(s) unclosed",
    ]


def test_offcpu5s_waits_and_wakers(offcpu5s: tuple[list[Record], ParseReport]) -> None:
    off = off_cpu(offcpu5s[0])
    blocked = [e for e in off if e.state in ("S", "D") and e.duration_ns is not None]
    # perf records almost nothing in the idle task's context here: wakeups from an idle CPU's
    # interrupts are missing, and so is their waker.
    assert (len(blocked), sum(e.waker_tid is None for e in blocked)) == (28_890, 361)
    blocked = [e for e in blocked if e.waker_tid is not None]
    assert all(e.start_ns is not None and e.start_ns <= e.attrs["wakeup_ns"] for e in blocked)  # type: ignore[operator]
    preempted = [e for e in off if e.state == "R"]
    assert all(e.waker_tid is None for e in preempted)
    sleeper = max((e for e in off if e.comm == "sleep"), key=lambda e: e.duration_ns or 0)
    assert sleeper.state == "S"
    assert sleeper.duration_ns == 5_002_654_000
    assert sleeper.attrs["wakeup_in_interrupt"] is True  # the timer fired in whatever was running
    assert [f.name for f in sleeper.stack[-3:]] == ["do_nanosleep", "schedule", "__schedule"]


def test_offcpu5s_intervals_match_the_switch_lines(
    corpus: Path, offcpu5s: tuple[list[Record], ParseReport]
) -> None:
    """Every interval starts at a switch-out of its thread and every closed one ends at its switch-in."""
    outs: dict[tuple[int, int], tuple[str, int]] = {}
    ins: set[tuple[int, int]] = set()
    with gzip.open(corpus / "captures" / "offcpu5s.perf.txt.gz", "rt") as text:
        for number, line in enumerate(text, 1):
            match = _SWITCH.match(line)
            if match is None:
                continue
            _, _, whole, frac, prev_tid, state, next_tid = match.groups()
            time_ns = int(whole) * 1_000_000_000 + int(frac.ljust(9, "0"))
            outs.setdefault((int(prev_tid), time_ns), (state, number))  # perf wrote 6 twice
            ins.add((int(next_tid), time_ns))
    for event in off_cpu(offcpu5s[0]):
        assert event.tid is not None
        assert event.start_ns is not None
        state, number = outs[(event.tid, event.start_ns)]
        assert (event.state, event.line) == ("R" if state == "R+" else state, number)
        if event.duration_ns is not None:
            assert (event.tid, event.start_ns + event.duration_ns) in ins


def test_offcpu5s_without_tracepoint_arguments(corpus: Path) -> None:
    records, report = parse(corpus / "captures" / "offcpu5s.F.perf.txt.gz")
    off = off_cpu(records)
    assert len(off) == 54_170  # exits cannot be told apart without prev_state
    assert all(e.state is None and e.duration_ns is None and e.waker_tid is None for e in off)
    assert sum("seen_running_ns" in e.attrs for e in off) == 53_718
    # Runs are known only from a sighting to the next switch-out: every on-CPU interval is inferred.
    on = [r for r in records if isinstance(r, TimedEvent) and r.kind is EventKind.ON_CPU]
    assert len(on) + len(off) == len(records)
    assert (len(on), sum("inferred_duration_ns" in e.attrs for e in on)) == (54_039, 54_035)
    assert all(e.duration_ns is None for e in on)
    assert all(e.pid is not None for e in off)  # -F prints pid/tid
    assert (
        len({e.pid for e in off if e.comm == "mutex16"})
        == 1
        < len({e.tid for e in off if e.comm == "mutex16"})
    )
    assert "no tracepoint arguments" in report.warnings[0].message


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("offcpu5s.perf.txt.gz", True),
        ("offcpu5s.F.perf.txt.gz", True),
        ("cpu20s.perf.txt.gz", False),
        ("faults5s.perf.txt.gz", False),
        ("perf_trace.mmap_fsync_futex.txt.gz", False),
    ],
)
def test_detect_on_corpus_heads(corpus: Path, name: str, expected: bool) -> None:
    with open_capture(corpus / "captures" / name) as stream:
        assert detect(stream.read(64 * 1024)) is expected
