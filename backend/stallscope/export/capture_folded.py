"""A capture file of any stack format to folded stacks: what `stallscope collapse` writes.

The format is detected as the server detects it (`ingest.registry`), and the records are folded as
the references fold `perf script`: one event (the first seen, or `--event`), weighted by period.
Samples (perf script, collapsed stacks, DTrace aggregations) weigh what they say: their period, count
or sum. Timed events that carry a stack (systemtap faults, perf trace `--call-graph`, ftrace event
stacks, function_graph call paths) weigh one each: their folded counts are numbers of events, under
the event's own name (`page_fault`, `futex`, `sched:sched_switch`), except function_graph calls,
which all fold as the event `function` (each call's path already ends with its function). Off-CPU
intervals are left to `offcpu_folded`, which weighs them in microseconds. Metrics and documents have
no stacks.

`Collapse` says what the file held, so that a fold that wrote nothing can say why.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from stallscope.export.folded import FoldOptions, FoldResult, fold, report_omissions, write_folded
from stallscope.ingest.model import EventKind, ParseError, ParseReport, Record, Sample, TimedEvent
from stallscope.ingest.perf_script import parse_perf_script
from stallscope.ingest.registry import HEAD_BYTES, detect_importer
from stallscope.kit.compression import open_capture
from stallscope.kit.readers import PrefixedReader, read_head
from stallscope.kit.stream_decoder import CorruptCompression

FUNCTION_EVENT = "function"


@dataclass(slots=True)
class RecordCounts:
    """What a capture held, by what folding can make of it."""

    samples: int = 0
    events: int = 0
    """Timed events other than off-CPU intervals, with a stack or not."""
    off_cpu: int = 0
    other: int = 0
    """Metrics and documents: no stacks at all."""


@dataclass(slots=True)
class Collapse:
    """One file folded: its format, the parse report, the folded counts and what the file held."""

    format: str
    report: ParseReport
    result: FoldResult
    counts: RecordCounts = field(default_factory=RecordCounts)


def stack_samples(records: Iterable[Record], counts: RecordCounts) -> Iterator[Sample]:
    """The records that fold, as samples: samples as they are, timed events weighing one each."""
    for record in records:
        if isinstance(record, Sample):
            counts.samples += 1
            yield record
        elif isinstance(record, TimedEvent):
            if record.kind is EventKind.OFF_CPU:
                counts.off_cpu += 1
                continue
            counts.events += 1
            yield Sample(
                record.line,
                record.comm,
                record.pid,
                record.tid,
                record.cpu,
                record.start_ns,
                FUNCTION_EVENT if record.kind is EventKind.FUNCTION else record.name,
                1,
                record.stack,
            )
        else:
            counts.other += 1


def collapse_capture(path: Path, options: FoldOptions, out: BinaryIO) -> Collapse:
    """Fold a plain, gzip or zstd capture of any format the server reads; folded lines to `out`.

    Raises ParseError when no importer takes the file. What was skipped (other events, empty call
    chains) is added to the report as warnings.
    """
    report = ParseReport()
    counts = RecordCounts()
    with open_capture(path, report) as stream:  # damaged compression: a warning, what decoded is kept
        try:
            head = read_head(stream, HEAD_BYTES)
        except CorruptCompression as exc:  # nothing at all decompresses
            raise ParseError(0, str(exc)) from exc
        importer = detect_importer(head)
        text = io.BufferedReader(PrefixedReader(head, stream), buffer_size=1 << 20)
        if importer.name == "perf-script":  # `--addrs` names frames: the parser must know it
            # It yields samples only: nothing to sort out, and its report counts them.
            result = fold(parse_perf_script(text, report, options.naming), options)
            counts.samples = report.samples
        else:
            result = fold(stack_samples(importer.parse(text, report), counts), options)
    write_folded(result.counts, out)
    report_omissions(result, options, report)
    return Collapse(importer.name, report, result, counts)


def collapse_file(path: Path, options: FoldOptions, out: BinaryIO) -> ParseReport:
    """`collapse_capture`, for callers that want the report only."""
    return collapse_capture(path, options, out).report
