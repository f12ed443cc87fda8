"""SQL the postmortem needs that no other feature reads: status changes and verdicts from the audit
log, and the incident's parsed captures with their hosts and spans."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import text
from sqlalchemy.orm import Session


@dataclass(frozen=True, slots=True)
class CaptureRow:
    id: int
    filename: str
    host: str
    start: datetime | None
    end: datetime | None
    samples: int


def captures(session: Session, incident_id: int) -> list[CaptureRow]:
    """The incident's captures (not in the trash), oldest first."""
    rows = session.execute(
        text(
            "SELECT c.id, c.filename, coalesce(h.name, ''), c.time_start, c.time_end, c.sample_count "
            "FROM captures c LEFT JOIN hosts h ON h.id = c.host_id "
            "WHERE c.incident_id = :inc AND c.deleted_at IS NULL ORDER BY c.time_start NULLS LAST, c.id"
        ),
        {"inc": incident_id},
    )
    return [CaptureRow(int(r[0]), str(r[1]), str(r[2]), r[3], r[4], int(r[5] or 0)) for r in rows]


def parsed_capture_ids(session: Session, incident_id: int, hosts: list[str]) -> list[int]:
    """The incident's parsed captures of these hosts: what a finding's view on them reads."""
    rows = session.execute(
        text(
            "SELECT c.id FROM captures c LEFT JOIN hosts h ON h.id = c.host_id "
            "WHERE c.incident_id = :inc AND c.deleted_at IS NULL AND c.status IN ('ready', 'partial') "
            "AND coalesce(h.name, '') = ANY(:hosts) ORDER BY c.id"
        ),
        {"inc": incident_id, "hosts": hosts},
    )
    return [int(r[0]) for r in rows]


@dataclass(frozen=True, slots=True)
class StatusChange:
    at: datetime
    previous: str
    status: str
    who: str


def status_changes(session: Session, incident_id: int) -> list[StatusChange]:
    """Every status change the audit log recorded for the incident, oldest first."""
    rows = session.execute(
        text(
            "SELECT at, detail->'status'->>'from', detail->'status'->>'to', actor_name FROM audit_log "
            "WHERE incident_id = :inc AND object_type = 'incident' AND action = 'change' "
            "AND detail ? 'status' ORDER BY at, id"
        ),
        {"inc": incident_id},
    )
    return [StatusChange(r[0], str(r[1]), str(r[2]), str(r[3])) for r in rows]


def verdict_authors(session: Session, incident_id: int) -> dict[str, str]:
    """Who last judged each finding (by finding id), from the audit log."""
    rows = session.execute(
        text(
            "SELECT DISTINCT ON (object_id) object_id, actor_name FROM audit_log "
            "WHERE incident_id = :inc AND object_type = 'finding-verdict' "
            "ORDER BY object_id, at DESC, id DESC"
        ),
        {"inc": incident_id},
    )
    return {str(r[0]): str(r[1]) for r in rows}
