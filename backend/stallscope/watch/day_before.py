"""The day before, for any incident whose hosts are watched: each host's watch round from the same
time the day before, copied into the incident as `<host> (day before)` and made the findings'
baseline, with a diff per host.

The on-call engineer's first question about a host that went bad is what it did yesterday at this
hour; a watch stream has kept the answer. The copies share the stored uploads and are parsed as the
incident's own captures, so every view, the diff and the findings take them like any host.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from stallscope.captures.service import copy_capture
from stallscope.findings import repository as findings_repository
from stallscope.findings.service import set_baseline
from stallscope.incidents.service import require_incident
from stallscope.kit.errors import Invalid
from stallscope.models import Capture, Host
from stallscope.watch.rounds import day_before, diff_path
from stallscope.watch.schemas import DayBeforeHostOut, DayBeforeOut
from stallscope.watch.streams import find_stream

SUFFIX = " (day before)"


def baseline_name(host: str) -> str:
    return f"{host}{SUFFIX}"


def add_day_before(session: Session, incident_id: int) -> DayBeforeOut:
    """Copy each watched host's round of the day before into the incident; hosts that have one
    already, are not watched or have no round near that time are listed with the reason."""
    incident = require_incident(session, incident_id)
    if incident.watch_host is not None:
        raise Invalid(
            f"incident {incident_id} is the watch stream of {incident.watch_host}: open an incident from it"
        )
    hosts = _hosts_and_captures(session, incident_id)
    added: list[DayBeforeHostOut] = []
    skipped: list[str] = []
    for host, captures in sorted(hosts.items()):
        if host.endswith(SUFFIX):
            continue
        if baseline_name(host) in hosts:
            skipped.append(f"{host}: the day before is in the incident already")
            continue
        stream = find_stream(session, host)
        if stream is None:
            skipped.append(f"{host}: not watched (no `stallscope-collect watch` stream)")
            continue
        ends = [c.time_end for c in captures if c.time_end is not None]
        if not ends:
            skipped.append(f"{host}: its captures are not parsed yet (no time to compare at)")
            continue
        at = min(ends)
        before = day_before(session, stream.id, at, set())
        if not before:
            skipped.append(
                f"{host}: its watch stream has no round within an hour of {at:%H:%M} UTC the day before"
            )
            continue
        copies = [copy_capture(session, c, incident_id, host=baseline_name(host)) for c in before]
        session.flush()
        added.append(
            DayBeforeHostOut(
                host=host,
                baseline_host=baseline_name(host),
                captures=[c.id for c in copies],
                diff_url=diff_path(incident_id, copies, captures, "cpu"),
            )
        )
    baseline = sorted(
        set(findings_repository.baseline_hosts(session, incident_id)) | {a.baseline_host for a in added}
    )
    if added:
        set_baseline(session, incident_id, baseline)
    return DayBeforeOut(added=added, skipped=skipped, baseline_hosts=baseline)


def _hosts_and_captures(session: Session, incident_id: int) -> dict[str, list[Capture]]:
    rows = session.execute(
        select(Host.name, Capture)
        .join(Host, Host.id == Capture.host_id)
        .where(Capture.incident_id == incident_id, Capture.deleted_at.is_(None))
        .order_by(Capture.id)
    )
    hosts: dict[str, list[Capture]] = {}
    for name, capture in rows:
        hosts.setdefault(name, []).append(capture)
    return hosts
