"""SQL for events."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.events.schemas import EventOut, EventSort

COLUMNS = ", ".join(EventOut.model_fields)
ORDER = {
    ("duration", "desc"): "duration_ns DESC NULLS LAST, ts",
    ("duration", "asc"): "duration_ns ASC NULLS LAST, ts",
    ("time", "asc"): "ts, duration_ns DESC",
    ("time", "desc"): "ts DESC, duration_ns DESC",
}


def list_events(
    session: Session,
    capture_ids: list[int],
    kind: str | None,
    name: str | None,
    tid: int | None,
    start: datetime | None,
    end: datetime | None,
    sort: EventSort,
    descending: bool,
    limit: int,
    offset: int,
) -> tuple[int, list[EventOut]]:
    clauses = ["capture_id = ANY(:ids)"]
    params: dict[str, Any] = {"ids": capture_ids, "limit": limit, "offset": offset}
    for column, value in (("kind", kind), ("name", name), ("tid", tid)):
        if value is not None:
            clauses.append(f"{column} = :{column}")
            params[column] = value
    if start is not None:
        clauses.append("ts >= :start")
        params["start"] = start
    if end is not None:
        clauses.append("ts < :end")
        params["end"] = end
    where = " AND ".join(clauses)
    total = session.execute(text(f"SELECT count(*) FROM events WHERE {where}"), params).scalar_one()
    order = ORDER[(sort, "desc" if descending else "asc")]
    rows = session.execute(
        text(f"SELECT {COLUMNS} FROM events WHERE {where} ORDER BY {order} LIMIT :limit OFFSET :offset"),
        params,
    ).mappings()
    return int(total), [EventOut(**row) for row in rows]
