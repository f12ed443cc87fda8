"""HTTP routes for upload tokens."""

from __future__ import annotations

from fastapi import APIRouter, status

from stallscope.deps import SessionDep
from stallscope.tokens import service
from stallscope.tokens.schemas import TokenCreate, TokenCreated, TokenOut

router = APIRouter(prefix="/api/tokens", tags=["tokens"])


@router.get("")
def list_tokens(session: SessionDep) -> list[TokenOut]:
    return service.list_tokens(session)


@router.post("", status_code=status.HTTP_201_CREATED)
def create_token(data: TokenCreate, session: SessionDep) -> TokenCreated:
    """Create an upload-only token; its secret is in this answer and nowhere else."""
    created = service.create_token(session, data.name)
    session.commit()
    return created


@router.delete("/{token_id}")
def revoke_token(token_id: int, session: SessionDep) -> TokenOut:
    revoked = service.revoke_token(session, token_id)
    session.commit()
    return revoked
