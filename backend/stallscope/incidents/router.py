"""HTTP routes for incidents."""

from __future__ import annotations

from fastapi import APIRouter, status

from stallscope.auth import audit
from stallscope.auth.guard import READ, Reader, Responder
from stallscope.auth.scope import SEE_INCIDENT
from stallscope.deps import SessionDep
from stallscope.incidents import service
from stallscope.incidents.schemas import IncidentCreate, IncidentOut

router = APIRouter(prefix="/api/incidents", tags=["incidents"])


@router.get("")
def list_incidents(session: SessionDep, principal: Reader) -> list[IncidentOut]:
    """The incidents this principal may see (restricted ones: their members and admins)."""
    return service.list_incidents(session, principal)


@router.post("", status_code=status.HTTP_201_CREATED)
def create_incident(data: IncidentCreate, session: SessionDep, principal: Responder) -> IncidentOut:
    incident = service.create_incident(session, data, created_by=principal.user_id)
    audit.record(
        session, principal, "create", "incident", incident.id, incident.id, {"title": incident.title}
    )
    session.commit()
    return incident


@router.get("/{incident_id}", dependencies=[READ, SEE_INCIDENT])
def get_incident(incident_id: int, session: SessionDep) -> IncidentOut:
    return service.get_incident(session, incident_id)
