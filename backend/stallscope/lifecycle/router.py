"""HTTP routes for the lifecycle: edit an incident, the trash, purging, retention and storage."""

from __future__ import annotations

import time

from fastapi import APIRouter, Request, Response, status
from sqlalchemy.orm import Session

from stallscope.auth.guard import ADMIN, READ, RESPOND
from stallscope.auth.principal import Principal
from stallscope.auth.scope import SEE_CAPTURE, SEE_INCIDENT, principal_of
from stallscope.blobs.configured import blob_store
from stallscope.deps import SessionDep
from stallscope.findings.tasks import COMPUTE_TASK
from stallscope.incidents.schemas import IncidentOut
from stallscope.lifecycle import blobs, service
from stallscope.lifecycle.schemas import (
    IncidentPatch,
    RetentionPolicy,
    StorageOut,
    TrashOut,
)
from stallscope.lifecycle.service import Purged
from stallscope.worker import enqueue

router = APIRouter(tags=["lifecycle"])

NO_CONTENT = status.HTTP_204_NO_CONTENT


def _actor(request: Request) -> tuple[Principal, str | None]:
    return principal_of(request), request.client.host if request.client else None


def _done() -> Response:
    return Response(status_code=NO_CONTENT)


@router.patch("/api/incidents/{incident_id}", dependencies=[RESPOND, SEE_INCIDENT])
def patch_incident(
    incident_id: int, patch: IncidentPatch, session: SessionDep, request: Request
) -> IncidentOut:
    """Title, summary, severity, status (stamping its time the first time), root cause,
    remediation, visibility and members; only the fields sent change."""
    principal, address = _actor(request)
    out = service.patch_incident(session, principal, incident_id, patch, address)
    session.commit()
    return out


@router.delete("/api/incidents/{incident_id}", status_code=NO_CONTENT, dependencies=[RESPOND, SEE_INCIDENT])
def trash_incident(incident_id: int, session: SessionDep, request: Request) -> Response:
    """To the trash: hidden everywhere until restored, purged for good after the trash days."""
    principal, address = _actor(request)
    service.trash_incident(session, principal, incident_id, address)
    session.commit()
    return _done()


@router.post("/api/incidents/{incident_id}/restore", dependencies=[RESPOND, SEE_INCIDENT])
def restore_incident(incident_id: int, session: SessionDep, request: Request) -> IncidentOut:
    principal, address = _actor(request)
    out = service.restore_incident(session, principal, incident_id, address)
    session.commit()
    return out


@router.delete("/api/captures/{capture_id}", status_code=NO_CONTENT, dependencies=[RESPOND, SEE_CAPTURE])
def trash_capture(capture_id: int, session: SessionDep, request: Request) -> Response:
    """To the trash: gone from its incident and every view until restored."""
    principal, address = _actor(request)
    incident_id = service.trash_capture(session, principal, capture_id, address)
    session.commit()
    enqueue(COMPUTE_TASK, incident_id)
    return _done()


@router.post(
    "/api/captures/{capture_id}/restore", status_code=NO_CONTENT, dependencies=[RESPOND, SEE_CAPTURE]
)
def restore_capture(capture_id: int, session: SessionDep, request: Request) -> Response:
    principal, address = _actor(request)
    incident_id = service.restore_capture(session, principal, capture_id, address)
    session.commit()
    enqueue(COMPUTE_TASK, incident_id)
    return _done()


@router.get("/api/trash", dependencies=[ADMIN])
def list_trash(session: SessionDep) -> TrashOut:
    """Incidents and captures in the trash, and when each goes for good."""
    return service.list_trash(session)


@router.delete("/api/trash/incidents/{incident_id}", status_code=NO_CONTENT, dependencies=[ADMIN])
def purge_incident(incident_id: int, session: SessionDep, request: Request) -> Response:
    """For good, now: the incident, its captures, every row they hold and their unshared blobs."""
    principal, address = _actor(request)
    started = time.time()
    purged = service.purge_trashed_incident(session, principal, incident_id, address)
    _commit_then_remove_blobs(session, purged, started)
    return _done()


@router.delete("/api/trash/captures/{capture_id}", status_code=NO_CONTENT, dependencies=[ADMIN])
def purge_capture(capture_id: int, session: SessionDep, request: Request) -> Response:
    principal, address = _actor(request)
    started = time.time()
    purged = service.purge_trashed_capture(session, principal, capture_id, address)
    _commit_then_remove_blobs(session, purged, started)
    return _done()


def _commit_then_remove_blobs(session: Session, purged: Purged, started: float) -> None:
    session.commit()
    blobs.remove_unreferenced(session, blob_store(), purged.shas, started)


@router.get("/api/retention", dependencies=[ADMIN])
def get_retention(session: SessionDep) -> RetentionPolicy:
    return service.get_policy(session)


@router.put("/api/retention", dependencies=[ADMIN])
def put_retention(policy: RetentionPolicy, session: SessionDep, request: Request) -> RetentionPolicy:
    """The periodic retention task applies it within the hour."""
    principal, address = _actor(request)
    out = service.set_policy(session, principal, policy, address)
    session.commit()
    return out


@router.get("/api/incidents/{incident_id}/storage", dependencies=[READ, SEE_INCIDENT])
def incident_storage(incident_id: int, session: SessionDep) -> StorageOut:
    """Raw upload bytes (shared blobs once) and stored rows per table of its captures."""
    return service.storage(session, incident_id)
