"""SQL for findings: each capture's digest read from the tables a parse filled, and the stored results."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np
import psycopg
from psycopg.types.json import Jsonb
from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.analysis.callsites import CallsiteTree
from stallscope.analysis.findings.cpu_table import NO_ID
from stallscope.analysis.findings.digest import BURST_GAP_US, DURATION_KINDS
from stallscope.analysis.findings.stack_table import Int32s, Int64s
from stallscope.db import session_connection
from stallscope.flame import callsite_store
from stallscope.kit.units import epoch_ns


def capture_meta(
    session: Session, capture_id: int
) -> tuple[int, str, str, str, datetime | None, datetime | None] | None:
    """(incident, filename, host, format, start, end) of a capture."""
    row = session.execute(
        text(
            "SELECT c.incident_id, c.filename, coalesce(h.name, ''), coalesce(c.format, ''), c.time_start, "
            "c.time_end FROM captures c LEFT JOIN hosts h ON h.id = c.host_id WHERE c.id = :id"
        ),
        {"id": capture_id},
    ).first()
    return (row[0], row[1], row[2], row[3], row[4], row[5]) if row else None


@dataclass(frozen=True, slots=True)
class Span:
    """A time range [start, end) of a capture: a window of it, or the time before or after one."""

    start: datetime
    end: datetime

    def params(self, capture_id: int) -> dict[str, Any]:
        return {
            "id": capture_id,
            "start": self.start,
            "end": self.end,
            "start_ns": epoch_ns(self.start),
            "end_ns": epoch_ns(self.end),
        }


IN_SPAN = "ts >= :start AND ts < :end"
"""A point record (sample, metric point, call) belongs to the span it starts in."""


def _driver(session: Session) -> psycopg.Connection[tuple[Any, ...]]:
    """The session's own psycopg connection: rows by the ten thousand come over in binary, which
    psycopg reads a third faster than text."""
    return session_connection(session)


@dataclass(frozen=True, slots=True)
class StackTotals:
    """CPU samples by (event, pid, tid, comm, stack), as columns; a pid or tid not recorded is
    `NO_ID`."""

    event: list[str]
    pid: Int64s
    tid: Int64s
    comm: list[str]
    stack_id: Int64s
    weight: Int64s
    samples: Int64s


def stack_totals(session: Session, capture_id: int, span: Span | None = None) -> StackTotals:
    """CPU samples by (event, thread, stack): the totals kept at ingest, or the raw samples of a span.

    As one row of arrays: tens of thousands of rows cost more to turn into Python tuples than to
    aggregate. The totals kept at ingest are read as stored and grouped here (`grouped`): the
    planner sorted them on disk to group them, which took longer than reading them. Either way
    they come in key order, whatever plan grouped them: detectors name the first of equal weights
    they find, which must not depend on the planner's choice."""
    if span is None:
        rows = (
            "SELECT event, pid, tid, comm, stack_id, weight, samples FROM capture_stack_totals "
            "WHERE capture_id = %(id)s"
        )
        params: dict[str, Any] = {"id": capture_id}
    else:
        rows = (
            "SELECT event, pid, tid, comm, stack_id, sum(weight)::bigint AS weight, count(*) AS samples "
            "FROM samples WHERE capture_id = %(id)s AND ts >= %(start)s AND ts < %(end)s "
            "GROUP BY event, pid, tid, comm, stack_id"
        )
        params = span.params(capture_id)
    sql = (
        "SELECT coalesce(array_agg(event), '{}'), "
        "coalesce(array_agg(coalesce(pid::bigint, %(none)s)), '{}'), "
        "coalesce(array_agg(coalesce(tid::bigint, %(none)s)), '{}'), coalesce(array_agg(comm), '{}'), "
        "coalesce(array_agg(stack_id), '{}'), coalesce(array_agg(weight::bigint), '{}'), "
        f"coalesce(array_agg(samples::bigint), '{{}}') FROM ({rows}) AS r"
    )
    row = _driver(session).execute(sql, {**params, "none": NO_ID}, binary=True).fetchone()
    assert row is not None  # an aggregate: always one row
    event, pid, tid, comm, stack_id, weight, samples = row
    return grouped(
        StackTotals(
            list(event),
            _int64s(pid),
            _int64s(tid),
            list(comm),
            _int64s(stack_id),
            _int64s(weight),
            _int64s(samples),
        )
    )


def grouped(totals: StackTotals) -> StackTotals:
    """One row per (event, pid, tid, comm, stack), weights and samples summed, in the order
    `ORDER BY event, pid, tid, comm, stack_id` gives (names by code point, as the C and C.UTF-8
    collations do; missing ids last)."""

    def ranks(names: list[str]) -> Int64s:
        rank = {name: i for i, name in enumerate(sorted(set(names)))}
        return _int64s([rank[name] for name in names])

    def missing_last(ids: Int64s) -> Int64s:
        return np.where(ids == NO_ID, np.iinfo(np.int64).max, ids)

    keys = [
        totals.stack_id,
        ranks(totals.comm),
        missing_last(totals.tid),
        missing_last(totals.pid),
        ranks(totals.event),
    ]
    order = np.lexsort(keys)  # the last key first
    starts = np.zeros(len(order), dtype=bool)
    starts[:1] = True
    for key in keys:
        ordered = key[order]
        starts[1:] |= ordered[1:] != ordered[:-1]
    begin = np.flatnonzero(starts)
    first = order[begin]
    positions = first.tolist()
    none = np.zeros(0, dtype=np.int64)
    return StackTotals(
        [totals.event[i] for i in positions],
        totals.pid[first],
        totals.tid[first],
        [totals.comm[i] for i in positions],
        totals.stack_id[first],
        np.add.reduceat(totals.weight[order], begin) if len(begin) else none,
        np.add.reduceat(totals.samples[order], begin) if len(begin) else none,
    )


def _int64s(values: list[int]) -> Int64s:
    return np.array(values, dtype=np.int64).reshape(len(values))


def array_literal(ids: list[int]) -> str:
    """Integers as one PostgreSQL array literal: psycopg adapts a list of tens of thousands of ints a
    value at a time, a tenth of the time the whole query takes."""
    return "{" + ",".join(map(str, ids)) + "}"


STACK_FRAMES = (
    "SELECT coalesce(array_agg(id ORDER BY id), '{}'), "
    "coalesce(array_agg(cardinality(frame_ids) ORDER BY id), '{}'), "
    "coalesce(string_agg(array_send(frame_ids), ''::bytea ORDER BY id), ''::bytea) "
    "FROM stacks WHERE id = ANY(CAST(%(ids)s AS bigint[]))"
)
ARRAY_HEADER = 20
"""Bytes `array_send` writes before a one-dimensional array's elements (ndim, flags, type, size, base)."""
EMPTY_ARRAY = 12
"""Bytes `array_send` writes for an empty array (no dimension)."""


def stack_frames(session: Session, stack_ids: list[int]) -> tuple[Int64s, Int64s, Int32s]:
    """(the stacks found, ascending; their lengths; all their frame ids, root first, concatenated).

    The frames come as one `bytea` (every stack's `array_send`, concatenated by the server): a deep
    capture's millions of frame ids cost one round trip and a few array operations, where a Python
    list per stack cost over a second.
    """
    found = _driver(session).execute(STACK_FRAMES, {"ids": array_literal(stack_ids)}, binary=True).fetchone()
    assert found is not None  # an aggregate: always one row
    ids, lengths, blob = found
    id_array = np.array(ids, dtype=np.int64)
    length_array = np.array(lengths, dtype=np.int64)
    sizes = np.where(length_array > 0, ARRAY_HEADER + 8 * length_array, EMPTY_ARRAY)
    starts = np.zeros(len(sizes), dtype=np.int64)
    np.cumsum(sizes[:-1], out=starts[1:])
    # Each element is a 4-byte length then a 4-byte value, big-endian: the values are every second word.
    words = np.frombuffer(bytes(blob), dtype=">i4")
    first_value = np.repeat((starts + ARRAY_HEADER) // 4 + 1, length_array)
    run_starts = np.repeat(np.cumsum(length_array) - length_array, length_array)
    within = np.arange(int(length_array.sum()), dtype=np.int64) - run_starts
    return id_array, length_array, words[first_value + 2 * within].astype(np.int32)


def stored_callsite_tree(session: Session, capture_id: int) -> CallsiteTree | None:
    """The call-site tree the capture's last parse stored, if it did (`flame/callsite_store.py`)."""
    parsed_at = session.execute(
        text("SELECT parsed_at FROM captures WHERE id = :id"), {"id": capture_id}
    ).scalar_one_or_none()
    return None if parsed_at is None else callsite_store.load(session, capture_id, parsed_at)


def frame_names(session: Session, frame_ids: list[int]) -> dict[int, tuple[str, str]]:
    """(name, kind) of each frame id."""
    rows = _driver(session).execute(
        "SELECT id, name, kind FROM frames WHERE id = ANY(CAST(%(ids)s AS bigint[]))",
        {"ids": array_literal(frame_ids)},
        binary=True,
    )
    return {int(frame_id): (name, kind) for frame_id, name, kind in rows}


WAKEUP = "(attrs->>'wakeup_delay_ns')::bigint"
BLOCKED_PART = f"CASE WHEN {WAKEUP} BETWEEN 0 AND duration_ns THEN {WAKEUP} ELSE duration_ns END"
"""An interval's part before its recorded wake-up (the attribute is the time from switch-out to the
wake-up); all of it when no wake-up inside it was recorded, as the thread accounting reads it."""


START_NS = "(extract(epoch FROM ts) * 1000000)::bigint * 1000"


def _clipped(length: str) -> str:
    """The part of [ts, ts + length) inside the span, in ns."""
    return f"GREATEST(0, LEAST(:end_ns, {START_NS} + {length}) - GREATEST(:start_ns, {START_NS}))"


OVERLAPS_SPAN = (
    f"ts < :end AND (ts >= :start OR (duration_ns IS NOT NULL AND {START_NS} + duration_ns > :start_ns))"
)
"""An interval belongs to every span it overlaps, with the part inside it (as the threads view clips)."""


def event_groups(session: Session, capture_id: int, span: Span | None = None) -> list[tuple[Any, ...]]:
    """Timed events by (kind, name, thread, state, stack): closed ones counted and summed; within a
    span, intervals overlapping it with their part inside it."""
    duration, blocked, where = "duration_ns", BLOCKED_PART, "TRUE"
    params: dict[str, Any] = {"id": capture_id}
    if span is not None:
        duration = f"CASE WHEN duration_ns IS NULL THEN NULL ELSE {_clipped('duration_ns')} END"
        blocked, where = _clipped(BLOCKED_PART), OVERLAPS_SPAN
        params = span.params(capture_id)
    sql = (
        f"SELECT kind, name, pid, tid, comm, state, stack_id, count(d), coalesce(sum(d), 0)::bigint, "
        f"coalesce(max(d), 0), coalesce(sum(b), 0)::bigint FROM ("
        f"  SELECT kind, name, pid, tid, comm, state, stack_id, {duration} AS d,"
        f"    CASE WHEN duration_ns IS NULL THEN NULL ELSE {blocked} END AS b"
        f"  FROM events WHERE capture_id = :id AND {where}) e "
        "GROUP BY kind, name, pid, tid, comm, state, stack_id"
    )
    rows: list[tuple[Any, ...]] = [tuple(row) for row in session.execute(text(sql), params)]
    rows.sort(key=_group_key)  # in key order, whatever plan grouped them (see `stack_totals`)
    return rows


def _group_key(row: Any) -> tuple[Any, ...]:
    """(kind, name, pid, tid, comm, state, stack) as `ORDER BY` sorts them: missing values last."""
    return tuple((value is None, value) for value in row[:7])


def wake_bursts(session: Session, capture_id: int, span: Span | None = None) -> list[tuple[Any, ...]]:
    """Per waker: wake-ups of other threads, the bursts they form (a gap over BURST_GAP_US starts
    one), the threads woken. Wake-up time = the interval's stored start (whole µs) + its delay."""
    return list(
        session.execute(
            text(
                "SELECT waker_tid, min(waker_comm), count(*), "
                "sum(CASE WHEN gap IS NULL OR gap > :gap THEN 1 ELSE 0 END), count(DISTINCT tid) FROM ("
                "  SELECT waker_tid, coalesce(attrs->>'waker_comm', '?') AS waker_comm,"
                "    coalesce(tid, 0) AS tid,"
                "    wake_us - lag(wake_us) OVER (PARTITION BY waker_tid ORDER BY wake_us) AS gap FROM ("
                "      SELECT waker_tid, attrs, tid, (extract(epoch FROM ts) * 1000000)::bigint"
                "        + (attrs->>'wakeup_delay_ns')::bigint / 1000 AS wake_us FROM events"
                "      WHERE capture_id = :id AND waker_tid IS NOT NULL AND waker_tid <> 0"
                "        AND waker_tid IS DISTINCT FROM tid AND attrs ? 'wakeup_delay_ns'"
                f"       AND {IN_SPAN if span else 'TRUE'}) w) g "
                "GROUP BY waker_tid ORDER BY waker_tid"
            ),
            {**(span.params(capture_id) if span else {"id": capture_id}), "gap": BURST_GAP_US},
        )
    )


def duration_stats(session: Session, capture_id: int, span: Span | None = None) -> list[tuple[Any, ...]]:
    return list(
        session.execute(
            text(
                "SELECT kind, name, count(*), sum(duration_ns)::bigint, "
                "percentile_disc(0.5) WITHIN GROUP (ORDER BY duration_ns), "
                "percentile_disc(0.9) WITHIN GROUP (ORDER BY duration_ns), "
                "percentile_disc(0.99) WITHIN GROUP (ORDER BY duration_ns), max(duration_ns) "
                "FROM events WHERE capture_id = :id AND duration_ns IS NOT NULL AND kind = ANY(:kinds) "
                f"AND {IN_SPAN if span else 'TRUE'} GROUP BY kind, name ORDER BY kind, name"
            ),
            {**(span.params(capture_id) if span else {"id": capture_id}), "kinds": list(DURATION_KINDS)},
        )
    )


def metric_summaries(session: Session, capture_id: int, span: Span | None = None) -> list[tuple[Any, ...]]:
    return list(
        session.execute(
            text(
                "SELECT s.name, s.labels, s.unit, count(*), min(m.value), avg(m.value), "
                "percentile_disc(0.95) WITHIN GROUP (ORDER BY m.value), max(m.value), "
                "(array_agg(m.value ORDER BY m.ts))[1], (array_agg(m.value ORDER BY m.ts DESC))[1], "
                "min(m.ts), max(m.ts) FROM metric_series s JOIN metrics m ON m.series_id = s.id "
                "AND m.capture_id = s.capture_id WHERE s.capture_id = :id AND s.name <> 'thread.state' "
                "AND NOT (s.labels ? 'tid') "
                f"AND {'m.ts >= :start AND m.ts < :end' if span else 'TRUE'} "
                "GROUP BY s.id, s.name, s.labels, s.unit ORDER BY s.id"
            ),
            span.params(capture_id) if span else {"id": capture_id},
        )
    )


def documents(session: Session, capture_id: int) -> list[tuple[str, dict[str, Any]]]:
    rows = session.execute(
        text("SELECT kind, content FROM capture_documents WHERE capture_id = :id"), {"id": capture_id}
    )
    return [(kind, content) for kind, content in rows if isinstance(content, dict)]


def store_digest(session: Session, capture_id: int, version: int, digest: dict[str, Any]) -> None:
    session.execute(
        text(
            "INSERT INTO capture_digests (capture_id, version, digest, built_at) VALUES (:id, :v, :d, now()) "
            "ON CONFLICT (capture_id) DO UPDATE SET version = :v, digest = :d, built_at = now()"
        ),
        {"id": capture_id, "v": version, "d": Jsonb(digest)},
    )


def incident_digests(
    session: Session,
    incident_id: int,
    version: int,
    hosts: list[str] | None = None,
    parsing: int | None = None,
    unread: int | None = None,
) -> list[tuple[int, str, dict[str, Any] | None]]:
    """(capture, host, digest) of the incident's parsed captures that have a digest of this version
    (of these hosts only, when given), and of capture `parsing`, whose parse is ending. The digest
    of capture `unread` is not read (None): the caller has it."""
    rows = session.execute(
        text(
            "SELECT c.id, coalesce(h.name, ''), CASE WHEN c.id = :unread THEN NULL ELSE d.digest END "
            "FROM captures c "
            "JOIN capture_digests d ON d.capture_id = c.id AND d.version = :v "
            "LEFT JOIN hosts h ON h.id = c.host_id "
            "WHERE c.incident_id = :inc AND c.deleted_at IS NULL "
            "AND (c.status IN ('ready', 'partial') OR c.id = :parsing) "
            "AND (CAST(:hosts AS text[]) IS NULL OR coalesce(h.name, '') = ANY(CAST(:hosts AS text[]))) "
            "ORDER BY c.id"
        ),
        {"inc": incident_id, "v": version, "hosts": hosts, "parsing": parsing, "unread": unread},
    )
    return [(int(r[0]), str(r[1]), r[2]) for r in rows]


def parsed_hosts(session: Session, incident_id: int) -> set[str]:
    """Hosts with a parsed capture in the incident (the capture host's name, '' for none)."""
    rows = session.execute(
        text(
            "SELECT DISTINCT coalesce(h.name, '') FROM captures c LEFT JOIN hosts h ON h.id = c.host_id "
            "WHERE c.incident_id = :inc AND c.status IN ('ready', 'partial') AND c.deleted_at IS NULL"
        ),
        {"inc": incident_id},
    )
    return {str(r[0]) for r in rows}


def captures_without_digest(
    session: Session, incident_id: int, version: int, hosts: list[str] | None = None
) -> list[int]:
    """Parsed captures with no digest of this version: parsed before findings (or this version);
    of these hosts only, when given."""
    rows = session.execute(
        text(
            "SELECT c.id FROM captures c "
            "LEFT JOIN capture_digests d ON d.capture_id = c.id AND d.version = :v "
            "LEFT JOIN hosts h ON h.id = c.host_id "
            "WHERE c.incident_id = :inc AND c.status IN ('ready', 'partial') AND c.deleted_at IS NULL "
            "AND d.capture_id IS NULL "
            "AND (CAST(:hosts AS text[]) IS NULL OR coalesce(h.name, '') = ANY(CAST(:hosts AS text[]))) "
            "ORDER BY c.id"
        ),
        {"inc": incident_id, "v": version, "hosts": hosts},
    )
    return [int(r[0]) for r in rows]


def mark_computing(session: Session, incident_id: int) -> None:
    session.execute(
        text(
            "INSERT INTO incident_findings (incident_id, state) VALUES (:inc, 'computing') "
            "ON CONFLICT (incident_id) DO UPDATE SET state = 'computing'"
        ),
        {"inc": incident_id},
    )


def pending_captures(session: Session, incident_id: int) -> int:
    row = session.execute(
        text(
            "SELECT count(*) FROM captures WHERE incident_id = :inc AND status IN ('queued', 'parsing') "
            "AND deleted_at IS NULL"
        ),
        {"inc": incident_id},
    ).first()
    return int(row[0]) if row else 0


def incident_hosts(session: Session, incident_id: int) -> list[str]:
    rows = session.execute(
        text(
            "SELECT DISTINCT h.name FROM captures c JOIN hosts h ON h.id = c.host_id "
            "WHERE c.incident_id = :inc AND c.deleted_at IS NULL ORDER BY h.name"
        ),
        {"inc": incident_id},
    )
    return [str(r[0]) for r in rows]


def load_result(session: Session, incident_id: int) -> dict[str, Any] | None:
    row = session.execute(
        text(
            "SELECT state, computed_at, duration_ms, hosts, baseline_hosts, findings, notes, per_host "
            "FROM incident_findings WHERE incident_id = :inc"
        ),
        {"inc": incident_id},
    ).first()
    if row is None:
        return None
    keys = ("state", "computed_at", "duration_ms", "hosts", "baseline_hosts", "findings", "notes", "per_host")
    return dict(zip(keys, row, strict=True))


def baseline_hosts(session: Session, incident_id: int) -> list[str]:
    row = session.execute(
        text("SELECT baseline_hosts FROM incident_findings WHERE incident_id = :inc"), {"inc": incident_id}
    ).first()
    return list(row[0]) if row and row[0] else []


def set_baseline(session: Session, incident_id: int, hosts: list[str]) -> None:
    session.execute(
        text(
            "INSERT INTO incident_findings (incident_id, state, baseline_hosts) "
            "VALUES (:inc, 'computing', :b) "
            "ON CONFLICT (incident_id) DO UPDATE SET baseline_hosts = :b, state = 'computing'"
        ),
        {"inc": incident_id, "b": Jsonb(hosts)},
    )


def store_result(
    session: Session,
    incident_id: int,
    hosts: list[str],
    findings: list[dict[str, Any]],
    notes: list[str],
    duration_ms: float,
    per_host: dict[str, list[dict[str, Any]]],
) -> None:
    session.execute(
        text(
            "INSERT INTO incident_findings (incident_id, state, computed_at, duration_ms, hosts, findings, "
            "notes, per_host) VALUES (:inc, 'ready', :at, :ms, :hosts, :f, :notes, :per_host) "
            "ON CONFLICT (incident_id) DO UPDATE SET state = 'ready', computed_at = :at, duration_ms = :ms, "
            "hosts = :hosts, findings = :f, notes = :notes, per_host = :per_host"
        ),
        {
            "inc": incident_id,
            "at": datetime.now(UTC),
            "ms": duration_ms,
            "hosts": Jsonb(hosts),
            "f": Jsonb(findings),
            "notes": Jsonb(notes),
            "per_host": Jsonb(per_host),
        },
    )


def verdicts(session: Session, incident_id: int) -> dict[str, dict[str, Any]]:
    rows = session.execute(
        text("SELECT finding_id, verdict, note, at FROM finding_verdicts WHERE incident_id = :inc"),
        {"inc": incident_id},
    )
    return {r[0]: {"verdict": r[1], "note": r[2], "at": r[3]} for r in rows}


def set_verdict(session: Session, incident_id: int, finding_id: str, verdict: str | None, note: str) -> None:
    if verdict is None:
        session.execute(
            text("DELETE FROM finding_verdicts WHERE incident_id = :inc AND finding_id = :f"),
            {"inc": incident_id, "f": finding_id},
        )
        return
    session.execute(
        text(
            "INSERT INTO finding_verdicts (incident_id, finding_id, verdict, note, at) "
            "VALUES (:inc, :f, :v, :n, now()) ON CONFLICT (incident_id, finding_id) "
            "DO UPDATE SET verdict = :v, note = :n, at = now()"
        ),
        {"inc": incident_id, "f": finding_id, "v": verdict, "n": note},
    )


def is_watch_stream(session: Session, incident_id: int) -> bool:
    found = session.execute(
        text("SELECT watch_host IS NOT NULL FROM incidents WHERE id = :id"), {"id": incident_id}
    ).scalar()
    return bool(found)


def incident_exists(session: Session, incident_id: int) -> bool:
    return (
        session.execute(text("SELECT 1 FROM incidents WHERE id = :inc"), {"inc": incident_id}).first()
        is not None
    )


def parsed_captures(
    session: Session, incident_id: int, hosts: list[str] | None
) -> list[tuple[int, str, datetime | None, datetime | None]]:
    """(capture, host, first record, last record) of the incident's parsed captures, of these hosts
    only when given."""
    rows = session.execute(
        text(
            "SELECT c.id, coalesce(h.name, ''), c.time_start, c.time_end FROM captures c "
            "LEFT JOIN hosts h ON h.id = c.host_id WHERE c.incident_id = :inc "
            "AND c.status IN ('ready', 'partial') AND c.deleted_at IS NULL "
            "AND (CAST(:hosts AS text[]) IS NULL OR coalesce(h.name, '') = ANY(CAST(:hosts AS text[]))) "
            "ORDER BY c.id"
        ),
        {"inc": incident_id, "hosts": hosts},
    )
    return [(int(r[0]), str(r[1]), r[2], r[3]) for r in rows]
