"""Events and metric points as CSV, streamed from the database in batches.

A vendor opens these in a spreadsheet or pandas, so times are ISO 8601 UTC with nanoseconds where the
record has them, durations are in nanoseconds, and every text cell passes through the redactor.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.bundle.repository import TimeRange
from stallscope.kit.units import utc_iso

Redact = Callable[[str], str]
_BATCH_ROWS = 5000

EVENT_COLUMNS = (
    "capture_id", "time_utc", "duration_ns", "kind", "name", "pid", "tid", "comm", "cpu", "state",
    "waker_tid", "args", "result", "attrs",
)  # fmt: skip
METRIC_COLUMNS = ("capture_id", "time_utc", "name", "labels", "unit", "value")


def events_csv(
    session: Session, capture_ids: Sequence[int], span: TimeRange, redact: Redact
) -> Iterator[bytes]:
    """Every event of the captures in the span, in time order, as CSV bytes."""
    where, params = _where("e", capture_ids, span)
    rows = session.execute(
        text(
            "SELECT e.capture_id, e.ts, e.duration_ns, e.kind, e.name, e.pid, e.tid, e.comm, e.cpu, e.state, "
            f"e.waker_tid, e.args, e.result, e.attrs FROM events e WHERE {where} ORDER BY e.ts, e.capture_id"
        ).execution_options(stream_results=True, yield_per=_BATCH_ROWS),
        params,
    )
    yield from _csv(EVENT_COLUMNS, (_event_cells(row, redact) for row in rows))


def metrics_csv(
    session: Session, capture_ids: Sequence[int], span: TimeRange, redact: Redact
) -> Iterator[bytes]:
    """Every metric point of the captures in the span, by series then time, as CSV bytes."""
    where, params = _where("m", capture_ids, span)
    rows = session.execute(
        text(
            "SELECT m.capture_id, m.ts, s.name, s.labels, s.unit, m.value FROM metrics m "
            f"JOIN metric_series s ON s.id = m.series_id WHERE {where} ORDER BY m.series_id, m.ts"
        ).execution_options(stream_results=True, yield_per=_BATCH_ROWS),
        params,
    )
    yield from _csv(METRIC_COLUMNS, (_metric_cells(row, redact) for row in rows))


def _where(alias: str, capture_ids: Sequence[int], span: TimeRange) -> tuple[str, dict[str, Any]]:
    clauses = [f"{alias}.capture_id = ANY(:ids)"]
    params: dict[str, Any] = {"ids": list(capture_ids)}
    if span.start is not None:
        clauses.append(f"{alias}.ts >= :start")
        params["start"] = span.start
    if span.end is not None:
        clauses.append(f"{alias}.ts < :end")
        params["end"] = span.end
    return " AND ".join(clauses), params


def _event_cells(row: Any, redact: Redact) -> list[object]:
    (capture_id, ts, duration_ns, kind, name, pid, tid, comm, cpu, state, waker, args, result, attrs) = row
    return [
        capture_id, utc_iso(ts), duration_ns, kind, redact(name), pid, tid, redact(comm), cpu, state, waker,
        _opt(args, redact), _opt(result, redact), redact(json.dumps(attrs, sort_keys=True)) if attrs else "",
    ]  # fmt: skip


def _metric_cells(row: Any, redact: Redact) -> list[object]:
    capture_id, ts, name, labels, unit, value = row
    label_text = ",".join(f"{key}={value}" for key, value in sorted((labels or {}).items()))
    return [capture_id, utc_iso(ts), redact(name), redact(label_text), unit or "", repr(float(value))]


def _opt(value: str | None, redact: Redact) -> str:
    return "" if value is None else redact(value)


def _csv(header: Sequence[str], rows: Iterator[list[object]]) -> Iterator[bytes]:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for count, row in enumerate(rows, start=1):
        writer.writerow(row)
        if count % _BATCH_ROWS == 0:
            yield buffer.getvalue().encode("utf-8")
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue().encode("utf-8")
