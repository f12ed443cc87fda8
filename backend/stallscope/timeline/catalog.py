"""Which tracks an incident offers: its captures grouped by host, and what each host recorded.

Built from small tables only (captures, metric series, whole-capture rollup totals), so listing the
tracks and resolving the ids of a data request stay cheap however big the captures are.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from stallscope.ingest.proc_stacks import events as proc_stack_events
from stallscope.timeline import track_ids

ON_TIMELINE_STATUSES = frozenset({"ready", "partial"})
SYSTEM_FORMATS = frozenset({"stallscope-proc", "sysstat"})
TOP_PROCESSES = 5
STATE_ORDER = ("D", "S", "R", "I")
"""Uninterruptible first: the state an investigation usually looks for."""


@dataclass(frozen=True, slots=True)
class CaptureRow:
    id: int
    host: str
    filename: str
    kind: str | None
    format: str | None
    status: str
    time_start: datetime | None
    time_end: datetime | None
    clock: dict[str, Any]
    record_counts: dict[str, int]

    @property
    def on_timeline(self) -> bool:
        return self.status in ON_TIMELINE_STATUSES and self.time_start is not None

    @property
    def unaligned(self) -> bool:
        return self.clock.get("mode") == "unaligned"


@dataclass(frozen=True, slots=True)
class TotalRow:
    """A whole-capture total (rollup level 0): see models/timeline_rollup.py for the columns."""

    capture_id: int
    source: str
    key: str
    name: str
    pid: int | None
    n: int
    total: float
    min_value: float | None
    max_value: float | None


@dataclass(frozen=True, slots=True)
class SeriesRow:
    id: int
    capture_id: int
    name: str
    labels: dict[str, Any]
    unit: str | None


@dataclass(slots=True)
class StateTally:
    """One scheduler state's off-CPU intervals over a host's captures."""

    intervals: int = 0
    total_ns: float = 0.0
    longest_ns: float = 0.0


@dataclass(slots=True)
class NameTally:
    """One event name's calls over a host's captures."""

    count: int = 0
    longest_ns: float = 0.0


@dataclass(slots=True)
class CpuRef:
    id: str
    host: str
    event: str
    capture_ids: list[int] = field(default_factory=list)
    samples: int = 0
    processes: dict[tuple[str, int | None], int] = field(default_factory=dict)


@dataclass(slots=True)
class OffCpuRef:
    id: str
    host: str
    capture_ids: list[int] = field(default_factory=list)
    unclosed: int = 0
    states: dict[str, StateTally] = field(default_factory=dict)


@dataclass(slots=True)
class EventsRef:
    id: str
    host: str
    kind: str
    name: str | None
    capture_ids: list[int] = field(default_factory=list)
    names: dict[str, NameTally] = field(default_factory=dict)


@dataclass(slots=True)
class MetricRef:
    id: str
    host: str
    name: str
    labels: dict[str, Any]
    unit: str | None
    system: bool
    series: dict[int, int] = field(default_factory=dict)
    """series id → capture id"""
    points: int = 0
    min: float | None = None
    max: float | None = None


Ref = CpuRef | OffCpuRef | EventsRef | MetricRef


@dataclass(slots=True)
class HostEntry:
    host: str
    captures: list[CaptureRow]
    refs: list[Ref]

    @property
    def unaligned(self) -> bool:
        return any(c.unaligned for c in self.captures if c.on_timeline)


@dataclass(slots=True)
class Catalog:
    hosts: list[HostEntry]

    def refs(self) -> dict[str, Ref]:
        return {ref.id: ref for host in self.hosts for ref in host.refs}

    def default_range(self) -> tuple[datetime, datetime] | None:
        """Every aligned capture's span; unaligned times sit near 1970 and would squash the rest."""
        shown = [c for h in self.hosts for c in h.captures if c.on_timeline]
        aligned = [c for c in shown if not c.unaligned] or shown
        starts = [c.time_start for c in aligned if c.time_start is not None]
        ends = [c.time_end or c.time_start for c in aligned if (c.time_end or c.time_start) is not None]
        if not starts or not ends:
            return None
        return min(starts), max(e for e in ends if e is not None) + timedelta(microseconds=1)


def _min(a: float | None, b: float | None) -> float | None:
    return b if a is None else a if b is None else min(a, b)


def _max(a: float | None, b: float | None) -> float | None:
    return b if a is None else a if b is None else max(a, b)


def build_catalog(captures: list[CaptureRow], totals: list[TotalRow], series: list[SeriesRow]) -> Catalog:
    """Group captures by host and turn each host's totals into tracks, in a stable order."""
    by_host: dict[str, list[CaptureRow]] = defaultdict(list)
    for capture in captures:
        by_host[capture.host].append(capture)
    shown = {c.id: c for c in captures if c.on_timeline}
    totals_by_capture: dict[int, list[TotalRow]] = defaultdict(list)
    for row in totals:
        if row.capture_id in shown:
            totals_by_capture[row.capture_id].append(row)
    series_by_capture: dict[int, list[SeriesRow]] = defaultdict(list)
    for s in series:
        if s.capture_id in shown:
            series_by_capture[s.capture_id].append(s)

    hosts = []
    for host in sorted(by_host):
        host_captures = by_host[host]
        refs = _host_refs(
            host,
            [c for c in host_captures if c.on_timeline],
            totals_by_capture,
            series_by_capture,
        )
        hosts.append(HostEntry(host, host_captures, refs))
    return Catalog(hosts)


def _host_refs(
    host: str,
    captures: list[CaptureRow],
    totals: dict[int, list[TotalRow]],
    series: dict[int, list[SeriesRow]],
) -> list[Ref]:
    cpu: dict[str, CpuRef] = {}
    off_cpu: OffCpuRef | None = None
    kinds: dict[str, EventsRef] = {}
    named: dict[tuple[str, str], EventsRef] = {}
    metrics: dict[str, MetricRef] = {}
    for capture in captures:
        for row in totals[capture.id]:
            if row.source == "cpu":
                ref = cpu.setdefault(row.key, CpuRef(track_ids.cpu_id(host, row.key), host, row.key))
                _add_capture(ref.capture_ids, capture.id)
                ref.samples += row.n
                key = (row.name, row.pid)
                ref.processes[key] = ref.processes.get(key, 0) + row.n
            elif row.source == "off-cpu":
                if off_cpu is None:
                    off_cpu = OffCpuRef(track_ids.offcpu_id(host), host)
                _add_capture(off_cpu.capture_ids, capture.id)
                off_cpu.unclosed += int(row.min_value or 0)
                state = off_cpu.states.setdefault(row.key, StateTally())
                state.intervals += row.n
                state.total_ns += row.total
                state.longest_ns = max(state.longest_ns, row.max_value or 0.0)
            elif row.source == "event":
                kind_ref = kinds.setdefault(
                    row.key, EventsRef(track_ids.events_id(host, row.key), host, row.key, None)
                )
                name_ref = named.setdefault(
                    (row.key, row.name),
                    EventsRef(track_ids.events_id(host, row.key, row.name), host, row.key, row.name),
                )
                for events_ref in (kind_ref, name_ref):
                    _add_capture(events_ref.capture_ids, capture.id)
                    entry = events_ref.names.setdefault(row.name, NameTally())
                    entry.count += row.n
                    entry.longest_ns = max(entry.longest_ns, row.max_value or 0.0)
        metric_totals = {int(r.key): r for r in totals[capture.id] if r.source == "metric"}
        for s in series[capture.id]:
            track_id = track_ids.metric_id(host, s.name, s.labels)
            ref_m = metrics.setdefault(
                track_id,
                MetricRef(track_id, host, s.name, s.labels, s.unit, capture.format in SYSTEM_FORMATS),
            )
            ref_m.series[s.id] = capture.id
            stats = metric_totals.get(s.id)
            if stats is not None:
                ref_m.points += stats.n
                ref_m.min = _min(ref_m.min, stats.min_value)
                ref_m.max = _max(ref_m.max, stats.max_value)

    cpu_refs: list[CpuRef] = sorted(cpu.values(), key=_cpu_order)
    metric_refs: list[MetricRef] = sorted(metrics.values(), key=_metric_order)
    refs: list[Ref] = [*cpu_refs]
    if off_cpu is not None:
        refs.append(off_cpu)
    for kind in sorted(kinds):
        refs.append(kinds[kind])
        refs.extend(r for (k, _), r in sorted(named.items()) if k == kind)
    refs.extend(metric_refs)
    return refs


def _cpu_order(ref: CpuRef) -> tuple[bool, tuple[int, str], int]:
    """CPU samples busiest first, then /proc stack samples by state, uninterruptible first."""
    if not proc_stack_events.is_proc_stack_event(ref.event):
        return (False, (0, ""), -ref.samples)
    state = proc_stack_events.state_of(ref.event)
    return (True, state_order(state) if state is not None else (len(STATE_ORDER) + 1, ""), -ref.samples)


def _metric_order(ref: MetricRef) -> tuple[bool, str, str]:
    """Application metrics before system ones, then by name with numbers in order (disk2 < disk10)."""
    return (ref.system, re.sub(r"\d+", lambda m: m.group().zfill(20), ref.name), ref.id)


def _add_capture(ids: list[int], capture_id: int) -> None:
    if capture_id not in ids:
        ids.append(capture_id)


def state_order(state: str) -> tuple[int, str]:
    return (STATE_ORDER.index(state) if state in STATE_ORDER else len(STATE_ORDER), state)
