"""SQL the exports need and no other feature has: raw CPU samples of a time range, in time order."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

SampleRow = tuple[int, datetime, int | None, int | None, str, str, int]
"""capture id, time, pid, tid, comm, event, stack id."""


def _where(
    capture_ids: list[int], start: datetime | None, end: datetime | None
) -> tuple[str, dict[str, Any]]:
    clauses = ["capture_id = ANY(:ids)"]
    params: dict[str, Any] = {"ids": capture_ids}
    if start is not None:
        clauses.append("ts >= :start")
        params["start"] = start
    if end is not None:
        clauses.append("ts < :end")
        params["end"] = end
    return " AND ".join(clauses), params


def first_samples(
    session: Session, capture_ids: list[int], start: datetime | None, end: datetime | None, limit: int
) -> tuple[int, list[SampleRow]]:
    """How many samples the range holds, and the first `limit` of them by time."""
    where, params = _where(capture_ids, start, end)
    total = session.execute(text(f"SELECT count(*) FROM samples WHERE {where}"), params).scalar_one()
    rows = session.execute(
        text(
            "SELECT capture_id, ts, pid, tid, comm, event, stack_id FROM samples "
            f"WHERE {where} ORDER BY ts LIMIT :limit"
        ),
        {**params, "limit": limit},
    )
    found = [(int(c), ts, pid, tid, comm, event, int(stack)) for c, ts, pid, tid, comm, event, stack in rows]
    return int(total), found
