"""HTTP routes for guest links: responders make, list and revoke them; anyone holding one opens it."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response, status

from stallscope.auth import access, guest_links
from stallscope.auth.cookies import client_address, set_session_cookie
from stallscope.auth.guard import RESPOND, Responder
from stallscope.auth.router import me_out
from stallscope.auth.schemas import GuestLinkCreate, GuestLinkCreated, GuestLinkOut, MeOut
from stallscope.auth.scope import SEE_INCIDENT
from stallscope.deps import SessionDep

router = APIRouter(tags=["guest links"])


@router.post(
    "/api/incidents/{incident_id}/guest-links",
    status_code=status.HTTP_201_CREATED,
    dependencies=[RESPOND, SEE_INCIDENT],
)
def create_guest_link(
    incident_id: int, body: GuestLinkCreate, session: SessionDep, principal: Responder
) -> GuestLinkCreated:
    """A read-only link to this incident for someone without an account (a vendor); its secret is in
    this answer only. Expires in 14 days unless told otherwise."""
    link, secret = guest_links.create(session, incident_id, body, principal)
    session.commit()
    return GuestLinkCreated(**link.model_dump(), secret=secret, path=f"/g/{secret}")


@router.get("/api/incidents/{incident_id}/guest-links", dependencies=[RESPOND, SEE_INCIDENT])
def list_guest_links(incident_id: int, session: SessionDep) -> list[GuestLinkOut]:
    return guest_links.list_for(session, incident_id)


@router.delete("/api/guest-links/{link_id}")
def revoke_guest_link(link_id: int, session: SessionDep, principal: Responder) -> GuestLinkOut:
    """Revoke at once: the link stops opening and the sessions it opened end."""
    access.require_incident(session, principal, guest_links.incident_of(session, link_id))
    link = guest_links.revoke(session, link_id, principal)
    session.commit()
    return link


@router.post("/api/guest/{secret}")
def open_guest_link(secret: str, request: Request, response: Response, session: SessionDep) -> MeOut:
    """Open a guest link: a read-only session on its incident (the use is in the audit log)."""
    started = guest_links.redeem(session, secret, client_address(request))
    session.commit()
    set_session_cookie(request, response, started.secret, started.expires_at)
    return me_out(started.principal)
