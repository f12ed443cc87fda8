"""HTTP routes for interop exports: a flame-graph view as pprof or speedscope, a timeline selection
as a Chrome trace."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query
from fastapi.responses import Response

from stallscope.auth.guard import READ
from stallscope.auth.scope import SEE_QUERY
from stallscope.deps import SessionDep
from stallscope.flame.router import FilterDep, FocusDep
from stallscope.interop import service
from stallscope.interop.pprof import encode_pprof
from stallscope.interop.speedscope import encode_speedscope
from stallscope.kit.errors import Invalid
from stallscope.timeline.router import SelectionDep

router = APIRouter(tags=["interop"])

ProfileFormat = Literal["pprof", "speedscope"]
TraceFormat = Literal["chrome"]


def _attachment(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"'}


@router.get(
    "/api/flame/export",
    dependencies=[READ, SEE_QUERY],
    response_class=Response,
    responses={
        200: {
            "content": {"application/octet-stream": {}, "application/json": {}},
            "description": "pprof's gzipped protobuf, or speedscope's JSON file",
        }
    },
)
def flame_export(
    session: SessionDep,
    flt: FilterDep,
    focus: FocusDep,
    profile_format: Annotated[
        ProfileFormat, Query(alias="format", description="pprof (gzipped protobuf) or speedscope (JSON)")
    ],
) -> Response:
    """The view `/api/flame/folded` gives, as pprof or speedscope: the same stacks, the same total."""
    profile = service.flame_profile(session, flt, focus)
    stem = "stallscope-" + "-".join(map(str, flt.capture_ids))
    if profile_format == "pprof":
        return Response(
            encode_pprof(profile), media_type="application/octet-stream", headers=_attachment(f"{stem}.pb.gz")
        )
    return Response(
        encode_speedscope(profile),
        media_type="application/json",
        headers=_attachment(f"{stem}.speedscope.json"),
    )


def _zoned(name: str, value: datetime | None) -> datetime | None:
    if value is not None and value.tzinfo is None:
        raise Invalid(f"{name} needs a time zone (e.g. 2026-11-21T08:03:00.000001Z)")
    return value


@router.get(
    "/api/timeline/export",
    dependencies=[READ, SEE_QUERY],
    response_class=Response,
    responses={200: {"content": {"application/json": {}}, "description": "A Chrome trace-event JSON file"}},
)
def timeline_export(
    session: SessionDep,
    sel: SelectionDep,
    trace_format: Annotated[TraceFormat, Query(alias="format", description="chrome: trace-event JSON")],
    start: Annotated[datetime | None, Query(description="Inclusive, ISO 8601 with a zone")] = None,
    end: Annotated[datetime | None, Query(description="Exclusive, ISO 8601 with a zone")] = None,
    limit: Annotated[
        int, Query(ge=1, le=service.MAX_TRACE_EVENTS, description="Samples and events at most")
    ] = service.MAX_TRACE_EVENTS,
) -> Response:
    """The selection's samples and timed events as Chrome trace-event JSON (Perfetto UI, chrome://tracing).

    At most `limit` samples and events (`MAX_TRACE_EVENTS` by default and at most); past it the
    trace stops at a time, and its `otherData` says when and how many were left out.
    """
    first, last = _zoned("start", start), _zoned("end", end)
    if first is not None and last is not None and last <= first:
        raise Invalid("end must be after start")
    trace = service.timeline_trace(session, sel, first, last, limit)
    body = json.dumps(trace, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "replace")
    name = f"stallscope-incident-{sel.incident_id}.trace.json"
    return Response(body, media_type="application/json", headers=_attachment(name))
