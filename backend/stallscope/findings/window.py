"""Findings of a time window against the rest of the time range: "what went wrong at 08:03?".

The window's digests and the baseline's are built from the same captures, each of its own span, and
go through the same engine as an incident's findings; the baseline is the time before the window
(or after it, when asked or when nothing comes before), so each side is one contiguous range that
the flame graph, threads and diff views open on exactly. Computed on request and not stored: a
window is a question, the incident's findings are the answer kept.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy.orm import Session

from stallscope.analysis.findings.detectors import DETECTORS
from stallscope.analysis.findings.digest import CaptureDigest
from stallscope.analysis.findings.engine import run_findings
from stallscope.findings import repository
from stallscope.findings.digests import build_digest
from stallscope.findings.repository import Span
from stallscope.kit.errors import Invalid, NotFound
from stallscope.kit.units import epoch_ns

RestSide = Literal["before", "after"]
CaptureSpan = tuple[int, str, datetime | None, datetime | None]
"""(capture, host, first record, last record)."""

ONE_US = timedelta(microseconds=1)
"""A capture's end is its last record's time; one µs past it makes the range exclusive."""


def _rest(lo: datetime, hi: datetime, window: Span, side: RestSide) -> tuple[Span | None, list[str]]:
    """The baseline span on the side asked for, else the other one, else none."""
    spans = {
        "before": Span(lo, window.start) if lo < window.start else None,
        "after": Span(window.end, hi) if window.end < hi else None,
    }
    other: RestSide = "after" if side == "before" else "before"
    if spans[side] is not None:
        return spans[side], []
    if spans[other] is not None:
        return spans[other], [f"Nothing comes {side} the window: compared with the time {other} it."]
    return None, ["The window covers all the captures' time: nothing to compare it with."]


def window_findings(
    session: Session,
    incident_id: int,
    start: datetime,
    end: datetime,
    hosts: list[str] | None = None,
    side: RestSide = "before",
) -> dict[str, Any]:
    started = time.perf_counter()
    if not repository.incident_exists(session, incident_id):
        raise NotFound(f"incident {incident_id} does not exist")
    if start >= end:
        raise Invalid(f"the window must start before it ends ({start.isoformat()} >= {end.isoformat()})")
    captures = repository.parsed_captures(session, incident_id, hosts or None)
    timed = [(s, e) for _, _, s, e in captures if s is not None and e is not None]
    if not timed:
        raise Invalid(f"incident {incident_id} has no parsed capture with a time range")
    lo, hi = min(s for s, _ in timed), max(e for _, e in timed) + ONE_US
    window = Span(max(start, lo), min(end, hi))
    if window.start >= window.end:
        raise Invalid(
            f"no parsed capture reaches into {start.isoformat()} to {end.isoformat()} "
            f"(the captures run from {lo.isoformat()} to {hi.isoformat()})"
        )
    rest, notes = _rest(lo, hi, window, side)
    impacted = _digests(session, captures, window, rest)
    baseline = _digests(session, captures, rest, window) if rest else []
    result = run_findings(
        impacted,
        baseline,
        incident_id,
        time_range=(epoch_ns(window.start), epoch_ns(window.end)),
        baseline_time_range=(epoch_ns(rest.start), epoch_ns(rest.end)) if rest else None,
    )
    notes.extend(result.notes)
    hosts_text = "1 host" if len(result.hosts) == 1 else f"{len(result.hosts)} hosts"
    notes.append(f"{len(DETECTORS)} detectors ran on the window's records of {hosts_text}.")
    return {
        "window": {"start": window.start, "end": window.end},
        "baseline": (
            {"side": "before" if rest.end == window.start else "after", "start": rest.start, "end": rest.end}
            if rest
            else None
        ),
        "hosts": result.hosts,
        "capture_ids": sorted({c for f in result.findings for c in f.capture_ids}),
        "duration_ms": (time.perf_counter() - started) * 1000,
        "notes": notes,
        "findings": [f.as_json() for f in result.findings],
    }


def _digests(
    session: Session, captures: list[CaptureSpan], span: Span, other: Span | None
) -> list[CaptureDigest]:
    """Each capture's part in `span`. A capture's documents go to the span nearer its start: a
    snapshot taken as recording began describes the window it opened, not the time before."""
    digests = []
    for capture_id, host, start, _ in captures:
        documents = other is None or start is None or _distance(start, span) <= _distance(start, other)
        digest = build_digest(session, capture_id, span, with_documents=documents)
        if digest is not None:
            digest.host = host
            digests.append(digest)
    return digests


def _distance(moment: datetime, span: Span) -> timedelta:
    if moment < span.start:
        return span.start - moment
    if moment >= span.end:
        return moment - span.end + ONE_US
    return timedelta(0)
