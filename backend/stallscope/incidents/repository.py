"""SQL for incidents."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from stallscope.models import Capture, Incident


def capture_counts(session: Session, incident_ids: list[int]) -> dict[int, int]:
    rows = session.execute(
        select(Capture.incident_id, func.count())
        .where(Capture.incident_id.in_(incident_ids))
        .group_by(Capture.incident_id)
    )
    return {int(incident_id): int(count) for incident_id, count in rows}


def list_incidents(session: Session) -> list[Incident]:
    return list(session.scalars(select(Incident).order_by(Incident.started_at.desc())))


def get_incident(session: Session, incident_id: int) -> Incident | None:
    return session.get(Incident, incident_id)


def add_incident(session: Session, incident: Incident) -> Incident:
    session.add(incident)
    session.flush()
    return incident
