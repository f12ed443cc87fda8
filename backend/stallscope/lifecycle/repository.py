"""SQL for the lifecycle: trash flags, purges, the retention policy and storage figures."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.models import Capture, Incident
from stallscope.timeseries import ROLLUP_VIEW, has_timescaledb_session


def incident_any(session: Session, incident_id: int) -> Incident | None:
    """The incident, in the trash or not (the incidents feature hides trashed ones)."""
    return session.get(Incident, incident_id)


def capture_any(session: Session, capture_id: int) -> Capture | None:
    return session.get(Capture, capture_id)


def set_incident_deleted(session: Session, incident_id: int, at: datetime | None) -> None:
    session.execute(
        text("UPDATE incidents SET deleted_at = :at WHERE id = :id"), {"at": at, "id": incident_id}
    )


def set_captures_deleted(session: Session, capture_ids: list[int], at: datetime | None) -> None:
    session.execute(
        text("UPDATE captures SET deleted_at = :at WHERE id = ANY(:ids)"), {"at": at, "ids": capture_ids}
    )


def trashed_incidents(session: Session) -> list[dict[str, Any]]:
    rows = session.execute(
        text(
            "SELECT i.id, i.title, i.deleted_at, "
            "(SELECT count(*) FROM captures c WHERE c.incident_id = i.id) "
            "FROM incidents i WHERE i.deleted_at IS NOT NULL ORDER BY i.deleted_at, i.id"
        )
    )
    return [{"id": r[0], "title": r[1], "deleted_at": r[2], "capture_count": int(r[3])} for r in rows]


def trashed_captures(session: Session) -> list[dict[str, Any]]:
    rows = session.execute(
        text(
            "SELECT c.id, c.incident_id, i.title, c.filename, c.size_bytes, c.deleted_at "
            "FROM captures c JOIN incidents i ON i.id = c.incident_id "
            "WHERE c.deleted_at IS NOT NULL ORDER BY c.deleted_at, c.id"
        )
    )
    keys = ("id", "incident_id", "incident_title", "filename", "size_bytes", "deleted_at")
    return [dict(zip(keys, r, strict=True)) for r in rows]


def captures_of(session: Session, incident_ids: list[int]) -> list[tuple[int, int]]:
    """(capture, incident) of every capture of these incidents, in the trash or not."""
    rows = session.execute(
        text("SELECT id, incident_id FROM captures WHERE incident_id = ANY(:ids) ORDER BY id"),
        {"ids": incident_ids},
    )
    return [(int(r[0]), int(r[1])) for r in rows]


def blob_shas(session: Session, capture_ids: list[int]) -> set[str]:
    rows = session.execute(
        text("SELECT DISTINCT sha256 FROM captures WHERE id = ANY(:ids)"), {"ids": capture_ids}
    )
    return {str(r[0]) for r in rows}


def referenced_shas(session: Session, shas: set[str]) -> set[str]:
    """Of these blobs, those some capture (in the trash or not) still refers to."""
    rows = session.execute(
        text("SELECT DISTINCT sha256 FROM captures WHERE sha256 = ANY(:shas)"), {"shas": sorted(shas)}
    )
    return {str(r[0]) for r in rows}


CAPTURE_ROW_TABLES = ("samples", "events", "metrics", "sample_slices", "capture_stack_totals")
"""The tables no foreign key ties to their capture (see `captures/parsing.py` `_hold_capture`; a
parse writes tens of thousands of slices and stack totals, and a check per row would cost it as much
as counting them): their rows are deleted here, after the capture rows, in the same transaction."""


def delete_rollup_rows(session: Session, capture_ids: list[int]) -> None:
    """The per-second sample rollup's rows (TimescaleDB only), which no foreign key reaches either."""
    if has_timescaledb_session(session) and capture_ids:
        session.execute(text(f"DELETE FROM {ROLLUP_VIEW} WHERE capture_id = ANY(:ids)"), {"ids": capture_ids})


def delete_incidents(session: Session, incident_ids: list[int]) -> None:
    """Their captures first (with every row they hold), then the incidents; the other tables that
    belong to an incident cascade from it."""
    rows = session.execute(
        text("DELETE FROM captures WHERE incident_id = ANY(:ids) RETURNING id"), {"ids": incident_ids}
    )
    _delete_capture_rows(session, [int(r[0]) for r in rows])
    session.execute(text("DELETE FROM incidents WHERE id = ANY(:ids)"), {"ids": incident_ids})


def delete_captures(session: Session, capture_ids: list[int]) -> None:
    """The capture rows first: deleting one waits for a parse holding it, so the deletes that follow
    see every row that parse committed. Foreign keys cascade to the capture's other tables."""
    session.execute(text("DELETE FROM captures WHERE id = ANY(:ids)"), {"ids": capture_ids})
    _delete_capture_rows(session, capture_ids)


def _delete_capture_rows(session: Session, capture_ids: list[int]) -> None:
    for table in CAPTURE_ROW_TABLES:
        session.execute(text(f"DELETE FROM {table} WHERE capture_id = ANY(:ids)"), {"ids": capture_ids})


def policy(session: Session) -> dict[str, Any]:
    row = session.execute(
        text(
            "SELECT resolved_after_days, failed_after_days, watch_days, trash_days FROM retention_policy "
            "WHERE id = 1"
        )
    ).first()
    if row is None:  # the migration inserts it; a database restored without it gets the defaults
        return {"resolved_after_days": None, "failed_after_days": 30, "watch_days": 7, "trash_days": 7}
    return {
        "resolved_after_days": row[0],
        "failed_after_days": row[1],
        "watch_days": row[2],
        "trash_days": int(row[3]),
    }


def set_policy(session: Session, values: dict[str, Any]) -> None:
    session.execute(
        text(
            "INSERT INTO retention_policy "
            "(id, resolved_after_days, failed_after_days, watch_days, trash_days) "
            "VALUES (1, :resolved_after_days, :failed_after_days, :watch_days, :trash_days) "
            "ON CONFLICT (id) DO UPDATE SET resolved_after_days = excluded.resolved_after_days, "
            "failed_after_days = excluded.failed_after_days, watch_days = excluded.watch_days, "
            "trash_days = excluded.trash_days, updated_at = now()"
        ),
        values,
    )


def captures_of_resolved(session: Session, before: datetime) -> list[tuple[int, int]]:
    """(capture, incident) of captures not in the trash, of incidents resolved before `before`."""
    rows = session.execute(
        text(
            "SELECT c.id, c.incident_id FROM captures c JOIN incidents i ON i.id = c.incident_id "
            "WHERE c.deleted_at IS NULL AND i.deleted_at IS NULL AND i.status = 'resolved' "
            "AND i.resolved_at < :before ORDER BY c.id"
        ),
        {"before": before},
    )
    return [(int(r[0]), int(r[1])) for r in rows]


def old_watch_captures(session: Session, before: datetime) -> list[tuple[int, int]]:
    """(capture, stream) of watch-stream captures uploaded before `before`, not in the trash. An
    incident opened from an alert holds copies of its own, kept by the incidents' rules."""
    rows = session.execute(
        text(
            "SELECT c.id, c.incident_id FROM captures c JOIN incidents i ON i.id = c.incident_id "
            "WHERE c.deleted_at IS NULL AND i.watch_host IS NOT NULL AND c.created_at < :before ORDER BY c.id"
        ),
        {"before": before},
    )
    return [(int(r[0]), int(r[1])) for r in rows]


def failed_captures(session: Session, before: datetime) -> list[tuple[int, int]]:
    """(capture, incident) of failed uploads made before `before`, not in the trash."""
    rows = session.execute(
        text(
            "SELECT id, incident_id FROM captures WHERE status = 'failed' AND deleted_at IS NULL "
            "AND created_at < :before ORDER BY id"
        ),
        {"before": before},
    )
    return [(int(r[0]), int(r[1])) for r in rows]


def expired_incidents(session: Session, before: datetime) -> list[int]:
    rows = session.execute(
        text("SELECT id FROM incidents WHERE deleted_at < :before ORDER BY id"), {"before": before}
    )
    return [int(r[0]) for r in rows]


def expired_captures(session: Session, before: datetime) -> list[tuple[int, int]]:
    rows = session.execute(
        text("SELECT id, incident_id FROM captures WHERE deleted_at < :before ORDER BY id"),
        {"before": before},
    )
    return [(int(r[0]), int(r[1])) for r in rows]


def capture_tables(session: Session) -> list[str]:
    """Every table of the console's schema with a `capture_id` column (TimescaleDB's chunks live in
    its own schemas and are counted through their hypertable)."""
    rows = session.execute(
        text(
            "SELECT c.table_name FROM information_schema.columns c JOIN information_schema.tables t "
            "ON t.table_schema = c.table_schema AND t.table_name = c.table_name "
            "WHERE c.table_schema = current_schema() AND c.column_name = 'capture_id' "
            "AND t.table_type = 'BASE TABLE' ORDER BY c.table_name"
        )
    )
    return [str(r[0]) for r in rows]


def row_counts(session: Session, capture_ids: list[int]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for table in capture_tables(session):
        counts[table] = int(
            session.execute(
                text(f'SELECT count(*) FROM "{table}" WHERE capture_id = ANY(:ids)'), {"ids": capture_ids}
            ).scalar_one()
        )
    return counts


def raw_bytes(session: Session, incident_id: int) -> tuple[int, int]:
    """(bytes of the incident's distinct blobs, of those the bytes other incidents also hold)."""
    row = session.execute(
        text(
            "WITH mine AS (SELECT sha256, max(size_bytes) AS size FROM captures WHERE incident_id = :id "
            "GROUP BY sha256) SELECT coalesce(sum(size), 0), coalesce(sum(size) FILTER (WHERE EXISTS ("
            "SELECT 1 FROM captures o WHERE o.sha256 = mine.sha256 AND o.incident_id <> :id)), 0) FROM mine"
        ),
        {"id": incident_id},
    ).one()
    return int(row[0]), int(row[1])


def capture_totals(session: Session, incident_id: int) -> tuple[int, int]:
    """(captures, of which in the trash)."""
    row = session.execute(
        text(
            "SELECT count(*), count(*) FILTER (WHERE deleted_at IS NOT NULL) FROM captures "
            "WHERE incident_id = :id"
        ),
        {"id": incident_id},
    ).one()
    return int(row[0]), int(row[1])
