"""SQL for signatures, webhooks, alerts and their deliveries."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import RowMapping, delete, func, insert, select, update
from sqlalchemy.orm import Session

from stallscope.models import Capture, Incident, alert_deliveries, alerts, signatures, webhooks

# -- signatures ---------------------------------------------------------------------------------


def list_signatures(session: Session, enabled_only: bool = False) -> list[RowMapping]:
    query = select(signatures).order_by(signatures.c.name)
    if enabled_only:
        query = query.where(signatures.c.enabled)
    return list(session.execute(query).mappings())


def get_signature(session: Session, signature_id: int) -> RowMapping | None:
    return session.execute(select(signatures).where(signatures.c.id == signature_id)).mappings().first()


def add_signature(session: Session, values: dict[str, Any]) -> int:
    return int(session.execute(insert(signatures).values(**values).returning(signatures.c.id)).scalar_one())


def change_signature(session: Session, signature_id: int, values: dict[str, Any]) -> None:
    session.execute(
        update(signatures).where(signatures.c.id == signature_id).values(**values, updated_at=func.now())
    )


def remove_signature(session: Session, signature_id: int) -> bool:
    gone = session.execute(
        delete(signatures).where(signatures.c.id == signature_id).returning(signatures.c.id)
    )
    return gone.first() is not None


# -- webhooks -----------------------------------------------------------------------------------


def list_webhooks(session: Session, enabled_only: bool = False) -> list[RowMapping]:
    query = select(webhooks).order_by(webhooks.c.name)
    if enabled_only:
        query = query.where(webhooks.c.enabled)
    return list(session.execute(query).mappings())


def get_webhook(session: Session, webhook_id: int) -> RowMapping | None:
    return session.execute(select(webhooks).where(webhooks.c.id == webhook_id)).mappings().first()


def add_webhook(session: Session, values: dict[str, Any]) -> int:
    return int(session.execute(insert(webhooks).values(**values).returning(webhooks.c.id)).scalar_one())


def change_webhook(session: Session, webhook_id: int, values: dict[str, Any]) -> None:
    session.execute(update(webhooks).where(webhooks.c.id == webhook_id).values(**values))


def remove_webhook(session: Session, webhook_id: int) -> bool:
    gone = session.execute(delete(webhooks).where(webhooks.c.id == webhook_id).returning(webhooks.c.id))
    return gone.first() is not None


# -- alerts -------------------------------------------------------------------------------------


def latest_alert(session: Session, signature_id: int, host: str) -> RowMapping | None:
    """The signature's most recent alert on the host (the one a new match may join)."""
    return (
        session.execute(
            select(alerts)
            .where(alerts.c.signature_id == signature_id, alerts.c.host == host)
            .order_by(alerts.c.last_at.desc(), alerts.c.id.desc())
            .limit(1)
            .with_for_update()
        )
        .mappings()
        .first()
    )


def add_alert(session: Session, values: dict[str, Any]) -> int:
    return int(session.execute(insert(alerts).values(**values).returning(alerts.c.id)).scalar_one())


def join_alert(session: Session, alert_id: int, values: dict[str, Any]) -> None:
    session.execute(
        update(alerts).where(alerts.c.id == alert_id).values(**values, matches=alerts.c.matches + 1)
    )


def set_alert_incident(session: Session, alert_id: int, incident_id: int) -> None:
    session.execute(update(alerts).where(alerts.c.id == alert_id).values(incident_id=incident_id))


def alert_view(session: Session, alert_id: int) -> RowMapping | None:
    found = list_alerts(session, limit=1, alert_id=alert_id)
    return found[0] if found else None


def list_alerts(
    session: Session, limit: int = 100, alert_id: int | None = None, since: datetime | None = None
) -> list[RowMapping]:
    """Newest first, with their signature's name, pattern and source and the stream they came from."""
    first = Capture.__table__.alias("first_capture")
    query = (
        select(
            alerts,
            signatures.c.name.label("signature"),
            signatures.c.pattern,
            signatures.c.source,
            signatures.c.state,
            first.c.incident_id.label("stream_id"),
        )
        .join(signatures, signatures.c.id == alerts.c.signature_id)
        .outerjoin(first, first.c.id == alerts.c.first_capture_id)
        .order_by(alerts.c.last_at.desc(), alerts.c.id.desc())
        .limit(limit)
    )
    if alert_id is not None:
        query = query.where(alerts.c.id == alert_id)
    if since is not None:
        query = query.where(alerts.c.last_at >= since)
    return list(session.execute(query).mappings())


def match_counts(session: Session) -> list[tuple[str, str, int]]:
    """(signature, host, windows matched) over every alert kept: the Prometheus counter."""
    rows = session.execute(
        select(signatures.c.name, alerts.c.host, func.sum(alerts.c.matches))
        .join(signatures, signatures.c.id == alerts.c.signature_id)
        .group_by(signatures.c.name, alerts.c.host)
        .order_by(signatures.c.name, alerts.c.host)
    )
    return [(str(name), str(host), int(total)) for name, host, total in rows]


# -- deliveries ---------------------------------------------------------------------------------


def add_deliveries(session: Session, alert_id: int, webhook_ids: Sequence[int]) -> None:
    if webhook_ids:
        session.execute(
            insert(alert_deliveries),
            [{"alert_id": alert_id, "webhook_id": w, "status": "pending"} for w in webhook_ids],
        )


def pending_deliveries(session: Session, alert_id: int) -> list[RowMapping]:
    return list(
        session.execute(
            select(alert_deliveries, webhooks.c.url, webhooks.c.format, webhooks.c.name)
            .join(webhooks, webhooks.c.id == alert_deliveries.c.webhook_id)
            .where(alert_deliveries.c.alert_id == alert_id, alert_deliveries.c.status == "pending")
        ).mappings()
    )


def deliveries_of(session: Session, alert_ids: Sequence[int]) -> list[RowMapping]:
    return list(
        session.execute(
            select(alert_deliveries, webhooks.c.name)
            .join(webhooks, webhooks.c.id == alert_deliveries.c.webhook_id)
            .where(alert_deliveries.c.alert_id.in_(list(alert_ids)))
            .order_by(webhooks.c.name)
        ).mappings()
    )


def record_delivery(
    session: Session, alert_id: int, webhook_id: int, status: str, error: str, sent_at: datetime | None
) -> None:
    session.execute(
        update(alert_deliveries)
        .where(alert_deliveries.c.alert_id == alert_id, alert_deliveries.c.webhook_id == webhook_id)
        .values(status=status, last_error=error, sent_at=sent_at, attempts=alert_deliveries.c.attempts + 1)
    )


# -- streams ------------------------------------------------------------------------------------


def streams(session: Session) -> list[RowMapping]:
    """Every live watch stream, with its captures' count and its latest capture's upload time."""
    latest = (
        select(
            Capture.incident_id,
            func.count().label("captures"),
            func.max(Capture.created_at).label("last_upload"),
        )
        .where(Capture.deleted_at.is_(None))
        .group_by(Capture.incident_id)
        .subquery()
    )
    query = (
        select(Incident.id, Incident.watch_host.label("host"), latest.c.captures, latest.c.last_upload)
        .outerjoin(latest, latest.c.incident_id == Incident.id)
        .where(Incident.watch_host.is_not(None), Incident.deleted_at.is_(None))
        .order_by(Incident.watch_host)
    )
    return list(session.execute(query).mappings())
