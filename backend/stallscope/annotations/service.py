"""Annotation use cases; the routes commit, services never do."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from stallscope.annotations import repository
from stallscope.annotations.schemas import AnnotationCreate, AnnotationOut, AnnotationUpdate
from stallscope.incidents.service import require_incident
from stallscope.kit.errors import NotFound
from stallscope.models import Annotation


def list_annotations(
    session: Session, incident_id: int, start: datetime | None, end: datetime | None
) -> list[AnnotationOut]:
    require_incident(session, incident_id)
    rows = repository.list_for_incident(session, incident_id, start, end)
    return [AnnotationOut.model_validate(a) for a in rows]


def create(session: Session, incident_id: int, data: AnnotationCreate) -> AnnotationOut:
    require_incident(session, incident_id)
    host = data.host.strip() if data.host else None
    annotation = repository.add(
        session, Annotation(incident_id=incident_id, ts=data.ts, text=data.text, host=host or None)
    )
    return AnnotationOut.model_validate(annotation)


def _require(session: Session, annotation_id: int) -> Annotation:
    annotation = repository.get(session, annotation_id)
    if annotation is None:
        raise NotFound(f"annotation {annotation_id} does not exist")
    return annotation


def update(session: Session, annotation_id: int, data: AnnotationUpdate) -> AnnotationOut:
    annotation = _require(session, annotation_id)
    annotation.text = data.text
    session.flush()
    return AnnotationOut.model_validate(annotation)


def delete(session: Session, annotation_id: int) -> int:
    """Delete it; returns its incident (for the audit log)."""
    annotation = _require(session, annotation_id)
    incident_id = annotation.incident_id
    repository.delete(session, annotation)
    return incident_id
