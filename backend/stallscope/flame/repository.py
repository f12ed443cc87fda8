"""SQL for flame graphs: aggregate samples by stack, then fetch the stacks' frames.

Whole captures read the totals written at ingest (both back ends; the flame graph itself keeps them
with each capture's call-site tree and asks only for filtered views). Wide time ranges read the
per-second rollup `sample_rollup_1s` on TimescaleDB (written in each parse's transaction), with raw
samples for the partial seconds at the edges; on plain PostgreSQL, and for narrow ranges, they read
raw samples with the same SQL.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.analysis.flame import FrameInfo
from stallscope.flame.schemas import ProcessFacet, SampleFilter, ThreadFacet
from stallscope.ingest.proc_stacks import events as proc_stack_events
from stallscope.kit.sql_time import offset_us_of
from stallscope.timeseries import ROLLUP_BUCKET, ROLLUP_VIEW, has_timescaledb_session

FACET_LIMIT = 2000
WEIGHTS_WORK_MEM = "64MB"
"""Memory the stack-weights aggregate may hash in. At the default 4 MB a range of a million samples
sorts on disk instead (10 captures, 60 s, 1.15M samples into 9k stacks: 0.79 s against 0.49 s)."""
ROLLUP_MIN_RANGE = timedelta(seconds=10)
"""Below this a range has too few whole seconds for the rollup to beat raw samples."""


def _where(flt: SampleFilter, time_column: str) -> tuple[str, dict[str, Any]]:
    clauses = ["capture_id = ANY(:capture_ids)"]
    params: dict[str, Any] = {"capture_ids": flt.capture_ids}
    if flt.source == "proc-stack":
        clauses.append(_proc_stack_events(flt.state, params))
    elif flt.event is not None:
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
    if flt.within is not None:
        offset = offset_us_of(time_column)
        inside = f"{offset} >= :within_start AND {offset} < :within_end"
        clauses.append(f"NOT ({inside})" if flt.within.outside else f"({inside})")
        params["within_start"] = flt.within.start_us
        params["within_end"] = flt.within.end_us
    return " AND ".join(clauses), params


def _proc_stack_events(state: str | None, params: dict[str, Any]) -> str:
    """/proc stack samples of one state (their event names it), or of every state and none."""
    if state is not None:
        params["event"] = proc_stack_events.event_name(state)
        return "event = :event"
    params["proc_stack_event"] = proc_stack_events.EVENT
    params["proc_stack_stated"] = proc_stack_events.LIKE_STATED
    return "(event = :proc_stack_event OR event LIKE :proc_stack_stated)"


def _rollup_is_complete(session: Session, capture_ids: list[int]) -> bool:
    """Whether the rollup holds every sample of these captures: each parse marks its capture in
    `sample_rollup_captures` with the parse that wrote its rollup rows. A capture whose latest parse
    is not marked (parsed before the rollup existed, say) is read from raw samples.
    """
    wanted = set(capture_ids)
    marked = session.execute(
        text(
            "SELECT count(*) FROM captures c JOIN sample_rollup_captures m "
            "ON m.capture_id = c.id AND m.parsed_at = c.parsed_at WHERE c.id = ANY(:ids)"
        ),
        {"ids": sorted(wanted)},
    ).scalar_one()
    return int(marked) == len(wanted)


StackWeightColumns = tuple[list[str], list[int], list[int], list[int]]
"""Four columns, a row per stack the filter selects: comms, stack ids, weights, samples."""


def stack_weight_columns(session: Session, flt: SampleFilter) -> StackWeightColumns:
    """(comm, stack_id, weight, samples) of every stack the filter selects, as columns aggregated
    into arrays by the server: one row to read, not tens of thousands (converting the rows cost
    more than the query)."""
    sql, params = _weights_query(session, flt)
    _allow_hashing(session)
    wrapped = (
        "SELECT coalesce(array_agg(w.comm), '{}'), coalesce(array_agg(w.stack_id), '{}'), "
        "coalesce(array_agg(w.weight), '{}'), coalesce(array_agg(w.samples), '{}') "
        f"FROM ({sql}) AS w(comm, stack_id, weight, samples)"
    )
    comms, stacks, weights, samples = session.execute(text(wrapped), params).one()
    return list(comms), list(stacks), list(weights), list(samples)


def _allow_hashing(session: Session) -> None:
    """`WEIGHTS_WORK_MEM` for the rest of this transaction (a request's, or a job's)."""
    session.execute(text(f"SET LOCAL work_mem = '{WEIGHTS_WORK_MEM}'"))


def _weights_query(session: Session, flt: SampleFilter) -> tuple[str, dict[str, Any]]:
    """The SQL selecting (comm, stack_id, weight, samples) for the filter, from the cheapest source.

    Three sources, cheapest first: a whole capture reads its ingest-time totals; a wide time range on
    TimescaleDB reads whole seconds from the per-second rollup and only the partial seconds at its
    edges from raw samples; anything else aggregates raw samples.
    """
    if flt.source == "off-cpu":
        return _from_off_cpu(flt)
    if flt.is_whole_capture:
        return _from_totals(flt)
    if _rollup_pays_off(session, flt):
        return _from_rollup_and_edges(flt)
    return _from_samples(flt)


def _from_totals(flt: SampleFilter) -> tuple[str, dict[str, Any]]:
    where, params = _where(flt, "ts")
    sql = (
        "SELECT comm, stack_id, sum(weight)::bigint, sum(samples)::bigint FROM capture_stack_totals "
        f"WHERE {where} GROUP BY comm, stack_id"
    )
    return sql, params


OFF_CPU_WEIGHT_DIVISOR = 1000
"""Off-CPU weights are microseconds: nanosecond sums of a busy capture overflow what people read."""


def _from_off_cpu(flt: SampleFilter) -> tuple[str, dict[str, Any]]:
    """Closed off-CPU intervals by blocking stack; unclosed ones have no duration to weigh."""
    where, params = _where(flt.model_copy(update={"event": None}), "ts")
    where += " AND kind = 'off-cpu' AND duration_ns IS NOT NULL"
    if flt.state is not None:
        where += " AND state = :state"
        params["state"] = flt.state
    sql = (
        f"SELECT comm, stack_id, (sum(duration_ns) / {OFF_CPU_WEIGHT_DIVISOR})::bigint, count(*) "
        f"FROM events WHERE {where} GROUP BY comm, stack_id"
    )
    return sql, params


def off_cpu_states(session: Session, capture_ids: list[int]) -> list[tuple[str, int]]:
    rows = session.execute(
        text(
            "SELECT coalesce(state, '?'), count(*) FROM events WHERE capture_id = ANY(:ids) "
            "AND kind = 'off-cpu' GROUP BY 1 ORDER BY 2 DESC"
        ),
        {"ids": capture_ids},
    )
    return [(state, int(n)) for state, n in rows]


def proc_stack_states(session: Session, capture_ids: list[int]) -> list[tuple[str, int]]:
    """The states /proc stack samples were dumped in, with their samples, most sampled first."""
    states = [
        (state, count)
        for name, count in event_counts(session, capture_ids)
        if (state := proc_stack_events.state_of(name)) is not None
    ]
    return sorted(states, key=lambda sc: (-sc[1], sc[0]))


def _from_samples(flt: SampleFilter) -> tuple[str, dict[str, Any]]:
    where, params = _where(flt, "ts")
    sql = (
        "SELECT comm, stack_id, sum(weight)::bigint, count(*) FROM samples "
        f"WHERE {where} GROUP BY comm, stack_id"
    )
    return sql, params


def _whole_seconds(flt: SampleFilter) -> tuple[datetime, datetime] | None:
    """The whole seconds inside the filter's range, or None when the range is not wide enough."""
    if flt.start is None or flt.end is None:
        return None
    inner_start = flt.start.replace(microsecond=0)
    if inner_start < flt.start:
        inner_start += ROLLUP_BUCKET
    inner_end = flt.end.replace(microsecond=0)
    if inner_end - inner_start < ROLLUP_MIN_RANGE:
        return None
    return inner_start, inner_end


def _rollup_pays_off(session: Session, flt: SampleFilter) -> bool:
    return (
        flt.within is None
        and _whole_seconds(flt) is not None
        and has_timescaledb_session(session)
        and _rollup_is_complete(session, flt.capture_ids)
    )


def _from_rollup_and_edges(flt: SampleFilter) -> tuple[str, dict[str, Any]]:
    inner = _whole_seconds(flt)
    assert inner is not None
    where_rollup, params = _where(flt.model_copy(update={"start": None, "end": None}), "bucket")
    where_edges, _ = _where(flt.model_copy(update={"start": None, "end": None}), "ts")
    params.update(start=flt.start, end=flt.end, inner_start=inner[0], inner_end=inner[1])
    sql = f"""
        SELECT comm, stack_id, sum(weight)::bigint, sum(samples)::bigint FROM (
            SELECT comm, stack_id, weight, samples FROM {ROLLUP_VIEW}
            WHERE {where_rollup} AND bucket >= :inner_start AND bucket < :inner_end
            UNION ALL
            SELECT comm, stack_id, weight, 1 FROM samples
            WHERE {where_edges}
              AND ((ts >= :start AND ts < :inner_start) OR (ts >= :inner_end AND ts < :end))
        ) AS parts
        GROUP BY comm, stack_id
    """
    return sql, params


def stacks_by_id(session: Session, stack_ids: Iterable[int]) -> dict[int, list[int]]:
    rows = session.execute(
        text("SELECT id, frame_ids FROM stacks WHERE id = ANY(:ids)"), {"ids": list(stack_ids)}
    )
    return {int(stack_id): list(frame_ids) for stack_id, frame_ids in rows.all()}


def stack_exists(session: Session, stack_id: int) -> bool:
    return session.execute(text("SELECT 1 FROM stacks WHERE id = :id"), {"id": stack_id}).first() is not None


def frames_by_id(session: Session, frame_ids: Iterable[int]) -> dict[int, FrameInfo]:
    rows = session.execute(
        text("SELECT id, name, kind FROM frames WHERE id = ANY(:ids)"), {"ids": list(frame_ids)}
    )
    return {frame_id: FrameInfo(name, kind) for frame_id, name, kind in rows.all()}


def name_representatives(session: Session, frame_ids: list[int]) -> tuple[list[int], list[int]]:
    """Each frame id with the lowest frame id sharing its name: the diff merges frames by name, and
    this way it never fetches the names of frames it does not show."""
    row = session.execute(
        text(
            "SELECT coalesce(array_agg(id), '{}'), coalesce(array_agg(first), '{}') FROM "
            "(SELECT id, min(id) OVER (PARTITION BY name) AS first FROM frames WHERE id = ANY(:ids)) AS f"
        ),
        {"ids": frame_ids},
    ).one()
    return list(row[0]), list(row[1])


def event_counts(session: Session, capture_ids: list[int]) -> list[tuple[str, int]]:
    rows = session.execute(
        text(
            "SELECT e->>'name', sum((e->>'samples')::bigint)::bigint FROM captures, "
            "jsonb_array_elements(events) AS e WHERE id = ANY(:ids) GROUP BY 1 ORDER BY 2 DESC, 1"
        ),
        {"ids": capture_ids},
    )
    return [(name, count) for name, count in rows]


def _facet_source(flt: SampleFilter) -> tuple[str, str, str, dict[str, Any]]:
    """The table a view's facets come from, how it counts samples, and its filter.

    A whole capture counts from its ingest-time totals: grouping a million raw samples by thread
    would slow every first view of a capture down.
    """
    if flt.source == "off-cpu":
        where, params = _where(flt.model_copy(update={"event": None}), "ts")
        return "events", "count(*)", where + " AND kind = 'off-cpu'", params
    where, params = _where(flt, "ts")
    if flt.is_whole_capture:
        return "capture_stack_totals", "sum(samples)::bigint", where, params
    return "samples", "count(*)", where, params


def _facet_rows(session: Session, flt: SampleFilter, columns: str) -> list[Any]:
    """Sample counts grouped by `columns`, busiest first; equal counts in the columns' order, so the
    list (and which ties the limit keeps) never depends on where the rows happen to lie."""
    table, counted, where, params = _facet_source(flt)
    sql = (
        f"SELECT {columns}, {counted} AS n FROM {table} WHERE {where} "
        f"GROUP BY {columns} ORDER BY n DESC, {columns} LIMIT {FACET_LIMIT}"
    )
    return list(session.execute(text(sql), params))


def process_facets(session: Session, flt: SampleFilter) -> list[ProcessFacet]:
    rows = _facet_rows(session, flt, "pid, comm")
    return [ProcessFacet(pid=pid, comm=comm, samples=n) for pid, comm, n in rows]


def thread_facets(session: Session, flt: SampleFilter) -> list[ThreadFacet]:
    rows = _facet_rows(session, flt, "pid, tid, comm")
    return [ThreadFacet(pid=pid, tid=tid, comm=comm, samples=n) for pid, tid, comm, n in rows]
