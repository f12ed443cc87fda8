"""Run every detector on each impacted host, compare with the baseline, merge and rank.

Per host, because a cause is a host's (one host's mmap_lock, another's writeback); findings of the
same detector on several hosts merge into one naming them all. The baseline comparison is the same
for every detector: the detector's headline number on the baseline side. Present there at half the
level or more, the pattern is not what changed: one severity lower and less confident. Absent there,
more confident.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from stallscope.analysis.findings.detector import Detector, Links, TimeRangeNs
from stallscope.analysis.findings.detectors import DETECTORS
from stallscope.analysis.findings.digest import CaptureDigest
from stallscope.analysis.findings.finding import Finding, Severity
from stallscope.analysis.findings.profile import Profile

ALSO_ON_BASELINE = 0.5
"""Baseline at this fraction of the impacted number or more: the pattern did not change."""


@dataclass(slots=True)
class FindingsResult:
    findings: list[Finding]
    """Merged across hosts and ranked."""
    hosts: list[str]
    baseline_hosts: list[str]
    duration_ms: float
    notes: list[str] = field(default_factory=list)
    by_host: dict[str, list[Finding]] = field(default_factory=dict)
    """Each host's own findings before the merge: the server keeps them, so that a parse on one host
    recomputes that host alone."""


def run_findings(
    impacted: Sequence[CaptureDigest],
    baseline: Sequence[CaptureDigest] = (),
    incident_id: int | None = None,
    detectors: Sequence[Detector] = DETECTORS,
    time_range: TimeRangeNs | None = None,
    baseline_time_range: TimeRangeNs | None = None,
) -> FindingsResult:
    """Findings of the impacted digests against the baseline ones. With `time_range`, the digests
    are of that window and the views linked open on it (and the baseline's on `baseline_time_range`)."""
    started = time.perf_counter()
    by_host: dict[str, list[CaptureDigest]] = {}
    for digest in impacted:
        by_host.setdefault(digest.host, []).append(digest)
    base = Profile("baseline", baseline) if baseline else None
    base_hosts = base.hosts if base else []
    per_host = {}
    for host, digests in sorted(by_host.items()):
        profile = Profile(host, digests)
        links = Links(
            incident_id,
            [host],
            base_hosts or None,
            time_range,
            baseline_time_range,
            profile.snapshot_capture_id,
            base.snapshot_capture_id if base else None,
        )
        per_host[host] = host_findings(profile, base, links, detectors)
    merged = merge_hosts(per_host)
    notes = [] if impacted else ["No parsed captures to read."]
    elapsed_ms = (time.perf_counter() - started) * 1000
    return FindingsResult(merged, sorted(by_host), base_hosts, elapsed_ms, notes, per_host)


def host_findings(
    profile: Profile, base: Profile | None, links: Links, detectors: Sequence[Detector] = DETECTORS
) -> list[Finding]:
    """Every detector on one host's digests, compared with the baseline side when there is one."""
    found = []
    for detector in detectors:
        finding = detector.detect(profile, base, links)
        if finding is None:
            continue
        if not finding.hosts:
            finding.hosts = [profile.name]
        finding.capture_ids = finding.capture_ids or profile.capture_ids
        finding.time_range_ns = finding.time_range_ns or profile.time_range_ns
        if base is not None and finding.baseline is None:
            _compare(detector, finding, profile, base)
        found.append(finding)
    return found


def merge_hosts(per_host: dict[str, list[Finding]]) -> list[Finding]:
    """One finding per detector, naming every host where it fired, ranked."""
    by_id: dict[str, list[Finding]] = {}
    for host in sorted(per_host):
        for finding in per_host[host]:
            by_id.setdefault(finding.id, []).append(copy.copy(finding))
    merged = [_merge(group) for group in by_id.values()]
    merged.sort(key=Finding.sort_key)
    return merged


def _compare(detector: Detector, finding: Finding, profile: Profile, base: Profile) -> None:
    ours, theirs = detector.measure(profile), detector.measure(base)
    if ours is None or theirs is None:
        return
    if ours.value > 0 and theirs.value >= ALSO_ON_BASELINE * ours.value:
        finding.severity = Severity(max(Severity.INFO, finding.severity - 1))
        finding.confidence *= 0.6
        finding.baseline = f"Also on the baseline: {theirs.text} there, against {ours.text} here."
    elif theirs.value <= 0:
        finding.confidence = min(1.0, finding.confidence + 0.1)
        finding.baseline = f"Absent on the baseline ({theirs.text})."
    else:
        finding.confidence = min(1.0, finding.confidence + 0.05)
        finding.baseline = f"{ours.value / theirs.value:.1f} times the baseline ({theirs.text} there)."


def _merge(group: list[Finding]) -> Finding:
    """The strongest host's finding, naming every host where the detector fired."""
    group.sort(key=Finding.sort_key)
    best = group[0]
    strongest = best.hosts[0] if best.hosts else "?"
    if len(group) > 1:
        best.hosts = sorted({h for f in group for h in f.hosts})
        best.threads = [t for f in group for t in f.threads]
        best.capture_ids = sorted({c for f in group for c in f.capture_ids})
        ranges = [f.time_range_ns for f in group if f.time_range_ns]
        best.time_range_ns = (min(r[0] for r in ranges), max(r[1] for r in ranges)) if ranges else None
        best.summary = f"{best.summary} (on {len(best.hosts)} hosts; figures of {strongest})"
    return best
