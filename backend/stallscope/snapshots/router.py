"""HTTP routes for snapshots: an incident's list, and the config diff between two of them."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from stallscope.auth.guard import READ, Reader
from stallscope.auth.scope import SEE_INCIDENT, SEE_QUERY
from stallscope.deps import SessionDep
from stallscope.kit.errors import Invalid
from stallscope.snapshots import service
from stallscope.snapshots.schemas import ConfigDiffOut, SnapshotRef

router = APIRouter(tags=["snapshots"])

SIDE_HELP = "CAPTURE or CAPTURE:TAKE (take 0, the first, when left out)"


@router.get("/api/incidents/{incident_id}/snapshots", dependencies=[READ, SEE_INCIDENT])
def list_snapshots(incident_id: int, session: SessionDep, principal: Reader) -> list[SnapshotRef]:
    """Every snapshot of the incident's captures, one per take, by capture then take."""
    snapshots = service.list_snapshots(session, incident_id)
    if principal.capture_ids is None:
        return snapshots
    return [s for s in snapshots if s.capture_id in principal.capture_ids]


@router.get("/api/snapshots/diff", dependencies=[READ, SEE_QUERY])
def config_diff(
    session: SessionDep,
    a: Annotated[str, Query(description=SIDE_HELP)],
    b: Annotated[str, Query(description=SIDE_HELP)],
) -> ConfigDiffOut:
    """B's configuration against A's: two hosts, or the start and end takes of one snapshot."""
    return service.config_diff(session, _side("a", a), _side("b", b))


def _side(name: str, text: str) -> tuple[int, int]:
    capture, _, take = text.partition(":")
    if not capture.strip().isdigit() or (take and not take.strip().isdigit()):
        raise Invalid(f"{name}={text!r}: expected CAPTURE or CAPTURE:TAKE, e.g. {name}=12:1")
    return int(capture), int(take or 0)
