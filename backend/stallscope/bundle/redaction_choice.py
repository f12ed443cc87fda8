"""The redactor of one export: the policy the person chose, seeded with what the incident names.

The redactor also discovers names as it reads (a snapshot's hostname, `/home/<user>`), but what the
console already knows goes in first, so the first file written uses the same pseudonyms as the last:
the capture hosts, the names the snapshots give, and, when symbols are to be hashed, every
non-kernel frame name (kernel symbols are public and what a kernel vendor needs).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from stallscope.bundle import repository
from stallscope.bundle.repository import BundledCapture
from stallscope.bundle.schemas import RedactionChoice
from stallscope.kit.errors import Invalid
from stallscope.redaction import KnownSecrets, PolicyError, RedactionPolicy, Redactor, policy_from_json


def policy_of(choice: RedactionChoice) -> RedactionPolicy:
    if choice.mode == "none":
        return RedactionPolicy.none()
    if choice.mode == "default" or choice.policy is None:
        return RedactionPolicy.default()
    try:
        return policy_from_json(choice.policy)
    except (PolicyError, ValueError) as exc:
        raise Invalid(f"redaction policy: {exc}") from exc


def redactor_for(session: Session, choice: RedactionChoice, captures: Sequence[BundledCapture]) -> Redactor:
    policy = policy_of(choice)
    ids = [c.id for c in captures]
    known = KnownSecrets(hosts={c.host for c in captures if c.host})
    if policy.hash_symbols:
        known.app_symbols = set(repository.frame_names(session, ids, kernel=False, limit=None))
    redactor = Redactor(policy, known)
    for document in repository.snapshot_texts(session, ids):
        redactor.learn(document)
    return redactor
