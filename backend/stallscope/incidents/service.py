"""Incident use cases; the caller owns the transaction."""

from __future__ import annotations

from sqlalchemy.orm import Session

from stallscope.auth.access import incident_clause
from stallscope.auth.principal import Principal
from stallscope.auth.repository import user_by_name
from stallscope.incidents import repository
from stallscope.incidents.schemas import IncidentCreate, IncidentOut
from stallscope.kit.errors import Invalid, NotFound
from stallscope.models import Incident


def _out(incident: Incident, capture_count: int, members: list[str]) -> IncidentOut:
    return IncidentOut(
        id=incident.id,
        title=incident.title,
        severity=incident.severity,
        started_at=incident.started_at,
        summary=incident.summary,
        created_at=incident.created_at,
        capture_count=capture_count,
        visibility=incident.visibility,
        members=members,
        status=incident.status,
        identified_at=incident.identified_at,
        mitigated_at=incident.mitigated_at,
        resolved_at=incident.resolved_at,
        root_cause=incident.root_cause,
        remediation=incident.remediation,
        updated_at=incident.updated_at,
        watch_host=incident.watch_host,
    )


def list_incidents(session: Session, principal: Principal) -> list[IncidentOut]:
    """The incidents the principal may see, newest first."""
    incidents = repository.list_incidents(session, *incident_clause(principal))
    ids = [i.id for i in incidents]
    counts = repository.capture_counts(session, ids)
    members = repository.member_names(session, ids)
    return [_out(i, counts.get(i.id, 0), members.get(i.id, [])) for i in incidents]


def get_incident(session: Session, incident_id: int) -> IncidentOut:
    incident = require_incident(session, incident_id)
    count = repository.capture_counts(session, [incident_id]).get(incident_id, 0)
    return _out(incident, count, repository.member_names(session, [incident_id]).get(incident_id, []))


def require_incident(session: Session, incident_id: int) -> Incident:
    incident = repository.get_incident(session, incident_id)
    if incident is None:
        raise NotFound(f"incident {incident_id} does not exist")
    return incident


def create_incident(session: Session, data: IncidentCreate, created_by: int | None = None) -> IncidentOut:
    incident = repository.add_incident(
        session,
        Incident(
            title=data.title.strip(),
            severity=data.severity,
            started_at=data.started_at,
            summary=data.summary,
            visibility=data.visibility,
            created_by=created_by,
        ),
    )
    members = member_ids(session, data.members)
    if data.visibility == "restricted" and created_by is not None:
        members.append(created_by)  # whoever restricts an incident keeps seeing it
    repository.set_members(session, incident.id, members)
    session.refresh(incident)
    return get_incident(session, incident.id)


def member_ids(session: Session, names: list[str]) -> list[int]:
    ids = []
    for name in names:
        user = user_by_name(session, name.strip())
        if user is None:
            raise Invalid(f"no user named {name!r} to make a member")
        ids.append(user.id)
    return ids
