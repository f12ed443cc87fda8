"""HTTP routes for short links: create one, read it, and follow `/s/<id>` to the view."""

from __future__ import annotations

from html import escape

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response
from sqlalchemy.orm import Session

from stallscope.auth import access, audit
from stallscope.auth.guard import Reader, Responder
from stallscope.auth.principal import Principal
from stallscope.deps import SessionDep
from stallscope.frontend_dist import frontend_dist
from stallscope.kit.errors import NotFound
from stallscope.models import ShortLink
from stallscope.shares import service
from stallscope.shares.schemas import ShareCreate, ShareOut

router = APIRouter(tags=["shares"])


def _out(link: ShortLink) -> ShareOut:
    return ShareOut(id=link.id, target=link.target, path=f"/s/{link.id}", created_at=link.created_at)


def _require_scope(session: Session, principal: Principal, target: str) -> int | None:
    incident, captures = service.target_scope(target)
    if incident is not None:
        access.require_incident(session, principal, incident)
    access.require_captures(session, principal, captures)
    return incident


@router.post("/api/shares", status_code=201)
def create_share(body: ShareCreate, session: SessionDep, principal: Responder) -> ShareOut:
    """A short link to a view of what the caller may see; it opens only for people who may see it."""
    incident = _require_scope(session, principal, service.validate_target(body.target))
    link = service.create(session, body.target)
    audit.record(session, principal, "share", "short-link", link.id, incident, {"target": link.target})
    session.commit()
    session.refresh(link)
    return _out(link)


@router.get("/api/shares/{link_id}")
def read_share(link_id: str, session: SessionDep, principal: Reader) -> ShareOut:
    """The view a short link keeps; 404 for someone who may not see its incident, as for no link."""
    link = service.resolve(session, link_id)
    try:
        _require_scope(session, principal, link.target)
    except NotFound as exc:
        raise NotFound(f"short link {link_id!r} does not exist") from exc
    return _out(link)


@router.get("/s/{link_id}", include_in_schema=False)
def follow_share(link_id: str) -> Response:
    """The console's page, which asks `/api/shares/{id}` (signed in) where the link goes: the server
    never tells a visitor who has not signed in which incident or view a link names."""
    index = frontend_dist() / "index.html"
    if index.is_file():
        return FileResponse(index)
    body = (
        "<!doctype html><title>Stallscope</title>"
        f"<p>The short link <code>/s/{escape(link_id)}</code> needs the console's front end, "
        "which is not built.</p>"
    )
    return HTMLResponse(body, status_code=503)
