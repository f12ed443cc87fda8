"""Snapshot use cases: list an incident's snapshots, diff two of them. The diff is pure analysis
(`analysis.config_diff`); this module only finds the documents."""

from __future__ import annotations

from sqlalchemy.orm import Session

from stallscope.analysis.config_diff import diff_snapshots
from stallscope.captures.service import require_capture
from stallscope.incidents.service import require_incident
from stallscope.kit.errors import NotFound
from stallscope.snapshots import repository
from stallscope.snapshots.repository import SnapshotRow
from stallscope.snapshots.schemas import ConfigDiffOut, SnapshotRef


def list_snapshots(session: Session, incident_id: int) -> list[SnapshotRef]:
    require_incident(session, incident_id)
    return [_ref(row) for row in repository.list_for_incident(session, incident_id)]


def config_diff(session: Session, a: tuple[int, int], b: tuple[int, int]) -> ConfigDiffOut:
    """B's settings against A's; each side is (capture id, take)."""
    documents = []
    refs = []
    for side, (capture_id, take) in (("A", a), ("B", b)):
        capture = require_capture(session, capture_id)
        document = repository.get_document(session, capture_id, take)
        if document is None:
            raise NotFound(f"side {side}: capture {capture_id} holds no snapshot take {take}")
        documents.append(document)
        refs.append(_ref(_row(capture_id, capture.filename, take, document)))
    result = diff_snapshots(documents[0], documents[1])
    return ConfigDiffOut.model_validate({"a": refs[0], "b": refs[1], **result.as_dict()})


def _row(capture_id: int, filename: str, take: int, document: dict[str, object]) -> SnapshotRow:
    meta = document.get("take")
    source = document.get("source")
    host, taken = document.get("host"), document.get("taken_at_ns")
    return SnapshotRow(
        capture_id,
        filename,
        take,
        str(meta.get("label")) if isinstance(meta, dict) and meta.get("label") is not None else None,
        host if isinstance(host, str) else None,
        taken if isinstance(taken, int) else None,
        str(source.get("format")) if isinstance(source, dict) else None,
    )


def _ref(row: SnapshotRow) -> SnapshotRef:
    return SnapshotRef(
        capture_id=row.capture_id,
        filename=row.filename,
        take=row.take,
        label=row.label,
        host=row.host,
        taken_at_ns=row.taken_at_ns,
        source="text" if row.source_format == "text" else "collector",
    )
