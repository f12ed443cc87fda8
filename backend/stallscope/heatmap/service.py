"""Heatmap use cases: pick the stream, plan the columns, aggregate in SQL, shape with the analysis."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from stallscope.analysis.clock_notes import captures_subject, own_clock_note
from stallscope.analysis.event_choice import default_event, offered_events
from stallscope.analysis.heatmap import (
    COUNT_UNITS,
    EVENT_STREAMS,
    US_PER_SECOND,
    Cell,
    ColumnPlan,
    Heatmap,
    HeatmapStream,
    build_heatmap,
    column_limit,
    plan_columns,
    row_width_us,
    rows_fit_slices,
)
from stallscope.captures.service import require_captures
from stallscope.heatmap import repository
from stallscope.heatmap.schemas import (
    HeatmapOut,
    HeatmapQuery,
    HotCellOut,
    StreamNameOut,
    StreamOut,
    StreamsOut,
)
from stallscope.ingest.clock import is_wall_clock
from stallscope.ingest.model import CaptureClock
from stallscope.kit.errors import Invalid
from stallscope.kit.units import is_time_unit
from stallscope.models import Capture

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
ONE_US = timedelta(microseconds=1)


def _clock_notes(captures: list[Capture]) -> tuple[bool, list[str]]:
    """Whether columns are UTC seconds, and what to say when some captures are on their own clock."""
    own_clock = sorted(
        (c for c in captures if not is_wall_clock((c.clock or {}).get("mode"))), key=lambda c: c.id
    )
    if not own_clock:
        return True, []
    note = own_clock_note(
        captures_subject([c.id for c in own_clock]),
        relative=all((c.clock or {}).get("capture_clock") == CaptureClock.RELATIVE.value for c in own_clock),
        align="set its start on the incident page, or upload the host's clock anchors,",
        mixed=len(own_clock) < len(captures),
    )
    return False, [note]


def _streams(session: Session, capture_ids: list[int]) -> list[StreamOut]:
    streams: list[StreamOut] = []
    found = {name: (n, unit) for name, n, unit in repository.sample_events(session, capture_ids)}
    events = [(name, *found[name]) for name in offered_events((name, n) for name, (n, _) in found.items())]
    if events:
        streams.append(
            StreamOut(
                stream="samples",
                count=sum(n for _, n, _ in events),
                unit="samples",
                durations=any(unit == "ns" for _, _, unit in events),
                names=[StreamNameOut(name=name, count=n, durations=unit == "ns") for name, n, unit in events],
            )
        )
    by_kind: dict[str, list[tuple[str, int, int]]] = {}
    for kind, name, n, closed in repository.event_names(session, capture_ids):
        by_kind.setdefault(kind, []).append((name, n, closed))
    for kind in EVENT_STREAMS:
        names = by_kind.get(kind)
        if not names:
            continue
        streams.append(
            StreamOut(
                stream=kind,
                count=sum(n for _, n, _ in names),
                unit=COUNT_UNITS[kind],
                durations=any(closed for _, _, closed in names),
                names=[StreamNameOut(name=name, count=n, durations=closed > 0) for name, n, closed in names],
            )
        )
    return sorted(streams, key=lambda s: -s.count)


def streams(session: Session, capture_ids: list[int]) -> StreamsOut:
    captures = require_captures(session, capture_ids)
    found = _streams(session, capture_ids)
    wall_clock, notes = _clock_notes(captures)
    return StreamsOut(
        streams=found, default=found[0].stream if found else None, wall_clock=wall_clock, notes=notes
    )


def _holding(captures: list[Capture], stream: HeatmapStream, event: str | None) -> list[Capture]:
    """The captures with records of this stream (and event): only their times make the columns."""
    if stream == "samples":
        return [c for c in captures if any(e.get("name") == event for e in c.events or [])]
    return [c for c in captures if (c.record_counts or {}).get(f"events.{stream}", 0) > 0]


def _epoch_us(moment: datetime) -> int:
    return (moment - EPOCH) // ONE_US


def _range(captures: list[Capture], q: HeatmapQuery) -> tuple[datetime, datetime] | None:
    """[low, high) to show: the captures' span, cut to the query's start and end."""
    starts = [c.time_start for c in captures if c.time_start is not None]
    ends = [c.time_end for c in captures if c.time_end is not None]
    if not starts or not ends:
        return None
    low, high = min(starts), max(ends) + ONE_US
    if q.start is not None:
        low = max(low, q.start)
    if q.end is not None:
        high = min(high, q.end)
    return (low, high) if low < high else None


def _plan(low: datetime, high: datetime, rows: int, max_columns: int) -> ColumnPlan:
    first = _epoch_us(low) // US_PER_SECOND
    last = (_epoch_us(high) - 1) // US_PER_SECOND
    return plan_columns(first, last, column_limit(rows, max_columns))


def _second(second: int) -> datetime:
    return EPOCH + timedelta(seconds=second)


def _sample_event(session: Session, q: HeatmapQuery) -> tuple[str | None, str]:
    """The event to show (never several summed: `analysis.event_choice`) and its weight unit."""
    events = repository.sample_events(session, q.capture_ids)
    event = q.event if q.event is not None else default_event((name, n) for name, n, _ in events)
    return event, next((u for name, _, u in events if name == event), "samples")


def _default_stream(session: Session, capture_ids: list[int]) -> HeatmapStream:
    found = _streams(session, capture_ids)
    return found[0].stream if found else "samples"


def heatmap(session: Session, q: HeatmapQuery) -> HeatmapOut:
    try:
        row_us = row_width_us(q.rows)
    except ValueError as exc:
        raise Invalid(str(exc)) from exc
    captures = require_captures(session, q.capture_ids)
    stream = q.stream or _default_stream(session, q.capture_ids)
    event: str | None = None
    unit = COUNT_UNITS[stream]
    if stream == "samples":
        event, weight_unit = _sample_event(session, q)
        if q.value == "duration":
            if not is_time_unit(weight_unit):
                raise Invalid(
                    f"samples of {event or 'this event'} weigh {weight_unit}, not time: use value=count "
                    "(durations need a clock event such as cpu-clock)"
                )
            unit = "ns"
    elif q.value == "duration":
        unit = "ns"
    holding = _holding(captures, stream, event) or captures
    wall_clock, notes = _clock_notes(holding)
    span = _range(holding, q)
    if span is None:
        empty = build_heatmap([], q.rows, q.value)
        notes.append("nothing to show: these captures have no times in the chosen range")
        return _out(q, stream, event, unit, empty, 0, wall_clock, notes)
    plan = _plan(span[0], span[1], q.rows, q.max_columns)
    low, high = span
    unclosed = 0
    if stream == "samples":
        cells = [] if event is None else _sample_cells(session, q, event, plan, row_us, low, high)
    else:
        cells, unclosed = repository.event_cells(session, q, stream, plan, row_us, low, high)
    shaped = build_heatmap(cells, q.rows, q.value, plan, top=q.top)
    if unclosed and q.value == "duration":
        notes.append(f"{unclosed} intervals never ended in the capture: counted, but add no duration")
    return _out(q, stream, event, unit, shaped, unclosed, wall_clock, notes + shaped.notes)


def _sample_cells(
    session: Session,
    q: HeatmapQuery,
    event: str,
    plan: ColumnPlan,
    row_us: int,
    low: datetime,
    high: datetime,
) -> list[Cell]:
    """From the slices counted at parse time when they answer the query (no thread filter, rows of
    whole slices), else from raw samples."""
    if rows_fit_slices(row_us) and q.pid is None and q.tid is None and q.comm is None:
        return repository.sliced_sample_cells(session, q, event, plan, row_us, low, high)
    return repository.sample_cells(session, q, event, plan, row_us, low, high)


def _out(
    q: HeatmapQuery,
    stream: HeatmapStream,
    event: str | None,
    unit: str,
    hm: Heatmap,
    unclosed: int,
    wall_clock: bool,
    notes: list[str],
) -> HeatmapOut:
    has_columns = hm.columns > 0
    return HeatmapOut(
        stream=stream,
        value=q.value,
        unit=unit,
        event=event,
        name=q.name if stream in EVENT_STREAMS and stream != "off-cpu" else None,
        state=q.state if stream == "off-cpu" else None,
        rows=hm.rows,
        row_us=hm.row_us,
        first_second=hm.first_second,
        column_seconds=hm.column_seconds,
        columns=hm.columns,
        start=_second(hm.first_second) if has_columns else None,
        end=_second(hm.first_second + hm.columns * hm.column_seconds) if has_columns else None,
        values=hm.values,
        counts=hm.counts if q.value != "count" else None,
        row_totals=hm.row_totals,
        max=hm.max,
        total=hm.total,
        total_count=hm.total_count,
        unclosed=unclosed,
        hot=[
            HotCellOut(
                column=h.column,
                second=h.second,
                seconds=h.seconds,
                start=_second(h.second),
                end=_second(h.second + h.seconds),
                row=h.row,
                offset_start_us=h.offset_start_us,
                offset_end_us=h.offset_end_us,
                value=h.value,
                count=h.count,
            )
            for h in hm.hot
        ],
        wall_clock=wall_clock,
        notes=notes,
    )
