"""Sample headers read once per shape give every field exactly as matching `HEADER` on each one does."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from stallscope.ingest.perf_script import header_shapes
from stallscope.ingest.perf_script.header import HEADER, normalise_event, thread_ids, time_ns
from stallscope.ingest.perf_script.header_shapes import Header, HeaderShapes
from stallscope.ingest.perf_script.naming import is_java_comm
from stallscope.kit.compression import open_capture

HEADERS = [
    b"sleep 12576 [000] 52696.970363:    1001001 cpu-clock:ppp: ",
    b"swapper     0 [001] 52696.972377:    1001001 cpu-clock:ppp: ",
    b"V8 WorkerThread 24636/25607 [000] 100.000001:  3 cycles: ",
    b"kworker/1:2-ev 12/12 [1] 7.5: 250000 cpu-clock:",
    b"java 1 1.0: cycles:",
    b":-1    -1 [003]  9.123456789012: 1 cycles:u:",
    b"app 7 [000] 1.000001: 1 page-faults:  7f12 main (/bin/app)",
    b"perf 9 [001] 321.0: PERF_RECORD_LOST lost 7",
    b"bash 4242 [002] 2026-11-21 21:57:20.289518   507.901084: sched:sched_switch: prev_comm=bash "
    b"prev_pid=4242 prev_prio=120 prev_state=S ==> next_comm=swapper/2 next_pid=0 next_prio=120",
    b"x 5 12 [000] 1.000: 100 cycles:",
    b"a1 22 [000] 3.25: 9 r01a2:",
    b"  leading 3 [0] 1.5: 2 ev:",
    b"no header here",
    b"\t7f12 main (/bin/app)",
    b"9 9 9.9: 9 9.9: x:",
]


def reference(header: bytes) -> Header | None:
    """What the parser read from a header before shapes: the pattern, matched on this very line."""
    match = HEADER.match(header)
    if match is None:
        return None
    comm_raw, pid, tid, cpu, time, period, event, rest = match.groups()
    comm = comm_raw.decode("utf-8", "replace").strip()
    return (
        (comm, is_java_comm(comm), *thread_ids(pid, tid), int(cpu) if cpu is not None else None),
        time_ns(time) if time is not None else None,
        (int(period) if period is not None else None, normalise_event(event.decode("utf-8", "replace"))),
        rest,
    )


def digit_variants(header: bytes, count: int, rnd: random.Random) -> list[bytes]:
    """The header with its digits changed at random: the same shape, other values."""
    digits = b"0123456789"
    return [bytes(rnd.choice(digits) if chr(c).isdigit() else c for c in header) for _ in range(count)]


def test_every_field_reads_as_the_pattern_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(14)
    lines = [variant for header in HEADERS for variant in [header, *digit_variants(header, 40, rnd)]]
    rnd.shuffle(lines)
    expected = [reference(line) for line in lines]
    assert sum(e is not None for e in expected) > len(lines) // 2
    assert [HeaderShapes().read(line) for line in lines] == expected  # nothing learnt yet, each time
    shapes = HeaderShapes()
    assert [shapes.read(line) for line in lines] == expected  # shapes, comms and events learnt once
    monkeypatch.setattr(header_shapes, "MAX_PARTS", 5)  # forgets everything every few lines
    shapes = HeaderShapes()
    assert [shapes.read(line) for line in lines] == expected


def test_headers_of_real_captures(corpus: Path) -> None:
    shapes = HeaderShapes()
    for name in ("cpu20s.perf.txt.gz", "offcpu5s.perf.txt.gz"):
        with open_capture(corpus / "captures" / name) as stream:
            text = stream.read(16 << 20)
        headers = [record.split(b"\n", 1)[0] for record in text.split(b"\n\n")[:-1]]
        assert len(headers) > 5_000
        assert [shapes.read(header) for header in headers] == [reference(header) for header in headers]
