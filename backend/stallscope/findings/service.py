"""Findings of an incident: built after each parse from the captures' digests, read by the API.

After a capture is parsed its digest is stored (one pass over its aggregates), then the incident's
findings are recomputed from every digest: the detectors only read digests, so this stays quick
however large the captures are. The baseline hosts people choose are kept with the results, and
verdicts are kept by finding id, so both survive recomputation.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from sqlalchemy.orm import Session

from stallscope.analysis.findings.detectors import DETECTORS
from stallscope.analysis.findings.digest import VERSION, CaptureDigest, digest_from_json
from stallscope.analysis.findings.engine import merge_hosts, run_findings
from stallscope.analysis.findings.finding import finding_from_json
from stallscope.findings import repository
from stallscope.findings.digests import build_digest
from stallscope.kit.errors import Invalid, NotFound

log = logging.getLogger(__name__)


def store_digest(session: Session, capture_id: int) -> CaptureDigest | None:
    """Build and store the capture's digest; returns it (None when the capture is gone)."""
    digest = build_digest(session, capture_id)
    if digest is None:
        return None
    repository.store_digest(session, capture_id, VERSION, digest.as_json())
    return digest


def compute(
    session: Session,
    incident_id: int,
    changed_host: str | None = None,
    parsing: int | None = None,
    fresh: CaptureDigest | None = None,
) -> int:
    """Recompute and store the incident's findings; returns how many there are.

    With `changed_host` (a parse on that host), only that host's findings are recomputed and the
    others' are taken as stored: a parse on one of ten hosts reads one host's digests, not ten.
    Everything is recomputed when there is nothing stored yet or the host is on the baseline side.
    `parsing` is a capture whose parse is ending (not yet ready): it counts as parsed; `fresh` is
    its digest, just built and stored, used as it is rather than read back.
    Captures parsed before findings existed (or before this digest version) get their digest first,
    those of the hosts recomputed only: the others' wait for the next full recomputation.
    """
    started = time.perf_counter()
    baseline_hosts = sorted(repository.baseline_hosts(session, incident_id))
    stored = repository.load_result(session, incident_id)
    partial = (
        changed_host is not None
        and stored is not None
        and stored["state"] == "ready"
        and changed_host not in baseline_hosts
    )
    wanted = sorted({changed_host, *baseline_hosts}) if partial and changed_host is not None else None
    for capture_id in repository.captures_without_digest(session, incident_id, VERSION, wanted):
        store_digest(session, capture_id)
    impacted: list[CaptureDigest] = []
    baseline: list[CaptureDigest] = []
    unread = fresh.capture_id if fresh is not None else None
    for capture_id, host, raw in repository.incident_digests(
        session, incident_id, VERSION, wanted, parsing, unread
    ):
        digest = fresh if raw is None else digest_from_json(raw)
        assert digest is not None  # only the fresh capture's digest is left unread
        digest.capture_id, digest.host = capture_id, host  # the host may have been renamed since
        (baseline if host in baseline_hosts else impacted).append(digest)
    result = run_findings(impacted, baseline, incident_id)
    per_host = {host: [f.as_json() for f in found] for host, found in result.by_host.items()}
    if partial and stored is not None:
        present = repository.parsed_hosts(session, incident_id) - set(baseline_hosts)
        kept = {h: found for h, found in stored["per_host"].items() if h in present and h not in per_host}
        per_host.update(kept)
    merged = merge_hosts({h: [finding_from_json(f) for f in found] for h, found in per_host.items()})
    hosts = sorted(per_host)
    notes = [] if hosts else ["No parsed captures to read."]
    if baseline_hosts and not baseline:
        notes.append(f"The baseline ({', '.join(baseline_hosts)}) has no parsed captures yet.")
    hosts_text = "1 host" if len(hosts) == 1 else f"{len(hosts)} hosts"
    notes.append(f"{len(DETECTORS)} detectors ran on the captures of {hosts_text}.")
    elapsed_ms = (time.perf_counter() - started) * 1000
    repository.store_result(
        session, incident_id, hosts, [f.as_json() for f in merged], notes, elapsed_ms, per_host
    )
    return len(merged)


def after_parse(session_factory: Any, capture_id: int) -> None:
    """The parse's last step before the capture turns ready: store its digest, then its incident's
    findings with it, so whoever sees the capture ready sees findings that include it. Never raises:
    findings are derived data, and a failure here must not fail the capture.

    A host's watch stream gets the digest only: its captures are days of periodic windows, which
    the signatures check one window at a time (`watch/alerting.py`); recomputing the whole
    stream's findings at every upload would read every window kept, each time."""
    started = time.monotonic()
    try:
        with session_factory() as session:
            digest = store_digest(session, capture_id)
            if digest is None:
                return
            meta = repository.capture_meta(session, capture_id)
            assert meta is not None
            if repository.is_watch_stream(session, meta[0]):
                session.commit()
                return
            count = compute(session, meta[0], changed_host=meta[2], parsing=capture_id, fresh=digest)
            session.commit()
    except Exception:
        log.exception("findings after the parse of capture %s were not computed", capture_id)
        return
    log.info("findings after capture %s: %d in %.2f s", capture_id, count, time.monotonic() - started)


def findings_of(session: Session, incident_id: int) -> dict[str, Any]:
    if not repository.incident_exists(session, incident_id):
        raise NotFound(f"incident {incident_id} does not exist")
    stored = repository.load_result(session, incident_id)
    verdicts = repository.verdicts(session, incident_id)
    pending = repository.pending_captures(session, incident_id)
    if stored is None:
        return {
            "state": "none",
            "computed_at": None,
            "duration_ms": None,
            "hosts": repository.incident_hosts(session, incident_id),
            "baseline_hosts": [],
            "captures_pending": pending,
            "notes": [],
            "findings": [],
        }
    findings = [dict(f, verdict=verdicts.get(f["id"])) for f in stored["findings"]]
    return {
        "state": stored["state"],
        "computed_at": stored["computed_at"],
        "duration_ms": stored["duration_ms"],
        "hosts": repository.incident_hosts(session, incident_id),
        "baseline_hosts": stored["baseline_hosts"],
        "captures_pending": pending,
        "notes": stored["notes"],
        "findings": findings,
    }


def needs_digests(session: Session, incident_id: int) -> bool:
    """Whether parsed captures lack digests and no recomputation is under way; if so, marks the
    findings as computing, so that the caller queues one recomputation and no more."""
    stored = repository.load_result(session, incident_id)
    if stored is not None and stored["state"] == "computing":
        return False
    if not repository.captures_without_digest(session, incident_id, VERSION):
        return False
    repository.mark_computing(session, incident_id)
    return True


def set_baseline(session: Session, incident_id: int, hosts: list[str]) -> None:
    known = set(repository.incident_hosts(session, incident_id))
    unknown = sorted(set(hosts) - known)
    if unknown:
        raise Invalid(f"no captures of host {', '.join(unknown)} in incident {incident_id}")
    repository.set_baseline(session, incident_id, sorted(set(hosts)))


def set_verdict(session: Session, incident_id: int, finding_id: str, verdict: str | None, note: str) -> None:
    if not repository.incident_exists(session, incident_id):
        raise NotFound(f"incident {incident_id} does not exist")
    repository.set_verdict(session, incident_id, finding_id, verdict, note)
