"""SQL for captures and hosts."""

from __future__ import annotations

from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from stallscope.models import Capture, Host, Incident, capture_documents

LIVE = Capture.deleted_at.is_(None) & ~exists().where(
    Incident.id == Capture.incident_id, Incident.deleted_at.is_not(None)
)
"""Neither the capture nor its incident is in the trash."""


def host_id_for(session: Session, name: str) -> int:
    session.execute(insert(Host).values(name=name).on_conflict_do_nothing(index_elements=["name"]))
    return session.scalars(select(Host.id).where(Host.name == name)).one()


def host_names(session: Session, host_ids: set[int]) -> dict[int, str]:
    if not host_ids:
        return {}
    rows = session.execute(select(Host.id, Host.name).where(Host.id.in_(host_ids)))
    return dict(rows.all())


def list_for_incident(session: Session, incident_id: int) -> list[Capture]:
    return list(
        session.scalars(select(Capture).where(Capture.incident_id == incident_id, LIVE).order_by(Capture.id))
    )


def get_capture(session: Session, capture_id: int) -> Capture | None:
    return session.scalars(select(Capture).where(Capture.id == capture_id, LIVE)).first()


def get_captures(session: Session, capture_ids: list[int]) -> list[Capture]:
    return list(
        session.scalars(select(Capture).where(Capture.id.in_(capture_ids), LIVE).order_by(Capture.id))
    )


def documents(session: Session, capture_id: int) -> list[tuple[str, dict[str, Any]]]:
    rows = session.execute(
        select(capture_documents.c.kind, capture_documents.c.content).where(
            capture_documents.c.capture_id == capture_id
        )
    )
    return [(kind, content) for kind, content in rows]


def with_upload_key(session: Session, incident_id: int, upload_key: str) -> Capture | None:
    """The capture an earlier try of this upload made, in the trash or not."""
    found = select(Capture).where(Capture.incident_id == incident_id, Capture.upload_key == upload_key)
    return session.scalars(found).first()


def add_capture(session: Session, capture: Capture) -> Capture:
    session.add(capture)
    session.flush()
    return capture
