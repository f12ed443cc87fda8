"""SQL for annotations."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from stallscope.models import Annotation


def list_for_incident(
    session: Session, incident_id: int, start: datetime | None, end: datetime | None
) -> list[Annotation]:
    query = select(Annotation).where(Annotation.incident_id == incident_id)
    if start is not None:
        query = query.where(Annotation.ts >= start)
    if end is not None:
        query = query.where(Annotation.ts < end)
    return list(session.scalars(query.order_by(Annotation.ts, Annotation.id)))


def get(session: Session, annotation_id: int) -> Annotation | None:
    return session.get(Annotation, annotation_id)


def add(session: Session, annotation: Annotation) -> Annotation:
    session.add(annotation)
    session.flush()
    session.refresh(annotation)
    return annotation


def delete(session: Session, annotation: Annotation) -> None:
    session.delete(annotation)
    session.flush()
