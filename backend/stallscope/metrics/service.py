"""Metric use cases: which series to list, and one series bucketed the way its kind reads best."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from stallscope.analysis.metric_buckets import rate_points, step_stats, value_points
from stallscope.analysis.metric_kinds import StepStats, classify, is_rate_unit, rate_unit
from stallscope.kit.errors import Invalid, NotFound
from stallscope.metrics import repository
from stallscope.metrics.schemas import PointOut, SeriesOut, SeriesPoints

MIN_BUCKET = timedelta(microseconds=1)
NO_STEPS = StepStats(points=0, steps=0, increases=0, decreases=0, resets=0, min_value=None)


def list_series(session: Session, capture_ids: list[int] | None, incident_id: int | None) -> list[SeriesOut]:
    """The series of the captures named, or of every capture of the incident when none are."""
    if not capture_ids:
        if incident_id is None:
            raise Invalid("name the captures (captures=3,4) or the incident (incident=2)")
        capture_ids = repository.incident_capture_ids(session, incident_id)
        if capture_ids is None:
            raise NotFound(f"incident {incident_id} not found")
        if not capture_ids:
            return []
    return [
        s.model_copy(update={"named_kind": classify(s.name, s.unit, NO_STEPS).kind})
        for s in repository.list_series(session, capture_ids)
    ]


def series_points(
    session: Session,
    series_id: int,
    start: datetime | None,
    end: datetime | None,
    buckets: int,
    rate: bool | None,
) -> SeriesPoints:
    """About `buckets` buckets laid from `start`: a counter's rate per second unless `rate` says
    otherwise, a latency's percentiles, a gauge's average with min and max."""
    ref = repository.series_ref(session, series_id)
    if ref is None:
        raise NotFound(f"metric series {series_id} not found")
    if start is None or end is None:
        first, last = repository.series_span(session, ref.capture_id, series_id)
        start = start or first
        end = end or last
    # Latency, and levels in rate or ratio units, are read from the name and unit alone: their
    # points need no steps (the costly part: a window over the range) unless a rate is asked for.
    by_name = classify(ref.name, ref.unit, NO_STEPS)
    if start is None or end is None:
        return SeriesPoints(
            series_id=series_id, bucket_ns=0, points=[], kind=by_name.kind, kind_reason=by_name.reason
        )
    if end < start:
        raise Invalid(f"end ({end.isoformat()}) is before start ({start.isoformat()})")
    bucket = max((end - start) / buckets, MIN_BUCKET)
    settled = by_name.kind == "latency" or is_rate_unit(ref.unit)
    steps = rate is True or not settled
    sums = repository.bucket_sums(
        session,
        ref.capture_id,
        series_id,
        start,
        end,
        bucket,
        buckets,
        steps=steps,
        prior=steps and (ref.capture_start is None or start > ref.capture_start),
        percentiles=by_name.kind == "latency",
    )
    stats = step_stats(sums)
    kinding = classify(ref.name, ref.unit, stats)
    as_rate = rate if rate is not None else kinding.kind == "counter"
    drawn = rate_points(sums) if as_rate else value_points(sums)
    show_percentiles = not as_rate and kinding.kind == "latency"
    return SeriesPoints(
        series_id=series_id,
        bucket_ns=bucket // timedelta(microseconds=1) * 1000,
        points=[
            PointOut(
                ts=p.ts,
                avg=p.avg,
                min=p.min,
                max=p.max,
                count=p.count,
                p50=p.p50 if show_percentiles else None,
                p90=p.p90 if show_percentiles else None,
                p99=p.p99 if show_percentiles else None,
            )
            for p in drawn
        ],
        kind=kinding.kind,
        kind_reason=kinding.reason,
        drawn="rate" if as_rate else "values",
        unit=rate_unit(ref.unit) if as_rate else ref.unit,
        start=start,
        end=end,
        resets=stats.decreases if kinding.kind == "counter" else 0,
    )
