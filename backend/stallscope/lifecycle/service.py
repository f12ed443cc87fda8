"""Lifecycle use cases: edit an incident, move incidents and captures to the trash and back, purge
them for good, apply the retention policy, and measure what an incident stores.

The caller owns the transaction; every change is audited here, inside it. A purge returns the blobs
its captures used: the caller removes those no capture refers to any more, after the commit
(`lifecycle/blobs.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from stallscope.auth import audit
from stallscope.auth.principal import Principal
from stallscope.incidents import repository as incidents_repository
from stallscope.incidents import service as incidents_service
from stallscope.incidents.schemas import IncidentOut
from stallscope.kit.errors import Invalid, NotFound
from stallscope.lifecycle import repository
from stallscope.lifecycle.schemas import (
    STAMPED,
    IncidentPatch,
    RetentionPolicy,
    StorageOut,
    TrashedCapture,
    TrashedIncident,
    TrashOut,
)
from stallscope.models import Capture, Incident

PLAIN_FIELDS = ("title", "summary", "severity", "root_cause", "remediation")
SHORT_FIELDS = frozenset({"title", "severity", "status", "visibility"})
"""Fields whose old and new values the audit entry shows; long texts are named, not copied."""


@dataclass
class Purged:
    """What a purge removed: its blobs are the caller's to remove after the commit."""

    incident_ids: list[int] = field(default_factory=list)
    capture_ids: list[int] = field(default_factory=list)
    shas: set[str] = field(default_factory=set)


def patch_incident(
    session: Session, principal: Principal | None, incident_id: int, patch: IncidentPatch, address: str | None
) -> IncidentOut:
    """Apply the fields sent; audit the ones that changed (none changed: no entry)."""
    incident = incidents_service.require_incident(session, incident_id)
    now = datetime.now(UTC)
    changes: dict[str, Any] = {}
    for name in PLAIN_FIELDS:
        value = getattr(patch, name)
        if name == "title" and value is not None:
            value = value.strip()
            if not value:
                raise Invalid("title: a title needs more than spaces")
        if value is not None and value != getattr(incident, name):
            changes[name] = _change(name, getattr(incident, name), value)
            setattr(incident, name, value)
    if patch.status is not None and patch.status != incident.status:
        changes["status"] = _change("status", incident.status, patch.status)
        incident.status = patch.status
        stamp = STAMPED.get(patch.status)
        if stamp is not None and getattr(incident, stamp) is None:
            setattr(incident, stamp, now)
            changes[stamp] = now.isoformat()
    restricting = patch.visibility == "restricted" and incident.visibility != "restricted"
    if patch.visibility is not None and patch.visibility != incident.visibility:
        changes["visibility"] = _change("visibility", incident.visibility, patch.visibility)
        incident.visibility = patch.visibility
    if patch.members is not None or restricting:
        _set_members(session, principal, incident, patch.members, changes)
    if changes:
        incident.updated_at = now
        session.flush()
        audit.record(session, principal, "change", "incident", incident.id, incident.id, changes, address)
    session.refresh(incident)
    return incidents_service.get_incident(session, incident.id)


def _set_members(
    session: Session,
    principal: Principal | None,
    incident: Incident,
    names: list[str] | None,
    changes: dict[str, Any],
) -> None:
    """Replace the members (or keep them, when only the visibility changed); whoever makes an
    incident restricted stays a member, as when creating one."""
    before = incidents_repository.member_names(session, [incident.id]).get(incident.id, [])
    if names is None:
        ids = incidents_service.member_ids(session, before)
    else:
        ids = incidents_service.member_ids(session, names)
    if incident.visibility == "restricted" and principal is not None and principal.user_id is not None:
        ids.append(principal.user_id)
    incidents_repository.set_members(session, incident.id, ids)
    after = incidents_repository.member_names(session, [incident.id]).get(incident.id, [])
    if after != before:
        changes["members"] = {"from": before, "to": after}


def _change(name: str, old: Any, new: Any) -> dict[str, Any]:
    return {"from": old, "to": new} if name in SHORT_FIELDS else {"changed": True}


# The trash.


def trash_incident(
    session: Session, principal: Principal | None, incident_id: int, address: str | None
) -> None:
    incidents_service.require_incident(session, incident_id)  # 404 when already in the trash
    repository.set_incident_deleted(session, incident_id, datetime.now(UTC))
    audit.record(session, principal, "delete", "incident", incident_id, incident_id, {"trash": True}, address)


def restore_incident(
    session: Session, principal: Principal | None, incident_id: int, address: str | None
) -> IncidentOut:
    incident = _trashed_incident(session, incident_id)
    repository.set_incident_deleted(session, incident_id, None)
    audit.record(session, principal, "restore", "incident", incident_id, incident_id, {}, address)
    session.refresh(incident)
    return incidents_service.get_incident(session, incident.id)


def trash_captures(
    session: Session, principal: Principal | None, captures: list[tuple[int, int]], reason: str | None = None
) -> None:
    """Move (capture, incident) pairs to the trash, one audit entry each."""
    if not captures:
        return
    repository.set_captures_deleted(session, [c for c, _ in captures], datetime.now(UTC))
    detail: dict[str, Any] = {"trash": True}
    if reason:
        detail["reason"] = reason
    for capture_id, incident_id in captures:
        audit.record(session, principal, "delete", "capture", capture_id, incident_id, detail)


def trash_capture(session: Session, principal: Principal | None, capture_id: int, address: str | None) -> int:
    """To the trash; returns its incident (whose findings no longer count it)."""
    capture = _live_capture(session, capture_id)
    repository.set_captures_deleted(session, [capture_id], datetime.now(UTC))
    audit.record(
        session, principal, "delete", "capture", capture_id, capture.incident_id, {"trash": True}, address
    )
    return capture.incident_id


def restore_capture(
    session: Session, principal: Principal | None, capture_id: int, address: str | None
) -> int:
    """Out of the trash; returns its incident (whose findings count it again)."""
    capture = repository.capture_any(session, capture_id)
    if capture is None or capture.deleted_at is None:
        raise NotFound(f"capture {capture_id} is not in the trash")
    repository.set_captures_deleted(session, [capture_id], None)
    audit.record(session, principal, "restore", "capture", capture_id, capture.incident_id, {}, address)
    return capture.incident_id


def list_trash(session: Session) -> TrashOut:
    keep = timedelta(days=repository.policy(session)["trash_days"])
    incidents = [
        TrashedIncident(**row, purge_after=row["deleted_at"] + keep)
        for row in repository.trashed_incidents(session)
    ]
    captures = [
        TrashedCapture(**row, purge_after=row["deleted_at"] + keep)
        for row in repository.trashed_captures(session)
    ]
    return TrashOut(trash_days=keep.days, incidents=incidents, captures=captures)


def _trashed_incident(session: Session, incident_id: int) -> Incident:
    incident = repository.incident_any(session, incident_id)
    if incident is None or incident.deleted_at is None:
        raise NotFound(f"incident {incident_id} is not in the trash")
    return incident


def _live_capture(session: Session, capture_id: int) -> Capture:
    capture = repository.capture_any(session, capture_id)
    if capture is None or capture.deleted_at is not None:
        raise NotFound(f"capture {capture_id} does not exist")
    incident = repository.incident_any(session, capture.incident_id)
    if incident is None or incident.deleted_at is not None:
        raise NotFound(f"capture {capture_id} does not exist")
    return capture


# Purging: for good, in the caller's transaction.


def purge_incidents(
    session: Session, principal: Principal | None, incident_ids: list[int], address: str | None = None
) -> Purged:
    """Delete the incidents, their captures and every row those hold, in the caller's transaction."""
    if not incident_ids:
        return Purged()
    owned = repository.captures_of(session, incident_ids)
    capture_ids = [c for c, _ in owned]
    purged = Purged(list(incident_ids), capture_ids, repository.blob_shas(session, capture_ids))
    repository.delete_incidents(session, incident_ids)
    repository.delete_rollup_rows(session, capture_ids)
    for incident_id in incident_ids:
        detail = {"captures": [c for c, owner in owned if owner == incident_id]}
        audit.record(session, principal, "purge", "incident", incident_id, incident_id, detail, address)
    return purged


def purge_captures(
    session: Session, principal: Principal | None, captures: list[tuple[int, int]], address: str | None = None
) -> Purged:
    """Delete (capture, incident) pairs and every row they hold."""
    if not captures:
        return Purged()
    capture_ids = [c for c, _ in captures]
    purged = Purged([], capture_ids, repository.blob_shas(session, capture_ids))
    repository.delete_captures(session, capture_ids)
    repository.delete_rollup_rows(session, capture_ids)
    for capture_id, incident_id in captures:
        audit.record(session, principal, "purge", "capture", capture_id, incident_id, {}, address)
    return purged


def purge_trashed_incident(
    session: Session, principal: Principal, incident_id: int, address: str | None
) -> Purged:
    _trashed_incident(session, incident_id)
    return purge_incidents(session, principal, [incident_id], address)


def purge_trashed_capture(
    session: Session, principal: Principal, capture_id: int, address: str | None
) -> Purged:
    capture = repository.capture_any(session, capture_id)
    if capture is None or capture.deleted_at is None:
        raise NotFound(f"capture {capture_id} is not in the trash")
    return purge_captures(session, principal, [(capture_id, capture.incident_id)], address)


# Retention.


def get_policy(session: Session) -> RetentionPolicy:
    return RetentionPolicy(**repository.policy(session))


def set_policy(
    session: Session, principal: Principal, policy: RetentionPolicy, address: str | None
) -> RetentionPolicy:
    before = repository.policy(session)
    repository.set_policy(session, policy.model_dump())
    audit.record(
        session,
        principal,
        "change",
        "retention",
        None,
        None,
        {"from": before, "to": policy.model_dump()},
        address,
    )
    return policy


def apply_retention(session: Session, now: datetime) -> tuple[list[tuple[int, int]], Purged]:
    """Trash what the policy says has aged out, and purge what has been in the trash too long; as the
    console (audit actor None). Returns the (capture, incident) pairs trashed and what was purged."""
    policy = repository.policy(session)
    trashed: list[tuple[int, int]] = []
    resolved_days = policy["resolved_after_days"]
    if resolved_days is not None:
        old = repository.captures_of_resolved(session, now - timedelta(days=resolved_days))
        trash_captures(session, None, old, f"retention: incident resolved more than {resolved_days} days ago")
        trashed += old
    watch_days = policy["watch_days"]
    if watch_days is not None:
        aged = repository.old_watch_captures(session, now - timedelta(days=watch_days))
        trash_captures(session, None, aged, f"retention: watch capture older than {watch_days} days")
        trashed += aged
    failed_days = policy["failed_after_days"]
    if failed_days is not None:
        failed = repository.failed_captures(session, now - timedelta(days=failed_days))
        trash_captures(session, None, failed, f"retention: failed upload older than {failed_days} days")
        trashed += failed
    expiry = now - timedelta(days=policy["trash_days"])
    purged = purge_incidents(session, None, repository.expired_incidents(session, expiry))
    # Captures of the incidents just purged are gone already; the query sees that.
    more = purge_captures(session, None, repository.expired_captures(session, expiry))
    purged.capture_ids += more.capture_ids
    purged.shas |= more.shas
    return trashed, purged


# Storage.


def storage(session: Session, incident_id: int) -> StorageOut:
    incidents_service.require_incident(session, incident_id)
    total, trashed = repository.capture_totals(session, incident_id)
    raw, shared = repository.raw_bytes(session, incident_id)
    capture_ids = [c for c, _ in repository.captures_of(session, [incident_id])]
    return StorageOut(
        incident_id=incident_id,
        captures=total,
        trashed_captures=trashed,
        raw_bytes=raw,
        shared_raw_bytes=shared,
        rows=repository.row_counts(session, capture_ids),
    )
