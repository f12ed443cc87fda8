"""HTTP routes for admins: people and the audit log."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query, Request, status

from stallscope.auth import audit, users
from stallscope.auth.guard import Admin
from stallscope.auth.schemas import AuditEntryOut, UserChange, UserCreate, UserOut
from stallscope.deps import SessionDep

router = APIRouter(tags=["admin"])


@router.get("/api/users")
def list_users(session: SessionDep, _: Admin) -> list[UserOut]:
    return users.list_users(session)


@router.post("/api/users", status_code=status.HTTP_201_CREATED)
def create_user(body: UserCreate, session: SessionDep, _: Admin, request: Request) -> UserOut:
    created = users.create_user(session, body.name, body.role, body.password, body.email)
    detail = {"name": created.name, "role": created.role}
    audit.record_request(request, session, "create", "user", created.id, detail=detail)
    session.commit()
    return created


@router.patch("/api/users/{user_id}")
def change_user(user_id: int, body: UserChange, session: SessionDep, _: Admin, request: Request) -> UserOut:
    """Change a role, disable or enable, or set a new password (which ends the account's sessions)."""
    changed = users.get_user(session, user_id)
    if body.role is not None:
        changed = users.set_role(session, user_id, body.role)
    if body.disabled is not None:
        changed = users.set_disabled(session, user_id, body.disabled)
    if body.password is not None:
        changed = users.set_password(session, user_id, body.password)
    detail = body.model_dump(exclude_none=True, exclude={"password"})
    if body.password is not None:
        detail["password"] = "reset"
    audit.record_request(request, session, "change", "user", user_id, detail=detail)
    session.commit()
    return changed


@router.get("/api/audit")
def read_audit(
    session: SessionDep,
    _: Admin,
    actor: Annotated[str | None, Query(description="Who (a user name, a guest link's label)")] = None,
    action: Annotated[
        str | None, Query(description="create, change, delete, share, export, guest-view, login…")
    ] = None,
    incident: Annotated[int | None, Query(description="Entries about this incident")] = None,
    since: Annotated[datetime | None, Query(description="From this time, ISO 8601")] = None,
    until: Annotated[datetime | None, Query(description="Before this time, ISO 8601")] = None,
    before: Annotated[int | None, Query(description="Entries older than this entry id (paging)")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> list[AuditEntryOut]:
    """The audit log, newest first."""
    found = audit.entries(
        session,
        actor=actor,
        action=action,
        incident_id=incident,
        since=since,
        until=until,
        before_id=before,
        limit=limit,
    )
    return [AuditEntryOut.model_validate(entry) for entry in found]
