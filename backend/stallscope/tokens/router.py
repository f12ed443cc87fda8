"""HTTP routes for collector (upload-only) tokens: responders and admins create them; a responder
sees and revokes the tokens they made, an admin every token."""

from __future__ import annotations

from fastapi import APIRouter, status

from stallscope.auth import access, audit
from stallscope.auth.guard import Responder
from stallscope.deps import SessionDep
from stallscope.kit.errors import Forbidden
from stallscope.tokens import service
from stallscope.tokens.schemas import TokenCreate, TokenCreated, TokenOut

router = APIRouter(prefix="/api/tokens", tags=["tokens"])


@router.get("")
def list_tokens(session: SessionDep, principal: Responder) -> list[TokenOut]:
    tokens = service.list_tokens(session)
    if principal.is_admin:
        return tokens
    return [t for t in tokens if t.created_by is not None and t.created_by == principal.user_id]


@router.post("", status_code=status.HTTP_201_CREATED)
def create_token(data: TokenCreate, session: SessionDep, principal: Responder) -> TokenCreated:
    """Create an upload-only token, optionally limited to one incident or host and expiring; its
    secret is in this answer and nowhere else."""
    if data.incident_id is not None:
        access.require_incident(session, principal, data.incident_id)
    created = service.create_token(session, data, created_by=principal.user_id)
    detail = {"name": created.name, "incident": created.incident_id, "host": created.host}
    audit.record(session, principal, "create", "collector-token", created.id, created.incident_id, detail)
    session.commit()
    return created


@router.delete("/{token_id}")
def revoke_token(token_id: int, session: SessionDep, principal: Responder) -> TokenOut:
    token = service.get_token(session, token_id)
    if not principal.is_admin and token.created_by != principal.user_id:
        raise Forbidden(f"token {token_id} was made by someone else: only an admin can revoke it")
    revoked = service.revoke_token(session, token_id)
    audit.record(session, principal, "revoke", "collector-token", token_id, revoked.incident_id)
    session.commit()
    return revoked
