"""Which incidents and captures a principal may reach, beyond its role's permissions.

An incident is team-wide (everyone with an account) or restricted (its members and admins). A guest
link reaches one incident, and maybe only some of its captures; a collector token may be limited to
one incident and one host. Refusals for what a principal may not see answer 404, as for what does
not exist: a restricted incident's existence is itself something not to tell.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.auth.principal import Principal
from stallscope.auth.roles import Role
from stallscope.kit.errors import Forbidden, NotFound


def incident_clause(principal: Principal, alias: str = "i") -> tuple[str, dict[str, Any]]:
    """SQL over the incidents table (as `alias`) keeping those the principal may see."""
    if principal.is_admin:
        return "TRUE", {}
    if principal.incident_id is not None:
        return f"{alias}.id = :scope_incident", {"scope_incident": principal.incident_id}
    if principal.role is Role.GUEST:
        return "FALSE", {}
    return (
        f"({alias}.visibility = 'team' OR EXISTS (SELECT 1 FROM incident_members m "
        f"WHERE m.incident_id = {alias}.id AND m.user_id = :scope_user))",
        {"scope_user": principal.user_id},
    )


def may_see_incident(session: Session, principal: Principal, incident_id: int) -> bool:
    clause, params = incident_clause(principal)
    row = session.execute(
        text(f"SELECT 1 FROM incidents i WHERE i.id = :id AND {clause}"), {"id": incident_id, **params}
    ).first()
    return row is not None


def require_incident(session: Session, principal: Principal, incident_id: int) -> None:
    if not may_see_incident(session, principal, incident_id):
        raise NotFound(f"incident {incident_id} does not exist")


def require_captures(session: Session, principal: Principal, capture_ids: Iterable[int]) -> None:
    """Every capture exists and belongs to an incident the principal may see (and, for a guest
    link limited to some captures, is one of them)."""
    wanted = sorted(set(capture_ids))
    if not wanted or principal.is_admin:
        return
    if principal.capture_ids is not None:
        outside = [c for c in wanted if c not in principal.capture_ids]
        if outside:
            raise NotFound(f"capture {outside[0]} does not exist")
    clause, params = incident_clause(principal)
    rows = session.execute(
        text(
            "SELECT c.id FROM captures c JOIN incidents i ON i.id = c.incident_id "
            f"WHERE c.id = ANY(:ids) AND {clause}"
        ),
        {"ids": wanted, **params},
    )
    seen = {int(r[0]) for r in rows}
    missing = [c for c in wanted if c not in seen]
    if missing:
        raise NotFound(f"capture {missing[0]} does not exist")


def require_upload_scope(principal: Principal, incident_id: int, host: str | None) -> None:
    """A collector token limited to an incident or a host uploads there and nowhere else."""
    if principal.role is not Role.COLLECTOR:
        return
    if principal.incident_id is not None and principal.incident_id != incident_id:
        raise Forbidden(f"{principal.describe()} uploads to incident {principal.incident_id} only")
    if principal.host is not None and (host or "") != principal.host:
        raise Forbidden(f"{principal.describe()} uploads for host {principal.host!r} only (pass host=)")
