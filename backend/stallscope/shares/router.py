"""HTTP routes for short links: create one, read it, and follow `/s/<id>` to the view."""

from __future__ import annotations

from html import escape

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from stallscope.auth.guard import READ, RESPOND
from stallscope.deps import SessionDep
from stallscope.kit.errors import NotFound
from stallscope.models import ShortLink
from stallscope.shares import service
from stallscope.shares.schemas import ShareCreate, ShareOut

router = APIRouter(tags=["shares"])


def _out(link: ShortLink) -> ShareOut:
    return ShareOut(id=link.id, target=link.target, path=f"/s/{link.id}", created_at=link.created_at)


@router.post("/api/shares", status_code=201, dependencies=[RESPOND])
def create_share(body: ShareCreate, session: SessionDep) -> ShareOut:
    link = service.create(session, body.target)
    session.commit()
    session.refresh(link)
    return _out(link)


@router.get("/api/shares/{link_id}", dependencies=[READ])
def read_share(link_id: str, session: SessionDep) -> ShareOut:
    return _out(service.resolve(session, link_id))


@router.get("/s/{link_id}", include_in_schema=False)
def follow_share(link_id: str, session: SessionDep) -> Response:
    """A redirect to the saved view; a page that says so when the link is unknown."""
    try:
        link = service.resolve(session, link_id)
    except NotFound:
        body = (
            "<!doctype html><title>Link not found · Stallscope</title>"
            f"<p>The short link <code>/s/{escape(link_id)}</code> does not exist in this console. "
            '<a href="/">Incidents</a></p>'
        )
        return HTMLResponse(body, status_code=404)
    return RedirectResponse(link.target, status_code=302)
