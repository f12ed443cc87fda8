"""HTTP routes for annotations: notes pinned to a time in an incident, drawn on the timeline."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query, Request, Response, status

from stallscope.annotations import service
from stallscope.annotations.schemas import AnnotationCreate, AnnotationOut, AnnotationUpdate
from stallscope.auth import audit
from stallscope.auth.guard import READ, RESPOND
from stallscope.auth.scope import SEE_ANNOTATION, SEE_INCIDENT
from stallscope.deps import SessionDep

router = APIRouter(tags=["annotations"])


@router.get("/api/incidents/{incident_id}/annotations", dependencies=[READ, SEE_INCIDENT])
def list_annotations(
    incident_id: int,
    session: SessionDep,
    start: Annotated[datetime | None, Query(description="Inclusive, ISO 8601")] = None,
    end: Annotated[datetime | None, Query(description="Exclusive, ISO 8601")] = None,
) -> list[AnnotationOut]:
    """The incident's annotations in time order, optionally only those in [start, end)."""
    return service.list_annotations(session, incident_id, start, end)


@router.post(
    "/api/incidents/{incident_id}/annotations",
    status_code=status.HTTP_201_CREATED,
    dependencies=[RESPOND, SEE_INCIDENT],
)
def create_annotation(
    incident_id: int, data: AnnotationCreate, session: SessionDep, request: Request
) -> AnnotationOut:
    annotation = service.create(session, incident_id, data)
    audit.record_request(request, session, "create", "annotation", annotation.id, incident_id)
    session.commit()
    return annotation


@router.patch("/api/annotations/{annotation_id}", dependencies=[RESPOND, SEE_ANNOTATION])
def update_annotation(
    annotation_id: int, data: AnnotationUpdate, session: SessionDep, request: Request
) -> AnnotationOut:
    annotation = service.update(session, annotation_id, data)
    audit.record_request(request, session, "change", "annotation", annotation_id, annotation.incident_id)
    session.commit()
    return annotation


@router.delete(
    "/api/annotations/{annotation_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    dependencies=[RESPOND, SEE_ANNOTATION],
)
def delete_annotation(annotation_id: int, session: SessionDep, request: Request) -> Response:
    incident_id = service.delete(session, annotation_id)
    audit.record_request(request, session, "delete", "annotation", annotation_id, incident_id)
    session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)
