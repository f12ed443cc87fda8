"""Incident use cases; the caller owns the transaction."""

from __future__ import annotations

from sqlalchemy.orm import Session

from stallscope.incidents import repository
from stallscope.incidents.schemas import IncidentCreate, IncidentOut
from stallscope.kit.errors import NotFound
from stallscope.models import Incident


def _out(incident: Incident, capture_count: int) -> IncidentOut:
    return IncidentOut(
        id=incident.id,
        title=incident.title,
        severity=incident.severity,
        started_at=incident.started_at,
        summary=incident.summary,
        created_at=incident.created_at,
        capture_count=capture_count,
    )


def list_incidents(session: Session) -> list[IncidentOut]:
    incidents = repository.list_incidents(session)
    counts = repository.capture_counts(session, [i.id for i in incidents])
    return [_out(i, counts.get(i.id, 0)) for i in incidents]


def get_incident(session: Session, incident_id: int) -> IncidentOut:
    incident = require_incident(session, incident_id)
    return _out(incident, repository.capture_counts(session, [incident_id]).get(incident_id, 0))


def require_incident(session: Session, incident_id: int) -> Incident:
    incident = repository.get_incident(session, incident_id)
    if incident is None:
        raise NotFound(f"incident {incident_id} does not exist")
    return incident


def create_incident(session: Session, data: IncidentCreate) -> IncidentOut:
    incident = repository.add_incident(
        session,
        Incident(
            title=data.title.strip(),
            severity=data.severity,
            started_at=data.started_at,
            summary=data.summary,
        ),
    )
    session.refresh(incident)
    return _out(incident, 0)
