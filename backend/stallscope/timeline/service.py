"""Timeline use cases: list an incident's tracks, and answer a zoom with bucketed data for some of them."""

from __future__ import annotations

import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy.orm import Session

from stallscope.incidents.service import require_incident
from stallscope.ingest.clock import stored_mode
from stallscope.ingest.proc_stacks import events as proc_stack_events
from stallscope.kit.errors import Invalid
from stallscope.timeline import offcpu, repository
from stallscope.timeline.buckets import Grid, epoch_us, grid_for
from stallscope.timeline.catalog import (
    TOP_PROCESSES,
    Catalog,
    CpuRef,
    EventsRef,
    MetricRef,
    OffCpuRef,
    Ref,
    build_catalog,
    state_order,
)
from stallscope.timeline.repository import Filters, Manifest, describe, plan
from stallscope.timeline.schemas import (
    CaptureRef,
    CpuData,
    CpuGroup,
    CpuTrack,
    EventBuckets,
    EventMark,
    EventsData,
    EventsTrack,
    GridOut,
    HostTracks,
    MetricBuckets,
    MetricData,
    MetricPointOut,
    MetricTrack,
    NameCount,
    OffCpuData,
    OffCpuTrack,
    ProcessShare,
    StateSeries,
    StateTotal,
    TimelineOut,
    Track,
    TrackData,
    TracksOut,
)
from stallscope.timeline.sql import bucket_function_session

TRACK_WORKERS = 2
"""Sessions answering a request's tracks at once (the machines this runs on have a few cores)."""
MARK_LIMIT = 2000
"""Up to this many events in view are sent one by one; more are sent as per-bucket count and max."""
DEFAULT_TOP = 8
EMPTY_SPAN = timedelta(minutes=1)

Split = Literal["process", "thread"]


@dataclass(frozen=True, slots=True)
class Selection:
    incident_id: int
    capture_ids: list[int] = field(default_factory=list)
    hosts: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TimelineQuery:
    selection: Selection
    track_ids: list[str]
    start: datetime | None
    end: datetime | None
    width_px: int
    filters: Filters = field(default_factory=Filters)
    top: int = DEFAULT_TOP
    split: Split = "process"


def _load(session: Session, sel: Selection) -> tuple[Catalog, Manifest]:
    require_incident(session, sel.incident_id)
    rows = repository.captures(session, sel.incident_id, sel.capture_ids, sel.hosts)
    unknown = sorted(set(sel.capture_ids) - {c.id for c in rows})
    if unknown and not sel.hosts:
        raise Invalid(f"capture {', '.join(map(str, unknown))} is not part of incident {sel.incident_id}")
    shown = [c.id for c in rows if c.on_timeline]
    manifest = repository.manifest(session, shown)
    totals = repository.totals(session, shown, manifest.built)
    series = repository.series(session, shown)
    return build_catalog(rows, totals, series), manifest


# --- listing -----------------------------------------------------------------------------------------


def list_tracks(session: Session, sel: Selection) -> TracksOut:
    catalog, _ = _load(session, sel)
    span = catalog.default_range()
    hosts = []
    for entry in catalog.hosts:
        tracks: list[Track] = []
        for ref in entry.refs:
            tracks.append(_track_out(ref))
        hosts.append(
            HostTracks(
                host=entry.host,
                unaligned=entry.unaligned,
                captures=[
                    CaptureRef(
                        id=c.id,
                        filename=c.filename,
                        kind=c.kind,
                        format=c.format,
                        status=c.status,
                        clock_mode=stored_mode(c.clock),
                        clock_note=str(c.clock.get("note", "")),
                        time_start=c.time_start,
                        time_end=c.time_end,
                        on_timeline=c.on_timeline,
                    )
                    for c in entry.captures
                ],
                tracks=tracks,
            )
        )
    return TracksOut(
        incident=sel.incident_id,
        time_start=span[0] if span else None,
        time_end=span[1] if span else None,
        hosts=hosts,
    )


def _track_out(ref: CpuRef | OffCpuRef | EventsRef | MetricRef) -> Track:
    if isinstance(ref, CpuRef):
        top = sorted(ref.processes.items(), key=lambda kv: (-kv[1], kv[0][0]))[:TOP_PROCESSES]
        proc_stack = proc_stack_events.is_proc_stack_event(ref.event)
        state = proc_stack_events.state_of(ref.event)
        return CpuTrack(
            id=ref.id,
            host=ref.host,
            label=_cpu_label(ref.event, proc_stack, state),
            event=ref.event,
            samples=ref.samples,
            top=[ProcessShare(comm=comm, pid=pid, samples=n) for (comm, pid), n in top],
            origin="proc-stack" if proc_stack else "cpu",
            state=state,
        )
    if isinstance(ref, OffCpuRef):
        states = sorted(ref.states.items(), key=lambda kv: state_order(kv[0]))
        return OffCpuTrack(
            id=ref.id,
            host=ref.host,
            label="Off-CPU time by state",
            intervals=sum(int(v[0]) for _, v in states),
            unclosed=ref.unclosed,
            states=[
                StateTotal(state=s, intervals=int(v[0]), total_ns=int(v[1]), max_ns=int(v[2]) or None)
                for s, v in states
            ],
        )
    if isinstance(ref, EventsRef):
        names = sorted(ref.names.items(), key=lambda kv: (-kv[1][0], kv[0]))
        return EventsTrack(
            id=ref.id,
            host=ref.host,
            label=f"{ref.kind} {ref.name}" if ref.name is not None else f"{ref.kind} latency",
            kind=ref.kind,
            name=ref.name,
            count=sum(int(v[0]) for _, v in names),
            names=[NameCount(name=n, count=int(v[0]), max_ns=int(v[1]) or None) for n, v in names],
        )
    labels = ", ".join(f"{k}={v}" for k, v in sorted(ref.labels.items()))
    return MetricTrack(
        id=ref.id,
        host=ref.host,
        label=f"{ref.name}{{{labels}}}" if labels else ref.name,
        name=ref.name,
        labels=ref.labels,
        unit=ref.unit,
        system=ref.system,
        points=ref.points,
        min=ref.min,
        max=ref.max,
    )


def _cpu_label(event: str, proc_stack: bool, state: str | None) -> str:
    """/proc stack samples are counted like CPU samples, but are threads' blocking stacks: say so."""
    if not proc_stack:
        return f"CPU samples · {event}"
    return "/proc stack samples" if state is None else f"/proc stack samples · state {state}"


# --- bucketed data -----------------------------------------------------------------------------------


def timeline(session: Session, q: TimelineQuery) -> TimelineOut:
    began = time.perf_counter()
    repository.use_query_memory(session)
    catalog, manifest = _load(session, q.selection)
    start, end = _range(session, q, catalog)
    grid = grid_for(epoch_us(start), epoch_us(end), q.width_px)
    fn = bucket_function_session(session)
    refs = catalog.refs()
    missing = [tid for tid in q.track_ids if tid not in refs]
    wanted = [refs[tid] for tid in q.track_ids if tid in refs]
    data: dict[str, TrackData] = {}
    one_by_one = [ref for ref in wanted if not isinstance(ref, MetricRef)]
    bind = session.get_bind()

    def track(ref: Ref) -> tuple[str, TrackData]:
        with Session(bind=bind) as own:
            repository.use_query_memory(own)
            return ref.id, _track(own, fn, manifest, ref, grid, q)

    # PostgreSQL answers each query on one core: two sessions keep both cores busy on many tracks.
    if len(one_by_one) > 1:
        with ThreadPoolExecutor(TRACK_WORKERS) as pool:
            data.update(pool.map(track, one_by_one))
    else:
        data.update(track(ref) for ref in one_by_one)
    metric_refs = [ref for ref in wanted if isinstance(ref, MetricRef)]
    if metric_refs:
        data.update(_metrics(session, fn, manifest, metric_refs, grid))
    return TimelineOut(
        start=start,
        end=end,
        grid=GridOut(start_us=grid.start_us, width_us=grid.width_us, count=grid.count),
        tracks=[data[ref.id] for ref in wanted],
        missing=missing,
        query_ms=round((time.perf_counter() - began) * 1000, 1),
    )


def _track(
    session: Session, fn: str, manifest: Manifest, ref: Ref, grid: Grid, q: TimelineQuery
) -> TrackData:
    if isinstance(ref, CpuRef):
        return _cpu(session, fn, manifest, ref, grid, q)
    if isinstance(ref, OffCpuRef):
        return _off_cpu(session, manifest, ref, grid, q.filters)
    if isinstance(ref, EventsRef):
        return _events(session, fn, manifest, ref, grid, q.filters)
    raise TypeError(f"metric tracks are read together, not one by one: {ref.id}")


def _range(session: Session, q: TimelineQuery, catalog: Catalog) -> tuple[datetime, datetime]:
    default = catalog.default_range()
    if default is None:
        incident = require_incident(session, q.selection.incident_id)
        default = (incident.started_at, incident.started_at + EMPTY_SPAN)
    start = q.start or default[0]
    end = q.end or default[1]
    if q.end is None and end <= start:
        end = start + EMPTY_SPAN
    if end <= start:
        raise Invalid(f"the range ends ({end.isoformat()}) before it starts ({start.isoformat()})")
    return start, end


def _cpu(session: Session, fn: str, manifest: Manifest, ref: CpuRef, grid: Grid, q: TimelineQuery) -> CpuData:
    raw_only = q.filters.tid is not None or q.split == "thread"
    groups = plan(manifest, ref.capture_ids, "cpu", grid.width_us, raw_only)
    rows = repository.cpu_buckets(session, fn, groups, ref.event, grid, q.filters, q.split == "thread")
    out = _top_and_rest(rows, q.top, grid.count)
    out.sort(key=lambda g: (g.other, -g.total, g.comm, g.pid if g.pid is not None else -1))
    return CpuData(id=ref.id, source=describe(groups), split=q.split, groups=out)


def _top_and_rest(
    rows: list[tuple[str, int | None, list[int], list[int]]], top: int, count: int
) -> list[CpuGroup]:
    """The `top` processes with the most samples in the range, each on its own, and one `other` group
    summing the rest (ties broken by name, then id, so a zoom never reshuffles equal processes)."""
    ranked = sorted(rows, key=lambda r: (-sum(r[3]), r[0], r[1] if r[1] is not None else -1))
    out: list[CpuGroup] = []
    rest = [0] * count
    for rank, (comm, who, indexes, samples) in enumerate(ranked):
        counts = [0] * count if rank < top else rest
        for i, n in zip(indexes, samples, strict=True):
            if 0 <= i < count:
                counts[i] += n
        if rank < top:
            out.append(CpuGroup(comm=comm, pid=who, other=False, total=sum(counts), counts=counts))
    if len(ranked) > top:
        out.append(CpuGroup(comm="other", pid=None, other=True, total=sum(rest), counts=rest))
    return out


def _off_cpu(
    session: Session, manifest: Manifest, ref: OffCpuRef, grid: Grid, filters: Filters
) -> OffCpuData:
    built = [c for c in ref.capture_ids if c in manifest.built]
    stepped = [] if filters.any else built
    raw = [c for c in ref.capture_ids if c not in stepped]
    per_state: dict[str, list[float]] = defaultdict(lambda: [0.0] * grid.count)
    if stepped:
        for state, areas in repository.off_cpu_edges(session, stepped, grid).items():
            _add_into(per_state[state], offcpu.bucket_ns(areas))
    if raw:
        lookback = repository.longest_off_cpu_us(
            session, [c for c in raw if c in manifest.built], [c for c in raw if c not in manifest.built]
        )
        scan_from = grid.start - timedelta(microseconds=lookback)
        edges = [grid.start_us + i * grid.width_us for i in range(grid.count + 1)]
        for state, steps in repository.off_cpu_steps(session, raw, grid, scan_from, filters).items():
            _add_into(per_state[state], offcpu.bucket_ns(offcpu.areas_at(steps, edges)))
    states = [
        StateSeries(state=s, total_ns=sum(ns), ns=ns)
        for s, ns in sorted(per_state.items(), key=lambda kv: state_order(kv[0]))
    ]
    source = " + ".join(p for p, ids in (("steps", stepped), ("raw", raw)) if ids) or "none"
    return OffCpuData(id=ref.id, source=source, states=states)


def _add_into(target: list[float], values: list[float]) -> None:
    for i, v in enumerate(values[: len(target)]):
        target[i] += v


def _events(
    session: Session, fn: str, manifest: Manifest, ref: EventsRef, grid: Grid, filters: Filters
) -> EventsData:
    groups = plan(manifest, ref.capture_ids, "event", grid.width_us, filters.any)
    rows = repository.event_buckets(session, fn, groups, ref.kind, ref.name, grid, filters)
    total = sum(n for _, n, _ in rows)
    if total <= MARK_LIMIT:
        marks = repository.event_marks(
            session, ref.capture_ids, ref.kind, ref.name, grid, filters, MARK_LIMIT
        )
        return EventsData(
            id=ref.id,
            source="raw",
            mode="marks",
            count=len(marks),
            marks=[
                EventMark(ts_us=ts, duration_ns=dur, name=name, pid=pid, tid=tid, comm=comm)
                for ts, dur, name, pid, tid, comm in marks
            ],
            buckets=None,
        )
    count = [0] * grid.count
    longest: list[int | None] = [None] * grid.count
    for i, n, mx in rows:
        if 0 <= i < grid.count:
            count[i] += n
            current = longest[i]
            if mx is not None:
                longest[i] = mx if current is None else max(mx, current)
    return EventsData(
        id=ref.id,
        source=describe(groups),
        mode="buckets",
        count=total,
        marks=[],
        buckets=EventBuckets(count=count, max_ns=longest),
    )


def _metrics(
    session: Session, fn: str, manifest: Manifest, refs: list[MetricRef], grid: Grid
) -> dict[str, MetricData]:
    """Every metric track in two queries at most: buckets for all, then raw points for the sparse ones."""
    series_ids = sorted({sid for ref in refs for sid in ref.series})
    capture_ids = sorted({cid for ref in refs for cid in ref.series.values()})
    groups = plan(manifest, capture_ids, "metric", grid.width_us, False)
    by_series: dict[int, list[tuple[int, int, float, float, float]]] = defaultdict(list)
    for sid, i, n, s, lo, hi in repository.metric_buckets(session, fn, groups, series_ids, grid):
        by_series[sid].append((i, n, s, lo, hi))
    sparse = [ref for ref in refs if sum(r[1] for sid in ref.series for r in by_series[sid]) <= grid.count]
    points: dict[int, list[tuple[int, float]]] = defaultdict(list)
    if sparse:
        sparse_series = sorted({sid for ref in sparse for sid in ref.series})
        sparse_captures = sorted({cid for ref in sparse for cid in ref.series.values()})
        for sid, ts, value in repository.metric_points(session, sparse_captures, sparse_series, grid):
            points[sid].append((ts, value))
    out: dict[str, MetricData] = {}
    sparse_ids = {ref.id for ref in sparse}
    for ref in refs:
        if ref.id in sparse_ids:
            merged = sorted(p for sid in ref.series for p in points[sid])
            out[ref.id] = MetricData(
                id=ref.id,
                source="raw",
                unit=ref.unit,
                mode="points",
                count=len(merged),
                points=[MetricPointOut(ts_us=ts, value=v) for ts, v in merged],
                buckets=None,
            )
            continue
        count = [0] * grid.count
        sums = [0.0] * grid.count
        mins: list[float | None] = [None] * grid.count
        maxs: list[float | None] = [None] * grid.count
        for sid in ref.series:
            for i, n, s, lo, hi in by_series[sid]:
                if not 0 <= i < grid.count:
                    continue
                count[i] += n
                sums[i] += s
                low, high = mins[i], maxs[i]
                mins[i] = lo if low is None else min(lo, low)
                maxs[i] = hi if high is None else max(hi, high)
        out[ref.id] = MetricData(
            id=ref.id,
            source=describe(groups),
            unit=ref.unit,
            mode="buckets",
            count=sum(count),
            points=[],
            buckets=MetricBuckets(
                count=count,
                min=mins,
                avg=[sums[i] / count[i] if count[i] else None for i in range(grid.count)],
                max=maxs,
            ),
        )
    return out
