"""HTTP routes for incidents."""

from __future__ import annotations

from fastapi import APIRouter, status

from stallscope.auth.guard import READ, RESPOND
from stallscope.deps import SessionDep
from stallscope.incidents import service
from stallscope.incidents.schemas import IncidentCreate, IncidentOut

router = APIRouter(prefix="/api/incidents", tags=["incidents"])


@router.get("", dependencies=[READ])
def list_incidents(session: SessionDep) -> list[IncidentOut]:
    return service.list_incidents(session)


@router.post("", status_code=status.HTTP_201_CREATED, dependencies=[RESPOND])
def create_incident(data: IncidentCreate, session: SessionDep) -> IncidentOut:
    incident = service.create_incident(session, data)
    session.commit()
    return incident


@router.get("/{incident_id}", dependencies=[READ])
def get_incident(incident_id: int, session: SessionDep) -> IncidentOut:
    return service.get_incident(session, incident_id)
