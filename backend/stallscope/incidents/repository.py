"""SQL for incidents."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from stallscope.models import Capture, Incident


def capture_counts(session: Session, incident_ids: list[int]) -> dict[int, int]:
    rows = session.execute(
        select(Capture.incident_id, func.count())
        .where(Capture.incident_id.in_(incident_ids), Capture.deleted_at.is_(None))
        .group_by(Capture.incident_id)
    )
    return {int(incident_id): int(count) for incident_id, count in rows}


def list_incidents(session: Session, visible: str, params: dict[str, Any]) -> list[Incident]:
    """Newest first, of those the SQL condition `visible` (over alias `i`) keeps; not the trash, nor
    the hosts' watch streams (listed by the watch page)."""
    statement = text(
        "SELECT i.* FROM incidents i WHERE i.deleted_at IS NULL AND i.watch_host IS NULL "
        f"AND {visible} ORDER BY i.started_at DESC"
    ).bindparams(**params)
    return list(session.scalars(select(Incident).from_statement(statement)))


def get_incident(session: Session, incident_id: int) -> Incident | None:
    """None for an incident in the trash, as for one that does not exist."""
    incident = session.get(Incident, incident_id)
    return None if incident is None or incident.deleted_at is not None else incident


def add_incident(session: Session, incident: Incident) -> Incident:
    session.add(incident)
    session.flush()
    return incident


def set_members(session: Session, incident_id: int, user_ids: list[int]) -> None:
    session.execute(text("DELETE FROM incident_members WHERE incident_id = :inc"), {"inc": incident_id})
    for user_id in sorted(set(user_ids)):
        session.execute(
            text("INSERT INTO incident_members (incident_id, user_id) VALUES (:inc, :user)"),
            {"inc": incident_id, "user": user_id},
        )


def member_names(session: Session, incident_ids: list[int]) -> dict[int, list[str]]:
    rows = session.execute(
        text(
            "SELECT m.incident_id, u.name FROM incident_members m JOIN users u ON u.id = m.user_id "
            "WHERE m.incident_id = ANY(:ids) ORDER BY lower(u.name)"
        ),
        {"ids": incident_ids},
    )
    names: dict[int, list[str]] = {}
    for incident_id, name in rows:
        names.setdefault(int(incident_id), []).append(str(name))
    return names
