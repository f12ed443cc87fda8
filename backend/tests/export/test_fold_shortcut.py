"""`StackFolder.add_all`'s shortcut for the event it is counting folds exactly as `add` one by one."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from stallscope.export.folded import FoldOptions, FoldResult, StackFolder
from stallscope.ingest.model import ParseReport, Sample
from stallscope.ingest.perf_script import parse_perf_script
from stallscope.kit.compression import open_capture


def figures(result: FoldResult) -> tuple[object, ...]:
    return (
        result.event,
        result.counts,
        result.samples,
        result.empty_stacks,
        result.first_empty_line,
        result.skipped_events,
        result.first_skipped_lines,
    )


def one_by_one(samples: list[Sample], options: FoldOptions, by_event: bool) -> StackFolder:
    folder = StackFolder(options, by_event=by_event)
    for sample in samples:
        folder.add(sample)
    return folder


@pytest.fixture(scope="module")
def mixed(corpus: Path) -> list[Sample]:
    """CPU samples and four tracepoints, interleaved, some without a stack or a period; every tenth
    sample's event a string equal to, but not the same object as, the parser's (as other importers
    give them)."""
    parsed = []
    for name in ("offcpu5s.perf.txt.gz", "cpu20s.perf.txt.gz"):
        with open_capture(corpus / "captures" / name) as stream:
            parsed.append(list(parse_perf_script(stream, ParseReport()))[:20_000])
    samples = [sample for pair in zip(*parsed, strict=True) for sample in pair]
    return [
        dataclasses.replace(
            sample,
            event="".join(sample.event) if index % 10 == 0 else sample.event,
            period=None if index % 7 == 0 else sample.period,
        )
        for index, sample in enumerate(samples)
    ]


@pytest.mark.parametrize(
    "options",
    [
        FoldOptions(),
        FoldOptions(pid=True),
        FoldOptions(tid=True, all=True),
        FoldOptions(event="sched:sched_switch", keep_empty_stacks=True),
        FoldOptions(event="cpu-clock"),
    ],
)
def test_add_all_folds_as_add_does(mixed: list[Sample], options: FoldOptions) -> None:
    assert len({id(s.event) for s in mixed}) > len({s.event for s in mixed})  # equal, distinct strings
    assert sum(not s.stack for s in mixed) > 0
    shortcut = StackFolder(options)
    shortcut.add_all(mixed)
    assert figures(shortcut.result()) == figures(one_by_one(mixed, options, False).result())
    shortcut = StackFolder(options, by_event=True)
    shortcut.add_all(mixed)
    expected = one_by_one(mixed, options, True).results()
    assert {event: figures(r) for event, r in shortcut.results().items()} == {
        event: figures(r) for event, r in expected.items()
    }
