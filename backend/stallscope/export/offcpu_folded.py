"""Off-CPU time as folded stacks, weighted in microseconds: Brendan Gregg's off-CPU flame graphs.

Each closed off-CPU interval of a scheduler capture adds its blocked time to its blocking stack,
under the thread's name, exactly as the server's off-CPU flame graph weighs it. Unclosed intervals
have no duration and add nothing (they are counted in a warning). The folding options (`--pid`,
`--tid`, `--kernel`…) are the CPU folder's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from stallscope.export.folded import FoldOptions, StackFolder
from stallscope.ingest.model import EventKind, Record, Sample, TimedEvent

OFF_CPU_EVENT = "off-cpu"
NS_PER_US = 1000


@dataclass(slots=True)
class OffCpuFold:
    counts: dict[str, int]
    """Folded stack -> blocked microseconds."""
    intervals: int
    unclosed: int
    other_states: int
    """Intervals left out by `state`."""


def fold_off_cpu(records: Iterable[Record], options: FoldOptions, state: str | None = None) -> OffCpuFold:
    """Blocked time by stack; `state` keeps one scheduler state (its first letter: `D`, `S`, `R`)."""
    folder = StackFolder(options)
    intervals = unclosed = other_states = 0
    for record in records:
        if not isinstance(record, TimedEvent) or record.kind is not EventKind.OFF_CPU:
            continue
        if state is not None and (record.state or "?")[:1] != state[:1]:
            other_states += 1
            continue
        if record.duration_ns is None:
            unclosed += 1
            continue
        intervals += 1
        folder.add(
            Sample(
                record.line,
                record.comm,
                record.pid,
                record.tid,
                record.cpu,
                record.start_ns,
                OFF_CPU_EVENT,
                record.duration_ns,
                record.stack,
            )
        )
    counts_ns = folder.result().counts
    counts = {line: ns // NS_PER_US for line, ns in counts_ns.items() if ns >= NS_PER_US}
    return OffCpuFold(counts, intervals, unclosed, other_states)
