"""Signatures checked on a parsed watch capture, and the alerts their matches raise or join.

One alert per signature and host while matches keep coming: a match within the signature's
cool-down of its latest alert's window joins that alert (one more match, the newest figures and
evidence) and sends nothing; a match after a quiet cool-down raises a new alert, which is sent to
every enabled webhook. A capture parsed again joins the alert it already matched without counting.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import RowMapping, select, text
from sqlalchemy.orm import Session

from stallscope.analysis.findings.digest import VERSION, CaptureDigest, digest_from_json
from stallscope.analysis.signatures import Rule, RuleError, RuleMatch, evaluate
from stallscope.models import capture_digests
from stallscope.watch import repository

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class WatchCapture:
    capture_id: int
    host: str
    at: datetime
    """The window's end (the capture's last record), or the parse time when it has none."""


def rule_of(row: RowMapping) -> Rule:
    return Rule(
        name=row["name"],
        pattern=row["pattern"],
        source=row["source"],
        state=row["state"],
        process=row["process"],
        min_share=row["min_share"],
        min_ms=row["min_ms"],
    )


def watch_capture(session: Session, capture_id: int) -> WatchCapture | None:
    """The capture, when it belongs to a watch stream (None otherwise: incidents raise no alerts)."""
    row = session.execute(
        text(
            "SELECT i.watch_host, c.time_end FROM captures c JOIN incidents i ON i.id = c.incident_id "
            "WHERE c.id = :id AND i.watch_host IS NOT NULL AND c.deleted_at IS NULL"
        ),
        {"id": capture_id},
    ).first()
    if row is None:
        return None
    return WatchCapture(capture_id, str(row[0]), row[1] or datetime.now(UTC))


def stored_digest(session: Session, capture_id: int) -> CaptureDigest | None:
    found = session.execute(
        select(capture_digests.c.digest).where(
            capture_digests.c.capture_id == capture_id, capture_digests.c.version == VERSION
        )
    ).scalar()
    return None if found is None else digest_from_json(found)


def round_digests(session: Session, capture_id: int, digest: CaptureDigest) -> list[CaptureDigest]:
    """The capture's digest and those of its watch round's other files parsed so far (a round's CPU,
    off-CPU, /proc and snapshot files share `meta.watch.started_at`): detectors read them together,
    as they read an incident's captures of one host. The round's last file to be parsed sees all."""
    rows = session.execute(
        text(
            "SELECT d.digest FROM captures c JOIN captures o ON o.incident_id = c.incident_id "
            "AND o.id <> c.id AND o.deleted_at IS NULL AND o.status IN ('ready', 'partial') "
            "AND o.meta -> 'watch' ->> 'started_at' = c.meta -> 'watch' ->> 'started_at' "
            "JOIN capture_digests d ON d.capture_id = o.id AND d.version = :v "
            "WHERE c.id = :id ORDER BY o.id"
        ),
        {"id": capture_id, "v": VERSION},
    )
    return [digest, *(digest_from_json(row[0]) for row in rows)]


def check_capture(session: Session, capture: WatchCapture, digest: CaptureDigest) -> list[int]:
    """Every enabled signature over the capture (finding rules: over its round); returns the alerts
    raised (to be sent)."""
    raised: list[int] = []
    whole_round: list[CaptureDigest] | None = None
    for row in repository.list_signatures(session, enabled_only=True):
        rule = rule_of(row)
        if rule.source == "finding" and whole_round is None:
            whole_round = round_digests(session, capture.capture_id, digest)
        try:
            match = evaluate(rule, whole_round if rule.source == "finding" and whole_round else [digest])
        except RuleError as exc:  # stored before a check existed, or edited in the database
            log.warning("signature %r was not checked: %s", row["name"], exc)
            continue
        if match.fired:
            alert = _raise_or_join(session, row, capture, match)
            if alert is not None:
                raised.append(alert)
    return raised


def _raise_or_join(
    session: Session, signature: RowMapping, capture: WatchCapture, match: RuleMatch
) -> int | None:
    latest = repository.latest_alert(session, signature["id"], capture.host)
    figures: dict[str, Any] = {
        "share": match.share,
        "matched_ns": match.weight,
        "evidence": match.evidence(),
    }
    if latest is not None and _joins(latest, capture.at, timedelta(seconds=signature["cooldown_s"])):
        if latest["last_capture_id"] == capture.capture_id:
            return None  # parsed again: already counted
        newer = capture.at >= latest["last_at"]
        values = figures | {"last_capture_id": capture.capture_id, "last_at": capture.at} if newer else {}
        repository.join_alert(session, latest["id"], values)
        return None
    alert = repository.add_alert(
        session,
        figures
        | {
            "signature_id": signature["id"],
            "host": capture.host,
            "first_capture_id": capture.capture_id,
            "last_capture_id": capture.capture_id,
            "first_at": capture.at,
            "last_at": capture.at,
        },
    )
    repository.add_deliveries(
        session, alert, [w["id"] for w in repository.list_webhooks(session, enabled_only=True)]
    )
    return alert


def _joins(latest: RowMapping, at: datetime, cooldown: timedelta) -> bool:
    """Whether a match at `at` belongs to the alert: within the cool-down after its latest window
    (or inside its span: a spooled window uploaded late)."""
    first: datetime = latest["first_at"]
    last: datetime = latest["last_at"]
    return first - cooldown <= at <= last + cooldown


def after_parse(session_factory: Callable[[], Session], capture_id: int, send: Callable[[int], None]) -> None:
    """The parse's signature check of a watch capture: alerts stored, then `send` called for each
    new one. Never raises: alerts are derived from the capture, whose parse has succeeded."""
    try:
        with session_factory() as session:
            capture = watch_capture(session, capture_id)
            if capture is None:
                return
            digest = stored_digest(session, capture_id)
            if digest is None:
                log.warning("capture %s has no digest: its signatures were not checked", capture_id)
                return
            raised = check_capture(session, capture, digest)
            session.commit()
    except Exception:
        log.exception("signatures of capture %s were not checked", capture_id)
        return
    for alert in raised:
        send(alert)
