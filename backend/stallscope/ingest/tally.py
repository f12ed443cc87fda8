"""Counts of what a parse yields, without storing anything (for `stallscope inspect`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from stallscope.ingest.model import Document, MetricPoint, MetricRow, Record, Sample, Stack, TimedEvent


@dataclass(slots=True)
class RecordTally:
    samples: Counter[str] = field(default_factory=Counter)
    """Samples per event name."""
    events: Counter[str] = field(default_factory=Counter)
    """Timed events per kind."""
    unclosed_events: int = 0
    metric_points: int = 0
    """Values: a row counts one per column, as its points would."""
    series: set[tuple[str, tuple[tuple[str, str], ...]]] = field(default_factory=set)
    documents: int = 0
    threads: set[tuple[int | None, int | None]] = field(default_factory=set)
    processes: set[int | str] = field(default_factory=set)
    stacks: set[Stack] = field(default_factory=set)
    """The distinct stacks, by content."""
    _seen: dict[int, Stack] = field(default_factory=dict)
    """Stacks already counted, by identity: importers intern stacks, so this spares hashing the
    same tuple again; holding them keeps each id unique. Equal stacks that are distinct objects
    (an importer's table started again) still count once, through `stacks`."""
    first_ns: int | None = None
    last_ns: int | None = None

    def _span(self, start: int | None, end: int | None) -> None:
        if start is None or end is None:
            return
        if self.first_ns is None or start < self.first_ns:
            self.first_ns = start
        if self.last_ns is None or end > self.last_ns:
            self.last_ns = end

    def _stack(self, stack: Stack) -> None:
        if self._seen.get(id(stack)) is not stack:
            self._seen[id(stack)] = stack
            self.stacks.add(stack)

    def _thread(self, pid: int | None, tid: int | None, comm: str) -> None:
        self.threads.add((pid, tid))
        self.processes.add(pid if pid is not None else comm)

    def add(self, record: Record) -> None:
        if isinstance(record, Sample):
            self.samples[record.event] += 1
            self._thread(record.pid, record.tid, record.comm)
            self._stack(record.stack)
            self._span(record.time_ns, record.time_ns)
        elif isinstance(record, TimedEvent):
            self.events[record.kind.value] += 1
            self._thread(record.pid, record.tid, record.comm)
            if record.duration_ns is None:
                self.unclosed_events += 1
            if record.stack:
                self._stack(record.stack)
            start = record.start_ns
            self._span(start, None if start is None else start + (record.duration_ns or 0))
        elif isinstance(record, MetricPoint):
            self.metric_points += 1
            self.series.add((record.name, record.labels))
            self._span(record.time_ns, record.time_ns)
        elif isinstance(record, MetricRow):
            if record.values:
                series = record.series
                self.metric_points += len(record.values)
                self.series.update(zip(series.names, series.labels, strict=True))
                self._span(record.time_ns, record.time_ns)
        elif isinstance(record, Document):
            self.documents += 1
