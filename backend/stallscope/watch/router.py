"""HTTP routes of watch mode: signatures (responders write them), webhooks (admins: their URLs may
carry secrets), alerts and watch streams. Matches per signature and host are in the console's
Prometheus exposition (`exposition/router.py`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response, status

from stallscope.auth import audit
from stallscope.auth.guard import ADMIN, READ, RESPOND, Responder
from stallscope.auth.scope import SEE_INCIDENT
from stallscope.captures.parse_queue import send_parse
from stallscope.config import get_settings
from stallscope.deps import SessionDep
from stallscope.watch import day_before, service
from stallscope.watch.schemas import (
    AlertOut,
    DayBeforeOut,
    OpenedIncidentOut,
    SignatureIn,
    SignatureOut,
    WatchStreamOut,
    WebhookIn,
    WebhookOut,
)

router = APIRouter(tags=["watch"])


@router.get("/api/signatures", dependencies=[READ])
def list_signatures(session: SessionDep) -> list[SignatureOut]:
    return service.list_signatures(session)


@router.post("/api/signatures", status_code=status.HTTP_201_CREATED, dependencies=[RESPOND])
def create_signature(
    body: SignatureIn, session: SessionDep, principal: Responder, request: Request
) -> SignatureOut:
    """A rule checked on every watch upload from now on (`analysis/signatures.py` says how)."""
    created = service.create_signature(session, body, principal.user_id)
    audit.record_request(request, session, "create", "signature", created.id, None, body.model_dump())
    session.commit()
    return created


@router.put("/api/signatures/{signature_id}", dependencies=[RESPOND])
def change_signature(
    signature_id: int, body: SignatureIn, session: SessionDep, request: Request
) -> SignatureOut:
    changed = service.change_signature(session, signature_id, body)
    audit.record_request(request, session, "change", "signature", signature_id, None, body.model_dump())
    session.commit()
    return changed


@router.delete(
    "/api/signatures/{signature_id}", status_code=status.HTTP_204_NO_CONTENT, dependencies=[RESPOND]
)
def delete_signature(signature_id: int, session: SessionDep, request: Request) -> Response:
    """The signature and the alerts it raised."""
    service.delete_signature(session, signature_id)
    audit.record_request(request, session, "delete", "signature", signature_id)
    session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/api/webhooks", dependencies=[ADMIN])
def list_webhooks(session: SessionDep) -> list[WebhookOut]:
    return service.list_webhooks(session)


@router.post("/api/webhooks", status_code=status.HTTP_201_CREATED, dependencies=[ADMIN])
def create_webhook(body: WebhookIn, session: SessionDep, request: Request) -> WebhookOut:
    """Where new alerts are sent from now on, in the receiver's format (`watch/payloads.py`)."""
    created = service.create_webhook(session, body)
    audit.record_request(request, session, "create", "webhook", created.id, None, {"name": body.name})
    session.commit()
    return created


@router.put("/api/webhooks/{webhook_id}", dependencies=[ADMIN])
def change_webhook(webhook_id: int, body: WebhookIn, session: SessionDep, request: Request) -> WebhookOut:
    changed = service.change_webhook(session, webhook_id, body)
    audit.record_request(request, session, "change", "webhook", webhook_id, None, {"name": body.name})
    session.commit()
    return changed


@router.delete("/api/webhooks/{webhook_id}", status_code=status.HTTP_204_NO_CONTENT, dependencies=[ADMIN])
def delete_webhook(webhook_id: int, session: SessionDep, request: Request) -> Response:
    service.delete_webhook(session, webhook_id)
    audit.record_request(request, session, "delete", "webhook", webhook_id)
    session.commit()
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/api/alerts", dependencies=[READ])
def list_alerts(
    session: SessionDep, limit: Annotated[int, Query(ge=1, le=1000, description="Newest first")] = 100
) -> list[AlertOut]:
    """Alerts, newest first, with their evidence, link and where they were sent."""
    return service.list_alerts(session, get_settings().console_url, limit)


@router.post("/api/alerts/{alert_id}/incident", dependencies=[RESPOND])
def open_incident(
    alert_id: int, session: SessionDep, principal: Responder, request: Request
) -> OpenedIncidentOut:
    """Open an incident from the alert, holding the watch rounds that matched and, as its baseline,
    the host's round from the day before (parsed anew: its findings and diff follow); asked again,
    the incident opened the first time."""
    opened = service.open_incident(session, alert_id, principal.user_id)
    copies = opened.captures + opened.baseline_captures
    if copies:
        detail = {"alert": alert_id, "captures": copies}
        audit.record_request(
            request, session, "create", "incident", opened.incident_id, opened.incident_id, detail
        )
    session.commit()
    for capture_id in copies:
        send_parse(capture_id, 1)
    return opened


@router.post("/api/incidents/{incident_id}/day-before", dependencies=[RESPOND, SEE_INCIDENT])
def add_day_before(incident_id: int, session: SessionDep, request: Request) -> DayBeforeOut:
    """For each host of the incident that is watched, its watch round from the same time the day
    before, copied in as `<host> (day before)` and made the findings' baseline."""
    done = day_before.add_day_before(session, incident_id)
    copies = [c for host in done.added for c in host.captures]
    if copies:
        detail = {"day_before": [host.host for host in done.added], "captures": copies}
        audit.record_request(request, session, "change", "incident", incident_id, incident_id, detail)
    session.commit()
    for capture_id in copies:
        send_parse(capture_id, 1)
    return done


@router.get("/api/watch/streams", dependencies=[READ])
def list_streams(session: SessionDep) -> list[WatchStreamOut]:
    """Hosts sending watch captures, each with its stream (an incident id every view takes)."""
    return service.streams(session)
