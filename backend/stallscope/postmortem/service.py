"""Build an incident's postmortem: gather what the console knows, redact it, lay it out twice.

Every text that goes in passes through `redact` when one is given (the vendor bundle passes its
redactor), once, where the report is gathered: titles, people's names, host and thread names,
frame names in the images, even the links. The service writes short links (and their audit
entries) but never commits: the caller owns the transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from stallscope.analysis.findings.finding import Finding, finding_from_json
from stallscope.annotations import repository as annotations_repository
from stallscope.auth.principal import Principal
from stallscope.findings import service as findings_service
from stallscope.incidents import service as incidents_service
from stallscope.lifecycle.schemas import STAMPED
from stallscope.models import Incident
from stallscope.postmortem import html, markdown, repository
from stallscope.postmortem.images import finding_images
from stallscope.postmortem.links import ShortLinks
from stallscope.postmortem.model import (
    CaptureLine,
    EvidenceLine,
    FindingSection,
    OtherFinding,
    Postmortem,
    Report,
    StatusStep,
    TimelineEntry,
)
from stallscope.postmortem.when import utc

Redact = Callable[[str], str]


def _same(text: str) -> str:
    return text


def build_postmortem(
    session: Session,
    incident_id: int,
    *,
    base_url: str,
    principal: Principal,
    redact: Redact | None = None,
) -> Postmortem:
    """The incident's postmortem; links are absolute URLs under `base_url` (the console's address)."""
    r = redact or _same
    incident = incidents_service.require_incident(session, incident_id)
    links = ShortLinks(session, principal, incident_id, base_url)
    captures = repository.captures(session, incident_id)
    history = _status_history(session, incident)
    confirmed, others, judged = _findings(session, incident_id, links, r)
    starts = [c.start for c in captures if c.start is not None]
    ends = [c.end for c in captures if c.end is not None]
    report = Report(
        incident_id=incident.id,
        title=r(incident.title),
        severity=incident.severity,
        status=incident.status,
        summary=r(incident.summary),
        started_at=incident.started_at,
        created_at=incident.created_at,
        hosts=sorted({r(c.host) for c in captures if c.host}),
        captures=[CaptureLine(c.id, r(c.filename), r(c.host), c.start, c.end, c.samples) for c in captures],
        time_range=(min(starts), max(ends)) if starts and ends else None,
        status_history=[StatusStep(s.at, s.status, s.previous, r(s.who) if s.who else None) for s in history],
        root_cause=r(incident.root_cause),
        remediation=r(incident.remediation),
        timeline=_timeline(session, incident, history, captures, judged, r),
        confirmed=confirmed,
        others=others,
        incident_link=r(links.url(f"/incidents/{incident_id}")),
        generated_at=datetime.now(UTC),
    )
    images = {image.name: image.svg for section in confirmed for image in section.images}
    return Postmortem(markdown.render(report), html.render(report), images)


def _status_history(session: Session, incident: Incident) -> list[StatusStep]:
    """Investigating from the start, then each change the audit log holds; an incident changed
    before the log existed gets its steps from the times each status stamped."""
    steps = [StatusStep(incident.started_at, "investigating", None, None)]
    changes = repository.status_changes(session, incident.id)
    if changes:
        steps += [StatusStep(c.at, c.status, c.previous, c.who) for c in changes]
        return steps
    stamped = [(getattr(incident, column), status) for status, column in STAMPED.items()]
    previous = "investigating"
    for at, status in sorted((at, status) for at, status in stamped if at is not None):
        steps.append(StatusStep(at, status, previous, None))
        previous = status
    return steps


Judged = list[tuple[datetime, str]]
"""(when, what) of each verdict, for the timeline."""


def _findings(
    session: Session, incident_id: int, links: ShortLinks, r: Redact
) -> tuple[list[FindingSection], list[OtherFinding], Judged]:
    found = findings_service.findings_of(session, incident_id)
    authors = repository.verdict_authors(session, incident_id)
    confirmed: list[FindingSection] = []
    others: list[OtherFinding] = []
    judged: Judged = []
    for raw in found["findings"]:
        verdict: dict[str, Any] | None = raw.get("verdict")
        finding = finding_from_json(raw)
        state = verdict["verdict"] if verdict else None
        who = authors.get(finding.id)
        if verdict and verdict.get("at") is not None:
            by = f" by {who}" if who else ""
            judged.append((verdict["at"], r(f"Finding {state}: {finding.title}{by}")))
        if state != "confirmed":
            note = r(verdict["note"]) if verdict else ""
            others.append(
                OtherFinding(r(finding.title), finding.severity.label, r(finding.summary), state, note)
            )
            continue
        assert verdict is not None
        confirmed.append(_section(session, incident_id, finding, verdict, who, len(confirmed) + 1, links, r))
    return confirmed, others, judged


def _section(
    session: Session,
    incident_id: int,
    finding: Finding,
    verdict: dict[str, Any],
    who: str | None,
    number: int,
    links: ShortLinks,
    r: Redact,
) -> FindingSection:
    at = verdict.get("at")
    judged = " ".join(
        p for p in ("Confirmed", f"by {who}" if who else "", f"at {utc(at)}" if at else "") if p
    )
    return FindingSection(
        number=number,
        title=r(finding.title),
        severity=finding.severity.label,
        confidence=finding.confidence,
        summary=r(finding.summary),
        hosts=[r(h) for h in finding.hosts],
        evidence=[
            EvidenceLine(r(e.label), r(e.text), r(links.url(e.view.url())) if e.view else None)
            for e in finding.evidence
        ],
        baseline=r(finding.baseline) if finding.baseline else None,
        next_checks=[r(c) for c in finding.next_checks],
        remediation=r(finding.remediation),
        note=r(verdict.get("note") or ""),
        judged=r(judged),
        link=r(links.url(finding.view.url())),
        images=finding_images(session, incident_id, finding, number, r),
    )


def _timeline(
    session: Session,
    incident: Incident,
    history: list[StatusStep],
    captures: list[repository.CaptureRow],
    judged: Judged,
    r: Redact,
) -> list[TimelineEntry]:
    """Everything with a time, in time order: the start, status changes, annotations, recordings,
    verdicts. (Findings keep no first-seen time: they are recomputed from the captures.)"""
    entries = [TimelineEntry(incident.started_at, "start", f"Incident started ({incident.severity})")]
    for step in history[1:]:
        by = f" by {step.who}" if step.who else ""
        entries.append(TimelineEntry(step.at, "status", r(f"Status {step.previous} → {step.status}{by}")))
    for note in annotations_repository.list_for_incident(session, incident.id, None, None):
        where = f" ({note.host})" if note.host else ""
        entries.append(TimelineEntry(note.ts, "annotation", r(f"Annotation{where}: {note.text}")))
    recorded: dict[str, tuple[datetime, datetime]] = {}
    for c in captures:
        if c.start is None or c.end is None:
            continue
        first, last = recorded.get(c.host, (c.start, c.end))
        recorded[c.host] = (min(first, c.start), max(last, c.end))
    for host, (first, last) in sorted(recorded.items()):
        text = f"Captures of {host or 'an unnamed host'} begin (until {utc(last)})"
        entries.append(TimelineEntry(first, "capture", r(text)))
    entries += [TimelineEntry(at, "finding", text) for at, text in judged]
    entries.sort(key=lambda e: e.at)
    return entries
