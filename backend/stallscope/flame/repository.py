"""SQL for flame graphs: aggregate samples by stack, then fetch the stacks' frames.

On TimescaleDB an unbounded time range reads the per-second continuous aggregate instead of raw
samples; everything else about the query is the same text on both back ends.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.analysis.flame import FrameInfo, StackWeight
from stallscope.flame.schemas import ProcessFacet, SampleFilter, ThreadFacet
from stallscope.timeseries import ROLLUP_VIEW, has_timescaledb_session

FACET_LIMIT = 2000


def _where(flt: SampleFilter, time_column: str) -> tuple[str, dict[str, Any]]:
    clauses = ["capture_id = ANY(:capture_ids)"]
    params: dict[str, Any] = {"capture_ids": flt.capture_ids}
    if flt.event is not None:
        clauses.append("event = :event")
        params["event"] = flt.event
    for column in ("pid", "tid", "comm"):
        value = getattr(flt, column)
        if value is not None:
            clauses.append(f"{column} = :{column}")
            params[column] = value
    if flt.start is not None:
        clauses.append(f"{time_column} >= :start")
        params["start"] = flt.start
    if flt.end is not None:
        clauses.append(f"{time_column} < :end")
        params["end"] = flt.end
    return " AND ".join(clauses), params


def _rollup_is_complete(session: Session, capture_ids: list[int]) -> bool:
    """Whether the rollup holds every sample of these captures.

    It trails each parse: a capture turns `ready` when its samples commit, and the refresh that
    materialises them can only run after that commit. Until it finishes, read raw samples.
    """
    complete = session.execute(
        text(
            f"SELECT (SELECT coalesce(sum(samples), 0) FROM {ROLLUP_VIEW} WHERE capture_id = ANY(:ids)) "
            "= (SELECT coalesce(sum(sample_count), 0) FROM captures WHERE id = ANY(:ids))"
        ),
        {"ids": capture_ids},
    ).scalar_one()
    return bool(complete)


def stack_weights(session: Session, flt: SampleFilter) -> list[tuple[str, int, int, int]]:
    """(comm, stack_id, weight, samples) for every stack the filter selects."""
    use_rollup = (
        flt.start is None
        and flt.end is None
        and has_timescaledb_session(session)
        and _rollup_is_complete(session, flt.capture_ids)
    )
    if use_rollup:
        where, params = _where(flt, "bucket")
        sql = (
            f"SELECT comm, stack_id, sum(weight)::bigint, sum(samples)::bigint FROM {ROLLUP_VIEW} "
            f"WHERE {where} GROUP BY comm, stack_id"
        )
    else:
        where, params = _where(flt, "ts")
        sql = (
            "SELECT comm, stack_id, sum(weight)::bigint, count(*) FROM samples "
            f"WHERE {where} GROUP BY comm, stack_id"
        )
    return [tuple(row) for row in session.execute(text(sql), params)]


def stacks_by_id(session: Session, stack_ids: Iterable[int]) -> dict[int, list[int]]:
    rows = session.execute(
        text("SELECT id, frame_ids FROM stacks WHERE id = ANY(:ids)"), {"ids": list(stack_ids)}
    )
    return {int(stack_id): list(frame_ids) for stack_id, frame_ids in rows}


def frames_by_id(session: Session, frame_ids: Iterable[int]) -> dict[int, FrameInfo]:
    rows = session.execute(
        text("SELECT id, name, kind FROM frames WHERE id = ANY(:ids)"), {"ids": list(frame_ids)}
    )
    return {frame_id: FrameInfo(name, kind) for frame_id, name, kind in rows}


def load_stack_weights(session: Session, flt: SampleFilter) -> tuple[list[StackWeight], dict[int, FrameInfo]]:
    aggregated = stack_weights(session, flt)
    stacks = stacks_by_id(session, {stack_id for _, stack_id, _, _ in aggregated})
    frames = frames_by_id(session, {f for ids in stacks.values() for f in ids})
    rows = [
        StackWeight(comm, stacks[stack_id], weight, samples) for comm, stack_id, weight, samples in aggregated
    ]
    return rows, frames


def event_counts(session: Session, capture_ids: list[int]) -> list[tuple[str, int]]:
    rows = session.execute(
        text(
            "SELECT e->>'name', sum((e->>'samples')::bigint)::bigint FROM captures, "
            "jsonb_array_elements(events) AS e WHERE id = ANY(:ids) GROUP BY 1 ORDER BY 2 DESC, 1"
        ),
        {"ids": capture_ids},
    )
    return [(name, count) for name, count in rows]


def process_facets(session: Session, flt: SampleFilter) -> list[ProcessFacet]:
    where, params = _where(flt, "ts")
    rows = session.execute(
        text(
            f"SELECT pid, comm, count(*) FROM samples WHERE {where} "
            f"GROUP BY pid, comm ORDER BY 3 DESC LIMIT {FACET_LIMIT}"
        ),
        params,
    )
    return [ProcessFacet(pid=pid, comm=comm, samples=n) for pid, comm, n in rows]


def thread_facets(session: Session, flt: SampleFilter) -> list[ThreadFacet]:
    where, params = _where(flt, "ts")
    rows = session.execute(
        text(
            f"SELECT pid, tid, comm, count(*) FROM samples WHERE {where} "
            f"GROUP BY pid, tid, comm ORDER BY 4 DESC LIMIT {FACET_LIMIT}"
        ),
        params,
    )
    return [ThreadFacet(pid=pid, tid=tid, comm=comm, samples=n) for pid, tid, comm, n in rows]
