"""SQL for the bundle: the captures an export takes, and the names the redactor must know."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.ingest.snapshot.model import KIND as SNAPSHOT_KIND


@dataclass(frozen=True, slots=True)
class TimeRange:
    """Inclusive start, exclusive end; None leaves that side open."""

    start: datetime | None = None
    end: datetime | None = None

    @property
    def whole(self) -> bool:
        return self.start is None and self.end is None


@dataclass(frozen=True, slots=True)
class BundledCapture:
    """A capture as the export needs it: what it is, where its bytes are, how it was recorded."""

    id: int
    host: str
    filename: str
    format: str | None
    kind: str | None
    status: str
    sample_count: int
    record_counts: dict[str, int]
    time_start: datetime | None
    time_end: datetime | None
    clock: dict[str, Any]
    meta: dict[str, Any]
    sha256: str
    compression: str
    size_bytes: int


def incident_captures(session: Session, incident_id: int) -> list[BundledCapture]:
    """The incident's parsed captures outside the trash, oldest upload first."""
    rows = session.execute(
        text(
            "SELECT c.id, coalesce(h.name, '') AS host, c.filename, c.format, c.kind, c.status, "
            "c.sample_count, c.record_counts, c.time_start, c.time_end, c.clock, c.meta, c.sha256, "
            "c.compression, "
            "c.size_bytes FROM captures c LEFT JOIN hosts h ON h.id = c.host_id "
            "WHERE c.incident_id = :incident AND c.deleted_at IS NULL ORDER BY c.id"
        ),
        {"incident": incident_id},
    ).mappings()
    return [
        BundledCapture(
            **{
                **row,
                "record_counts": row["record_counts"] or {},
                "clock": row["clock"] or {},
                "meta": row["meta"] or {},
            }
        )
        for row in rows
    ]


def snapshot_texts(session: Session, capture_ids: list[int]) -> list[str]:
    """The snapshot documents of these captures as JSON text, for the redactor to learn names from."""
    rows = session.execute(
        text("SELECT content::text FROM capture_documents WHERE capture_id = ANY(:ids) AND kind = :kind"),
        {"ids": capture_ids, "kind": SNAPSHOT_KIND},
    ).scalars()
    return list(rows)


def thread_names(session: Session, capture_ids: list[int], limit: int) -> list[str]:
    """Distinct comm names of the captures' samples and events (a comm can carry a host or user)."""
    rows = session.execute(
        text(
            "(SELECT DISTINCT comm FROM capture_stack_totals WHERE capture_id = ANY(:ids) LIMIT :limit) "
            "UNION (SELECT DISTINCT comm FROM events WHERE capture_id = ANY(:ids) LIMIT :limit)"
        ),
        {"ids": capture_ids, "limit": limit},
    ).scalars()
    return list(rows)


def frame_names(
    session: Session, capture_ids: list[int], kernel: bool | None, limit: int | None
) -> list[str]:
    """Distinct frame names the captures' stacks hold: kernel ones, the others, or all (None)."""
    kind_clause = "" if kernel is None else ("AND f.kind = 'kernel'" if kernel else "AND f.kind <> 'kernel'")
    rows = session.execute(
        text(
            "SELECT DISTINCT f.name FROM frames f WHERE f.id IN (SELECT unnest(s.frame_ids) FROM stacks s "
            "WHERE s.id IN (SELECT DISTINCT stack_id FROM capture_stack_totals WHERE capture_id = ANY(:ids) "
            "UNION SELECT DISTINCT stack_id FROM events "
            "WHERE capture_id = ANY(:ids) AND stack_id IS NOT NULL)) "
            f"{kind_clause} " + ("LIMIT :limit" if limit is not None else "")
        ),
        {"ids": capture_ids, "limit": limit},
    ).scalars()
    return list(rows)


def event_texts(session: Session, capture_ids: list[int], limit: int) -> list[str]:
    """A sample of events' free text (names, arguments, results), where paths and addresses show up."""
    rows = session.execute(
        text(
            "SELECT concat_ws(' ', name, args, result) FROM events WHERE capture_id = ANY(:ids) "
            "AND (args IS NOT NULL OR result IS NOT NULL) LIMIT :limit"
        ),
        {"ids": capture_ids, "limit": limit},
    ).scalars()
    return list(rows)


def metric_labels(session: Session, capture_ids: list[int], limit: int) -> list[str]:
    rows = session.execute(
        text(
            "SELECT concat(name, ' ', labels::text) FROM metric_series "
            "WHERE capture_id = ANY(:ids) LIMIT :limit"
        ),
        {"ids": capture_ids, "limit": limit},
    ).scalars()
    return list(rows)
