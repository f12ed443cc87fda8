"""SQL for upload tokens."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from stallscope.models import UploadToken


def add(session: Session, token: UploadToken) -> UploadToken:
    session.add(token)
    session.flush()
    session.refresh(token)
    return token


def list_all(session: Session) -> list[UploadToken]:
    return list(session.scalars(select(UploadToken).order_by(UploadToken.id)))


def get(session: Session, token_id: int) -> UploadToken | None:
    return session.get(UploadToken, token_id)


def by_digest(session: Session, digest: bytes) -> UploadToken | None:
    return session.scalars(select(UploadToken).where(UploadToken.digest == digest)).first()
