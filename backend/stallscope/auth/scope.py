"""Dependencies that keep each request inside what its principal may see: the incident, capture,
annotation, metric series or stack a path names, and the incident and captures a query names.

They run after the route's permission (`guard.py` sets `request.state.principal`) and answer 404 for
what the principal may not see, as for what does not exist. Routes declare them beside their
permission: `dependencies=[READ, SEE_INCIDENT]`.
"""

from __future__ import annotations

import re

from fastapi import Depends, Request
from sqlalchemy import text
from sqlalchemy.orm import Session

from stallscope.auth import access
from stallscope.auth.principal import Principal
from stallscope.deps import SessionDep
from stallscope.kit.errors import Invalid, NotFound

CAPTURE_LIST_KEYS = ("captures", "a.captures", "b.captures")
SNAPSHOT_SIDE_KEYS = ("a", "b")
"""The config diff's sides: CAPTURE or CAPTURE:TAKE."""


def principal_of(request: Request) -> Principal:
    principal = getattr(request.state, "principal", None)
    assert isinstance(principal, Principal), "a scope dependency runs after the route's permission"
    return principal


def _owner(session: Session, sql: str, object_id: int) -> int | None:
    row = session.execute(text(sql), {"id": object_id}).first()
    return None if row is None else int(row[0])


def see_incident(incident_id: int, request: Request, session: SessionDep) -> None:
    access.require_incident(session, principal_of(request), incident_id)


def see_capture(capture_id: int, request: Request, session: SessionDep) -> None:
    access.require_captures(session, principal_of(request), [capture_id])


def see_annotation(annotation_id: int, request: Request, session: SessionDep) -> None:
    incident = _owner(session, "SELECT incident_id FROM annotations WHERE id = :id", annotation_id)
    if incident is None:
        raise NotFound(f"annotation {annotation_id} does not exist")
    access.require_incident(session, principal_of(request), incident)


def see_series(series_id: int, request: Request, session: SessionDep) -> None:
    capture = _owner(session, "SELECT capture_id FROM metric_series WHERE id = :id", series_id)
    if capture is None:
        raise NotFound(f"series {series_id} does not exist")
    access.require_captures(session, principal_of(request), [capture])


def see_stack(stack_id: int, request: Request, session: SessionDep) -> None:
    """Stacks are shared by every capture that holds them: one is shown to a principal who may see a
    capture holding it (admins see every stack)."""
    principal = principal_of(request)
    if principal.is_admin:
        return
    clause, params = access.incident_clause(principal)
    limited = "AND c.id = ANY(:scope_captures)" if principal.capture_ids is not None else ""
    if principal.capture_ids is not None:
        params["scope_captures"] = list(principal.capture_ids)
    held = session.execute(
        text(
            "SELECT 1 FROM captures c JOIN incidents i ON i.id = c.incident_id "
            f"WHERE {clause} {limited} AND (EXISTS (SELECT 1 FROM capture_stack_totals t "
            "WHERE t.capture_id = c.id AND t.stack_id = :stack) OR EXISTS (SELECT 1 FROM events e "
            "WHERE e.capture_id = c.id AND e.stack_id = :stack)) LIMIT 1"
        ),
        {"stack": stack_id, **params},
    ).first()
    if held is None:
        raise NotFound(f"stack {stack_id} does not exist")


def see_query(request: Request, session: SessionDep) -> None:
    """The incident (`incident=`) and captures (`captures=`, `a.captures=`, `b.captures=`, the
    config diff's `a=`/`b=`) a query names."""
    principal = principal_of(request)
    query = request.query_params
    incident = query.get("incident")
    if incident and incident.strip():
        if not incident.strip().isdigit():
            raise Invalid(f"incident must be an id, got {incident!r}")
        access.require_incident(session, principal, int(incident))
    elif principal.incident_id is not None and not any(
        query.get(k) for k in (*CAPTURE_LIST_KEYS, *SNAPSHOT_SIDE_KEYS)
    ):
        # A guest names its captures or its incident: never "every capture of every incident".
        raise NotFound("name the incident or the captures to read")
    if principal.capture_ids is not None and not any(
        query.get(k) for k in (*CAPTURE_LIST_KEYS, *SNAPSHOT_SIDE_KEYS)
    ):
        raise NotFound("this guest link shows chosen captures: name them (captures=…)")
    ids: list[int] = []
    for key in CAPTURE_LIST_KEYS:
        ids.extend(int(part) for part in re.findall(r"\d+", query.get(key, "")))
    for key in SNAPSHOT_SIDE_KEYS:
        side = query.get(key, "")
        if re.fullmatch(r"\s*\d+(:\d+)?\s*", side):
            ids.append(int(side.split(":")[0]))
    access.require_captures(session, principal, ids)


SEE_INCIDENT = Depends(see_incident)
SEE_CAPTURE = Depends(see_capture)
SEE_ANNOTATION = Depends(see_annotation)
SEE_SERIES = Depends(see_series)
SEE_STACK = Depends(see_stack)
SEE_QUERY = Depends(see_query)


def whole_incident(request: Request) -> None:
    """Routes that read every capture of an incident (its findings): not for a guest link limited to
    some captures, which would learn of the others through them."""
    principal = principal_of(request)
    if principal.capture_ids is not None:
        raise NotFound("this guest link shows chosen captures; the incident's findings cover all of them")


WHOLE_INCIDENT = Depends(whole_incident)
