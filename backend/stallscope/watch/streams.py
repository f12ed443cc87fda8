"""A host's watch stream: the incident its `watch` uploads go to, made at its first upload.

Being an incident, a stream gets every view, the findings and the parse pipeline unchanged; it is
marked with its host (`incidents.watch_host`) so the incident list leaves it out and the watch
retention, not the incidents' one, decides how long its captures stay.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from stallscope.kit.errors import Invalid
from stallscope.models import Incident

SEVERITY = "sev4"
"""What a stream is filed under: it is not an incident anyone declared."""


def title_of(host: str) -> str:
    return f"Watch: {host}"


def find_stream(session: Session, host: str) -> Incident | None:
    return session.scalars(
        select(Incident).where(Incident.watch_host == host, Incident.deleted_at.is_(None))
    ).first()


def stream_for(session: Session, host: str | None) -> Incident:
    """The host's live stream, made now if it has none. Two first uploads at once both try to
    make it; the unique index lets one through and the other reads that one."""
    if not host:
        raise Invalid("a watch upload names its host (host=): a watch stream is per host")
    found = find_stream(session, host)
    if found is not None:
        return found
    stream = Incident(
        title=title_of(host),
        severity=SEVERITY,
        started_at=datetime.now(UTC),
        summary=f"Periodic captures of {host} by `stallscope-collect watch`.",
        watch_host=host,
    )
    try:
        with session.begin_nested():
            session.add(stream)
            session.flush()
    except IntegrityError:
        found = find_stream(session, host)
        if found is None:
            raise
        return found
    return stream
