"""Interop use cases: a flame-graph view as a profile other tools read, a timeline selection as a trace.

The profile is made from the same weighed call-site tree the flame graph and the folded download
are made from (`flame.service.resolve_view`), so all three carry the same stacks and the same total. The
trace reads stored events through the events repository and samples through ours, both in time
order, and keeps the first `MAX_TRACE_EVENTS` of them together.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from stallscope import __version__
from stallscope.analysis.timeline_grid import epoch_us, from_epoch_us
from stallscope.events import repository as events_repository
from stallscope.flame import service as flame_service
from stallscope.flame.catalog import catalog
from stallscope.flame.schemas import SampleFilter
from stallscope.interop import repository
from stallscope.interop.chrome_trace import SAMPLE, TraceRecord, chrome_trace
from stallscope.interop.view import ViewProfile, ViewUnit, from_weighed
from stallscope.kit.errors import NotFound
from stallscope.kit.units import utc_iso
from stallscope.timeline import repository as timeline_repository
from stallscope.timeline.service import Selection

MAX_TRACE_EVENTS = 200_000
"""Samples and events in one trace, at most: about 30 MB of JSON, which Perfetto UI and
chrome://tracing both open in seconds. Past it the trace stops at a time, and says so."""

_UNITS: dict[str, ViewUnit] = {"samples": "samples", "events": "events", "ns": "ns", "us": "us"}


def _utc(moment: datetime | None) -> datetime | None:
    """A query time without a zone is UTC, as the flame graph's SQL reads it."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def flame_profile(session: Session, flt: SampleFilter, focus: list[str]) -> ViewProfile:
    """The view `/api/flame/folded` answers with the same filter and focus, as weighted stacks."""
    view = flame_service.resolve_view(session, flt, focus)
    shown = view.flt
    if shown.source == "samples":
        event = shown.event or "samples"
    else:
        event = shown.source if shown.state is None else f"{shown.source} {shown.state}"
    starts = [c.time_start for c in view.captures if c.time_start is not None]
    ends = [c.time_end for c in view.captures if c.time_end is not None]
    start = _utc(shown.start) or (min(starts) if starts else None)
    end = _utc(shown.end) or (max(ends) if ends else None)
    ids = ",".join(map(str, shown.capture_ids))
    filters = [f"{key}={value}" for key, value in _filters(shown).items()]
    if focus:
        filters.append("focus=" + ";".join(focus))
    comments = [f"Stallscope {__version__}", f"captures {ids}, {event}", *filters]
    return ViewProfile(
        stacks=from_weighed(view.weighed, view.node, view.lookup),
        unit=_UNITS.get(view.unit, "samples"),
        event="off-cpu" if shown.source == "off-cpu" else event,
        name=f"Stallscope captures {ids}: {event}",
        start=start,
        end=end,
        comments=comments,
    )


def _filters(flt: SampleFilter) -> dict[str, str]:
    """The view's filters other than captures, source and event, as text."""
    values = {
        "pid": flt.pid,
        "tid": flt.tid,
        "comm": flt.comm,
        "start": flt.start.isoformat() if flt.start else None,
        "end": flt.end.isoformat() if flt.end else None,
        "within": str(flt.within) if flt.within else None,
    }
    return {key: str(value) for key, value in values.items() if value is not None}


def timeline_trace(
    session: Session,
    selection: Selection,
    start: datetime | None,
    end: datetime | None,
    limit: int = MAX_TRACE_EVENTS,
) -> dict[str, Any]:
    """The selection's first `limit` samples and events from `start` to `end` as a Chrome trace (a
    JSON-ready dict)."""
    captures = timeline_repository.captures(
        session, selection.incident_id, selection.capture_ids, selection.hosts
    )
    if not captures:
        raise NotFound(f"no capture of incident {selection.incident_id} matches this selection")
    hosts = list(dict.fromkeys(c.host for c in captures))
    host_of = {c.id: hosts.index(c.host) for c in captures}
    ids = [c.id for c in captures]
    events_total, events = events_repository.list_events(
        session, ids, None, None, None, start, end, "time", False, limit + 1, 0
    )
    samples_total, samples = repository.first_samples(session, ids, start, end, limit + 1)
    records = [
        TraceRecord(
            epoch_us(e.ts),
            e.kind.value,
            e.name,
            host_of[e.capture_id],
            e.pid,
            e.tid,
            e.comm,
            e.duration_ns,
            e.state,
            e.stack_id,
            {"args": e.args, "result": e.result, "cpu": e.cpu, "waker_tid": e.waker_tid, **(e.attrs or {})},
        )
        for e in events
    ]
    records += [
        TraceRecord(epoch_us(ts), SAMPLE, event, host_of[capture], pid, tid, comm, stack_id=stack)
        for capture, ts, pid, tid, comm, event, stack in samples
    ]
    records.sort(key=lambda r: r.at_us)
    kept, complete_until_us = _first(records, limit)
    kept_samples = sum(1 for r in kept if r.kind == SAMPLE)
    kept_events = len(kept) - kept_samples
    stacks, frames = catalog.resolve(session, {r.stack_id for r in kept if r.stack_id is not None})
    known_starts = [epoch_us(c.time_start) for c in captures if c.time_start is not None]
    origin_us = epoch_us(start) if start else min(known_starts or [r.at_us for r in kept] or [0])
    other: dict[str, Any] = {
        "exporter": f"stallscope {__version__}",
        "incident": selection.incident_id,
        "captures": ids,
        "selection_start_utc": _iso(epoch_us(start)) if start else None,
        "selection_end_utc": _iso(epoch_us(end)) if end else None,
        "samples": kept_samples,
        "events": kept_events,
        "limit": limit,
        "left_out": {"samples": samples_total - kept_samples, "events": events_total - kept_events},
        "complete_until_utc": _iso(complete_until_us) if complete_until_us is not None else None,
        "note": "events are the selection's timed events that start inside it",
    }
    return chrome_trace(kept, stacks, frames, hosts, origin_us, other)


def _first(records: list[TraceRecord], limit: int) -> tuple[list[TraceRecord], int | None]:
    """At most `limit` records, cut at a time: every record before it, none from it on.

    Also the cut time (None when nothing was cut): the trace is complete up to it, which a reader
    can trust more than a trace thinned out everywhere.
    """
    if len(records) <= limit:
        return records, None
    cut_us = records[limit].at_us
    return [r for r in records[:limit] if r.at_us < cut_us], cut_us


def _iso(us: int) -> str:
    return utc_iso(from_epoch_us(us))
