"""SQL for snapshots: the `snapshot` documents of an incident's captures, one row per take."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer, and_, case, cast, func, select
from sqlalchemy.orm import Session

from stallscope.ingest.snapshot.model import KIND
from stallscope.models import Capture
from stallscope.models.document import capture_documents

_content = capture_documents.c.content
_index = _content["take"]["index"]
_take = case(
    (
        and_(func.jsonb_typeof(_index) == "number", _index.astext.regexp_match(r"^\d{1,9}$")),
        cast(_index.astext, Integer),
    ),
    else_=0,
)
"""A text snapshot's take within its file; the collector writes one document, take 0. A document
is uploaded content: anything but a small whole number there reads as 0 rather than failing."""


@dataclass(frozen=True, slots=True)
class SnapshotRow:
    """What a picker needs of one snapshot, without the (large) document itself."""

    capture_id: int
    filename: str
    take: int
    label: str | None
    host: str | None
    taken_at_ns: int | None
    source_format: str | None
    """`text` for a text snapshot; the collector's documents name no source."""


def list_for_incident(session: Session, incident_id: int) -> list[SnapshotRow]:
    rows = session.execute(
        select(
            capture_documents.c.capture_id,
            Capture.filename,
            _take,
            _content["take"]["label"].astext,
            _content["host"].astext,
            _content["taken_at_ns"].astext,
            _content["source"]["format"].astext,
        )
        .join(Capture, Capture.id == capture_documents.c.capture_id)
        .where(
            Capture.incident_id == incident_id, Capture.deleted_at.is_(None), capture_documents.c.kind == KIND
        )
        .order_by(capture_documents.c.capture_id, _take)
    )
    return [
        SnapshotRow(capture, filename, take, label, host, _int(taken), source)
        for capture, filename, take, label, host, taken, source in rows
    ]


def get_document(session: Session, capture_id: int, take: int) -> dict[str, Any] | None:
    content = session.execute(
        select(_content).where(
            capture_documents.c.capture_id == capture_id,
            capture_documents.c.kind == KIND,
            _take == take,
        )
    ).scalar()
    return content if isinstance(content, dict) else None


def _int(text: str | None) -> int | None:
    return int(text) if text is not None and text.lstrip("-").isdigit() else None
