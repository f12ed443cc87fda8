"""HTTP routes for findings: read an incident's findings, choose its baseline, judge a finding."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Query, Request

from stallscope.auth import audit
from stallscope.auth.guard import READ, RESPOND
from stallscope.auth.scope import SEE_INCIDENT, WHOLE_INCIDENT
from stallscope.deps import SessionDep
from stallscope.findings import service, window
from stallscope.findings.schemas import BaselineIn, FindingsOut, VerdictIn, VerdictOut, WindowFindingsOut
from stallscope.findings.tasks import COMPUTE_TASK
from stallscope.worker import enqueue

router = APIRouter(tags=["findings"])


@router.get("/api/incidents/{incident_id}/findings", dependencies=[READ, SEE_INCIDENT, WHOLE_INCIDENT])
def get_findings(incident_id: int, session: SessionDep) -> FindingsOut:
    """The incident's findings as last computed (after the latest parse or baseline change).

    Captures parsed before the console computed findings have no digest yet: the first read queues
    their digests and a recomputation (state `computing` until it is done)."""
    found = FindingsOut.model_validate(service.findings_of(session, incident_id))
    if service.needs_digests(session, incident_id):
        session.commit()
        enqueue(COMPUTE_TASK, incident_id)
        found.state = "computing"
    return found


@router.get("/api/incidents/{incident_id}/findings/window", dependencies=[READ, SEE_INCIDENT, WHOLE_INCIDENT])
def get_window_findings(
    incident_id: int,
    session: SessionDep,
    start: Annotated[datetime, Query(description="The window's start, inclusive, ISO 8601")],
    end: Annotated[datetime, Query(description="The window's end, exclusive, ISO 8601")],
    hosts: Annotated[str | None, Query(description="Comma-separated host names; all when absent")] = None,
    baseline: Annotated[
        window.RestSide, Query(description="Compare with the time before the window, or after it")
    ] = "before",
) -> WindowFindingsOut:
    """Findings of a time window against the rest of the captures' time range, computed now from
    the same captures' stored records (a window is a question: nothing is stored)."""
    names = [h for h in (hosts or "").split(",") if h] or None
    found = window.window_findings(session, incident_id, start, end, names, baseline)
    return WindowFindingsOut.model_validate(found)


@router.put("/api/incidents/{incident_id}/findings/baseline", dependencies=[RESPOND, SEE_INCIDENT])
def put_baseline(incident_id: int, body: BaselineIn, session: SessionDep, request: Request) -> FindingsOut:
    """Choose the healthy hosts; the findings are recomputed by a worker (state `computing` until then)."""
    service.set_baseline(session, incident_id, body.hosts)
    audit.record_request(
        request, session, "change", "findings-baseline", None, incident_id, {"hosts": body.hosts}
    )
    session.commit()
    enqueue(COMPUTE_TASK, incident_id)
    return FindingsOut.model_validate(service.findings_of(session, incident_id))


@router.post(
    "/api/incidents/{incident_id}/findings/{finding_id}/verdict", dependencies=[RESPOND, SEE_INCIDENT]
)
def post_verdict(
    incident_id: int, finding_id: str, body: VerdictIn, session: SessionDep, request: Request
) -> VerdictOut:
    """Confirm or dismiss a finding (null clears it); kept by finding id across recomputations."""
    service.set_verdict(session, incident_id, finding_id, body.verdict, body.note)
    verdict = {"verdict": body.verdict, "note": body.note}
    audit.record_request(request, session, "change", "finding-verdict", finding_id, incident_id, verdict)
    session.commit()
    at = datetime.now(UTC) if body.verdict else None
    return VerdictOut(verdict=body.verdict, note=body.note if body.verdict else "", at=at)
