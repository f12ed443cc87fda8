"""Timeline use cases: list an incident's tracks, and answer a zoom with bucketed data for some of them."""

from __future__ import annotations

import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy.orm import Session

from stallscope.analysis import off_cpu_steps, timeline_buckets
from stallscope.analysis.timeline_grid import Grid, epoch_us, grid_for
from stallscope.incidents.service import require_incident
from stallscope.ingest.clock import stored_mode
from stallscope.ingest.proc_stacks import events as proc_stack_events
from stallscope.kit.errors import Invalid
from stallscope.timeline import repository
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
            intervals=sum(t.intervals for _, t in states),
            unclosed=ref.unclosed,
            states=[
                StateTotal(
                    state=s, intervals=t.intervals, total_ns=int(t.total_ns), max_ns=int(t.longest_ns) or None
                )
                for s, t in states
            ],
        )
    if isinstance(ref, EventsRef):
        names = sorted(ref.names.items(), key=lambda kv: (-kv[1].count, kv[0]))
        return EventsTrack(
            id=ref.id,
            host=ref.host,
            label=f"{ref.kind} {ref.name}" if ref.name is not None else f"{ref.kind} latency",
            kind=ref.kind,
            name=ref.name,
            count=sum(t.count for _, t in names),
            names=[NameCount(name=n, count=t.count, max_ns=int(t.longest_ns) or None) for n, t in names],
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
    out = [
        CpuGroup(comm=s.comm, pid=s.who, other=s.other, total=s.total_samples, counts=s.samples)
        for s in timeline_buckets.top_and_rest(rows, q.top, grid.count)
    ]
    return CpuData(id=ref.id, source=describe(groups), split=q.split, groups=out)


def _off_cpu(
    session: Session, manifest: Manifest, ref: OffCpuRef, grid: Grid, filters: Filters
) -> OffCpuData:
    built = [c for c in ref.capture_ids if c in manifest.built]
    stepped = [] if filters.any else built
    raw = [c for c in ref.capture_ids if c not in stepped]
    per_state: dict[str, list[float]] = defaultdict(lambda: [0.0] * grid.count)
    edges = grid.edges_us()
    if stepped:
        spans = repository.off_cpu_spans(session, stepped)
        looked_up = repository.off_cpu_areas(session, spans, grid)
        for state, areas in off_cpu_steps.stored_areas(spans, looked_up, edges).items():
            off_cpu_steps.add_into(per_state[state], off_cpu_steps.bucket_ns(areas))
    if raw:
        lookback = repository.longest_off_cpu_us(
            session, [c for c in raw if c in manifest.built], [c for c in raw if c not in manifest.built]
        )
        scan_from = grid.start - timedelta(microseconds=lookback)
        for state, steps in repository.off_cpu_steps(session, raw, grid, scan_from, filters).items():
            areas = off_cpu_steps.areas_at(steps, edges)
            off_cpu_steps.add_into(per_state[state], off_cpu_steps.bucket_ns(areas))
    states = [
        StateSeries(state=s, total_ns=sum(ns), ns=ns)
        for s, ns in sorted(per_state.items(), key=lambda kv: state_order(kv[0]))
    ]
    source = " + ".join(p for p, ids in (("steps", stepped), ("raw", raw)) if ids) or "none"
    return OffCpuData(id=ref.id, source=source, states=states)


def _events(
    session: Session, fn: str, manifest: Manifest, ref: EventsRef, grid: Grid, filters: Filters
) -> EventsData:
    groups = plan(manifest, ref.capture_ids, "event", grid.width_us, filters.any)
    rows = repository.event_buckets(session, fn, groups, ref.kind, ref.name, grid, filters)
    total = sum(row.events for row in rows)
    if total <= MARK_LIMIT:
        marks = repository.event_marks(
            session, ref.capture_ids, ref.kind, ref.name, grid, filters, MARK_LIMIT
        )
        return EventsData(
            id=ref.id,
            source="raw",
            mode="marks",
            count=len(marks),
            marks=[EventMark(**mark._asdict()) for mark in marks],
            buckets=None,
        )
    series = timeline_buckets.event_series(rows, grid.count)
    return EventsData(
        id=ref.id,
        source=describe(groups),
        mode="buckets",
        count=total,
        marks=[],
        buckets=EventBuckets(count=series.events, max_ns=series.longest_ns),
    )


def _metrics(
    session: Session, fn: str, manifest: Manifest, refs: list[MetricRef], grid: Grid
) -> dict[str, MetricData]:
    """Every metric track in two queries at most: buckets for all, then raw points for the sparse ones."""
    series_ids = sorted({sid for ref in refs for sid in ref.series})
    capture_ids = sorted({cid for ref in refs for cid in ref.series.values()})
    groups = plan(manifest, capture_ids, "metric", grid.width_us, False)
    buckets = timeline_buckets.by_series(repository.metric_buckets(session, fn, groups, series_ids, grid))
    sparse = [ref for ref in refs if timeline_buckets.is_sparse(buckets, ref.series, grid.count)]
    points: dict[int, list[timeline_buckets.MetricPointRow]] = {}
    if sparse:
        sparse_series = sorted({sid for ref in sparse for sid in ref.series})
        sparse_captures = sorted({cid for ref in sparse for cid in ref.series.values()})
        points = timeline_buckets.by_series(
            repository.metric_points(session, sparse_captures, sparse_series, grid)
        )
    out: dict[str, MetricData] = {}
    sparse_ids = {ref.id for ref in sparse}
    for ref in refs:
        if ref.id in sparse_ids:
            merged = timeline_buckets.merged_points(points, ref.series)
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
        series = timeline_buckets.metric_series(buckets, ref.series, grid.count)
        out[ref.id] = MetricData(
            id=ref.id,
            source=describe(groups),
            unit=ref.unit,
            mode="buckets",
            count=sum(series.points),
            points=[],
            buckets=MetricBuckets(
                count=series.points, min=series.value_min, avg=series.value_avg, max=series.value_max
            ),
        )
    return out
