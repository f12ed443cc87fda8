"""The redaction preview: what each rule would replace in the bundle, before anything is exported.

It reads what carries names in an incident — capture hosts, file names and the commands that made
them, snapshot documents, thread names, frame names, event arguments, metric labels — a bounded
sample of each, so the preview answers in about a second on any incident, and shows each rule's
matches with examples in context. The person can then untick a rule or add one and export.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from sqlalchemy.orm import Session

from stallscope.auth.principal import Principal
from stallscope.bundle import repository
from stallscope.bundle.redaction_choice import redactor_for
from stallscope.bundle.schemas import (
    BundleRequest,
    PreviewExample,
    PreviewRule,
    RedactionPolicyOut,
    RedactionPreviewOut,
)
from stallscope.bundle.service import choose_captures
from stallscope.redaction import policy_to_json

NAMES_PER_SOURCE = 2000
"""Distinct names read per kind (threads, frames, event texts, metric labels)."""


def preview(
    session: Session, incident_id: int, request: BundleRequest, principal: Principal
) -> RedactionPreviewOut:
    captures = choose_captures(repository.incident_captures(session, incident_id), request, principal)
    redactor = redactor_for(session, request.redaction, captures)
    samples = list(_texts(session, captures))
    found = redactor.preview(samples)
    return RedactionPreviewOut(
        rules=[
            PreviewRule(
                id=rule.id,
                label=rule.label,
                enabled=rule.enabled,
                matches=rule.matches,
                examples=[
                    PreviewExample(
                        source=e.source,
                        before=e.before,
                        match=e.match,
                        after=e.after,
                        replacement=e.pseudonym,
                    )
                    for e in rule.examples
                ],
            )
            for rule in found.rules
        ],
        policy=RedactionPolicyOut.model_validate(policy_to_json(redactor.policy)),
        sources=len(samples),
    )


def _texts(session: Session, captures: list[repository.BundledCapture]) -> Iterator[tuple[str, str]]:
    ids = [c.id for c in captures]
    for capture in captures:
        where = f"capture {capture.id}"
        yield f"{where} host", capture.host
        yield f"{where} file name", capture.filename
        if capture.meta:
            yield f"{where} collector commands", json.dumps(capture.meta)
    for number, document in enumerate(repository.snapshot_texts(session, ids), start=1):
        yield f"snapshot {number}", document
    for name in repository.thread_names(session, ids, NAMES_PER_SOURCE):
        yield "thread name", name
    for name in repository.frame_names(session, ids, kernel=None, limit=NAMES_PER_SOURCE):
        yield "frame", name
    for text in repository.event_texts(session, ids, NAMES_PER_SOURCE):
        yield "event", text
    for text in repository.metric_labels(session, ids, NAMES_PER_SOURCE):
        yield "metric series", text
