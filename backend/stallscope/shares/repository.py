"""SQL for short links."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from stallscope.models import ShortLink


def by_id(session: Session, link_id: str) -> ShortLink | None:
    return session.get(ShortLink, link_id)


def by_target(session: Session, target: str) -> ShortLink | None:
    return session.scalars(select(ShortLink).where(ShortLink.target == target).limit(1)).first()


def add(session: Session, link: ShortLink) -> ShortLink:
    session.add(link)
    session.flush()
    return link
