"""The perf-script importer's frame and stack table is bounded: past its budget it starts again,
and what comes out is the same as with room for everything."""

from __future__ import annotations

import io

import pytest

from stallscope.export.folded import FoldOptions, fold
from stallscope.ingest.model import ParseReport, Sample
from stallscope.ingest.perf_script import parse_perf_script, stacks
from stallscope.ingest.tally import RecordTally


def capture(samples: int) -> bytes:
    """Every sample a new stack, some repeated later, one written without a blank line (slow path)."""
    lines = []
    for i in list(range(samples)) + list(range(0, samples, 7)):
        lines.append(f"svc 42/42 [001] 10.{i:06d}: 1 cpu-clock:")
        lines.extend(f"\t    {d:x} f_{d}_{(i >> d) & 3} (/usr/bin/svc)" for d in range(6))
        lines.append(f"\t    ff leaf_{i % 97} (/usr/bin/svc)")
        lines.append("")
    lines.append("svc 42/42 [001] 11.000000: 1 cpu-clock:")
    lines.append("\t    ff leaf_0 (/usr/bin/svc)")
    return ("\n".join(lines) + "\n").encode()


def parse(data: bytes) -> list[Sample]:
    return list(parse_perf_script(io.BytesIO(data), ParseReport()))


def test_a_table_that_starts_again_gives_the_same_stacks(monkeypatch: pytest.MonkeyPatch) -> None:
    data = capture(3000)
    roomy = parse(data)
    monkeypatch.setattr(stacks, "MAX_INTERNED_REFS", 500)  # starts again every ~60 samples
    tight = parse(data)
    assert [s.stack for s in tight] == [s.stack for s in roomy]
    assert len({id(s.stack) for s in tight}) > len({id(s.stack) for s in roomy}), "the table did start again"
    assert fold(tight, FoldOptions()).counts == fold(roomy, FoldOptions()).counts


def test_inspect_counts_equal_stacks_once_across_a_reset(monkeypatch: pytest.MonkeyPatch) -> None:
    data = capture(1000)
    roomy, tight = RecordTally(), RecordTally()
    for sample in parse(data):
        roomy.add(sample)
    monkeypatch.setattr(stacks, "MAX_INTERNED_REFS", 500)
    for sample in parse(data):
        tight.add(sample)
    assert len(tight.stacks) == len(roomy.stacks)
