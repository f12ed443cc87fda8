"""Watch mode's operations behind its routes: signatures and webhooks kept, alerts listed, an
incident opened from an alert, the Prometheus exposition."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import RowMapping, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from stallscope.analysis.signatures import Rule, RuleError
from stallscope.captures.service import copy_capture
from stallscope.exposition.text import label, metric
from stallscope.findings.service import set_baseline
from stallscope.incidents.schemas import IncidentCreate
from stallscope.incidents.service import create_incident
from stallscope.kit.errors import Invalid, NotFound
from stallscope.models import Capture
from stallscope.watch import payloads, repository
from stallscope.watch.rounds import day_before, diff_path, rounds_of
from stallscope.watch.schemas import (
    AlertOut,
    DeliveryOut,
    OpenedIncidentOut,
    SignatureIn,
    SignatureOut,
    WatchStreamOut,
    WebhookIn,
    WebhookOut,
)

OPENED_SEVERITY = "sev3"

# -- signatures ---------------------------------------------------------------------------------


def _checked(data: SignatureIn) -> dict[str, Any]:
    """The signature's columns, once its rule can be evaluated (`RuleError` said as `Invalid`)."""
    rule = Rule(data.name, data.pattern, data.source, data.state, data.process, data.min_share, data.min_ms)
    try:
        rule.check()
    except RuleError as exc:
        raise Invalid(str(exc)) from exc
    return data.model_dump()


def _signature_out(row: RowMapping) -> SignatureOut:
    return SignatureOut.model_validate(dict(row))


def list_signatures(session: Session) -> list[SignatureOut]:
    return [_signature_out(row) for row in repository.list_signatures(session)]


def require_signature(session: Session, signature_id: int) -> RowMapping:
    found = repository.get_signature(session, signature_id)
    if found is None:
        raise NotFound(f"signature {signature_id} does not exist")
    return found


@contextmanager
def _named_once(session: Session, what: str, name: str) -> Iterator[None]:
    """Names are unique by the table's own constraint (no check-then-write race): a second one is
    refused in words, and the savepoint keeps the request's transaction usable."""
    try:
        with session.begin_nested():
            yield
    except IntegrityError as exc:
        raise Invalid(f"a {what} named {name!r} exists already") from exc


def create_signature(session: Session, data: SignatureIn, created_by: int | None) -> SignatureOut:
    values = _checked(data)
    with _named_once(session, "signature", data.name):
        signature_id = repository.add_signature(session, values | {"created_by": created_by})
    return _signature_out(require_signature(session, signature_id))


def change_signature(session: Session, signature_id: int, data: SignatureIn) -> SignatureOut:
    require_signature(session, signature_id)
    values = _checked(data)
    with _named_once(session, "signature", data.name):
        repository.change_signature(session, signature_id, values)
    return _signature_out(require_signature(session, signature_id))


def delete_signature(session: Session, signature_id: int) -> None:
    """The signature and its alerts (their history goes with the rule that defined them)."""
    if not repository.remove_signature(session, signature_id):
        raise NotFound(f"signature {signature_id} does not exist")


# -- webhooks -----------------------------------------------------------------------------------


def _webhook_out(row: RowMapping) -> WebhookOut:
    return WebhookOut.model_validate(dict(row))


def list_webhooks(session: Session) -> list[WebhookOut]:
    return [_webhook_out(row) for row in repository.list_webhooks(session)]


def _webhook_values(data: WebhookIn) -> dict[str, Any]:
    return {"name": data.name, "url": str(data.url), "format": data.format, "enabled": data.enabled}


def create_webhook(session: Session, data: WebhookIn) -> WebhookOut:
    with _named_once(session, "webhook", data.name):
        webhook_id = repository.add_webhook(session, _webhook_values(data))
    found = repository.get_webhook(session, webhook_id)
    assert found is not None
    return _webhook_out(found)


def change_webhook(session: Session, webhook_id: int, data: WebhookIn) -> WebhookOut:
    if repository.get_webhook(session, webhook_id) is None:
        raise NotFound(f"webhook {webhook_id} does not exist")
    with _named_once(session, "webhook", data.name):
        repository.change_webhook(session, webhook_id, _webhook_values(data))
    found = repository.get_webhook(session, webhook_id)
    assert found is not None
    return _webhook_out(found)


def delete_webhook(session: Session, webhook_id: int) -> None:
    if not repository.remove_webhook(session, webhook_id):
        raise NotFound(f"webhook {webhook_id} does not exist")


# -- alerts -------------------------------------------------------------------------------------


def _alert_out(row: RowMapping, deliveries: list[DeliveryOut], console: str) -> AlertOut:
    return AlertOut.model_validate(
        dict(row)
        | {
            "summary": payloads.summary(row),
            "evidence_url": payloads.evidence_url(console, row),
            "deliveries": deliveries,
        }
    )


def list_alerts(session: Session, console: str, limit: int) -> list[AlertOut]:
    rows = repository.list_alerts(session, limit=limit)
    by_alert: dict[int, list[DeliveryOut]] = {}
    for d in repository.deliveries_of(session, [row["id"] for row in rows]):
        by_alert.setdefault(d["alert_id"], []).append(
            DeliveryOut(
                webhook=d["name"],
                status=d["status"],
                attempts=d["attempts"],
                last_error=d["last_error"],
                sent_at=d["sent_at"],
            )
        )
    return [_alert_out(row, by_alert.get(row["id"], []), console) for row in rows]


def open_incident(session: Session, alert_id: int, created_by: int | None) -> OpenedIncidentOut:
    """An incident for the alert: copies of the watch rounds that matched and, as its baseline, of
    the host's round nearest the same time the day before (parsed anew as the incident's own
    captures; the stored uploads are shared). Asked again: the incident opened the first time."""
    alert = repository.alert_view(session, alert_id)
    if alert is None:
        raise NotFound(f"alert {alert_id} does not exist")
    if alert["incident_id"] is not None:
        return OpenedIncidentOut(
            incident_id=alert["incident_id"],
            captures=[],
            baseline_captures=[],
            baseline_host=None,
            diff_url=None,
        )
    matched_ids = [c for c in {alert["first_capture_id"], alert["last_capture_id"]} if c is not None]
    stream_id = alert["stream_id"]
    if stream_id is None or not matched_ids:
        raise Invalid(f"alert {alert_id}'s captures are gone (watch retention): there is nothing to open")
    matched = rounds_of(
        session, stream_id, list(session.scalars(select(Capture).where(Capture.id.in_(matched_ids))))
    )
    before = day_before(session, stream_id, alert["first_at"], {c.id for c in matched})
    baseline_host = f"{alert['host']} (day before)" if before else None
    summary = f"Opened from alert {alert_id}. {payloads.summary(alert)}."
    if not before:
        summary += " The host's watch stream has no round from the day before to compare with."
    incident = create_incident(
        session,
        IncidentCreate(
            title=f"{alert['signature']} on {alert['host']}",
            severity=OPENED_SEVERITY,
            started_at=alert["first_at"],
            summary=summary,
        ),
        created_by=created_by,
    )
    copies = [copy_capture(session, c, incident.id) for c in matched]
    baseline = [copy_capture(session, c, incident.id, host=baseline_host) for c in before]
    if baseline_host is not None:
        set_baseline(session, incident.id, [baseline_host])
    repository.set_alert_incident(session, alert_id, incident.id)
    return OpenedIncidentOut(
        incident_id=incident.id,
        captures=[c.id for c in copies],
        baseline_captures=[c.id for c in baseline],
        baseline_host=baseline_host,
        diff_url=diff_path(incident.id, baseline, copies, alert["source"]) if baseline else None,
    )


def streams(session: Session) -> list[WatchStreamOut]:
    return [
        WatchStreamOut(
            id=row["id"], host=row["host"], captures=row["captures"] or 0, last_upload=row["last_upload"]
        )
        for row in repository.streams(session)
    ]


# -- Prometheus ---------------------------------------------------------------------------------


def metrics_lines(session: Session) -> list[str]:
    """Windows matched per signature and host (a counter over the alerts kept), and the signatures
    defined; part of the console's exposition (`exposition/router.py`)."""
    matches = [
        (f'signature="{label(signature)}",host="{label(host)}"', count)
        for signature, host, count in repository.match_counts(session)
    ]
    lines = metric(
        "stallscope_signature_matches_total",
        "counter",
        "Watch windows in which a signature matched, by host.",
        matches,
    )
    signatures = repository.list_signatures(session)
    enabled = sum(1 for s in signatures if s["enabled"])
    defined = len(signatures)
    lines += metric(
        "stallscope_signatures",
        "gauge",
        "Signatures defined, by whether they are enabled.",
        [('enabled="true"', enabled), ('enabled="false"', defined - enabled)],
    )
    return lines
