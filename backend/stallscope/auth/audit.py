"""The audit log: who created, changed, deleted, shared, exported or viewed-as-guest what, and when.

Append-only (the table refuses UPDATE and DELETE). An entry is written in the same transaction as
the change it tells about, so a change that rolls back leaves no entry and no entry is lost for a
change that commits.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import Request
from psycopg.types.json import Jsonb
from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.auth.principal import Principal


def record(
    session: Session,
    actor: Principal | None,
    action: str,
    object_type: str,
    object_id: int | str | None = None,
    incident_id: int | None = None,
    detail: dict[str, Any] | None = None,
    address: str | None = None,
) -> None:
    """`actor` None: the console itself (the retention task, the first start)."""
    session.execute(
        text(
            "INSERT INTO audit_log (actor_kind, actor_id, actor_name, action, object_type, object_id, "
            "incident_id, detail, address) VALUES (:kind, :actor_id, :actor_name, :action, :type, :oid, "
            ":incident, :detail, :address)"
        ),
        {
            "kind": actor.role.value if actor else "system",
            "actor_id": (actor.user_id if actor.user_id is not None else actor.credential_id)
            if actor
            else None,
            "actor_name": actor.name if actor else "console",
            "action": action,
            "type": object_type,
            "oid": None if object_id is None else str(object_id),
            "incident": incident_id,
            "detail": Jsonb(detail or {}),
            "address": address,
        },
    )


def entries(
    session: Session,
    *,
    actor: str | None = None,
    action: str | None = None,
    incident_id: int | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    before_id: int | None = None,
    limit: int = 200,
) -> list[dict[str, Any]]:
    """Newest first; `before_id` pages back."""
    rows = session.execute(
        text(
            "SELECT id, at, actor_kind, actor_id, actor_name, action, object_type, object_id, incident_id, "
            "detail, address FROM audit_log WHERE "
            "(CAST(:actor AS text) IS NULL OR lower(actor_name) = lower(:actor)) "
            "AND (CAST(:action AS text) IS NULL OR action = :action) "
            "AND (CAST(:incident AS integer) IS NULL OR incident_id = :incident) "
            "AND (CAST(:since AS timestamptz) IS NULL OR at >= :since) "
            "AND (CAST(:until AS timestamptz) IS NULL OR at < :until) "
            "AND (CAST(:before AS bigint) IS NULL OR id < :before) ORDER BY id DESC LIMIT :limit"
        ),
        {
            "actor": actor,
            "action": action,
            "incident": incident_id,
            "since": since,
            "until": until,
            "before": before_id,
            "limit": limit,
        },
    )
    keys = (
        "id",
        "at",
        "actor_kind",
        "actor_id",
        "actor_name",
        "action",
        "object_type",
        "object_id",
        "incident_id",
        "detail",
        "address",
    )
    return [dict(zip(keys, row, strict=True)) for row in rows]


def record_request(
    request: Request,
    session: Session,
    action: str,
    object_type: str,
    object_id: int | str | None = None,
    incident_id: int | None = None,
    detail: dict[str, Any] | None = None,
) -> None:
    """`record` for the principal the request speaks for (its permission dependency set it)."""
    principal = getattr(request.state, "principal", None)
    address = request.client.host if request.client else None
    record(session, principal, action, object_type, object_id, incident_id, detail, address)
