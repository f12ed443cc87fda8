"""HTTP routes for flame graphs, folded downloads and the filters a view can offer."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import PlainTextResponse, Response

from stallscope.auth.guard import READ
from stallscope.auth.scope import SEE_QUERY, SEE_STACK
from stallscope.config import get_settings
from stallscope.deps import SessionDep
from stallscope.flame import service
from stallscope.flame.catalog import catalog
from stallscope.flame.repository import stack_exists
from stallscope.flame.schemas import FacetsOut, FlameAnswer, FlameSource, FrameOut, SampleFilter, WithinSecond
from stallscope.kit.errors import Invalid, NotFound

router = APIRouter(tags=["flame"])

MAX_NODE_BUDGET = 500_000

DEFAULT_MAX_DEPTH = 256
"""Levels below the shown frame sent by default: twice perf's default stack limit (127).

A 100,000-frame stack cannot be drawn: d3-flame-graph gives every level 20 pixels (2 million for
that stack) and every frame on the way a DOM element, a canvas for the PNG export stops near 32k
pixels, and a zoom path that long does not fit in a URL. JSON readers give up too: Python's `json`
stops near 1,000 nested containers, which is 500 tree levels (a node and its list of children).
256 levels are a 5,000-pixel chart that any client can read. Deeper frames arrive folded into a
"(deeper)" child with their weight and count; a zoom to its parent fetches the next 256 levels, as
zooms already fetch pruned detail.
"""
MAX_DEPTH_BUDGET = 1_000_000
"""Enough for any stack a capture can hold; the answer is serialised without recursion."""


def parse_capture_ids(raw: str) -> list[int]:
    try:
        return [int(part) for part in raw.split(",") if part.strip()]
    except ValueError as exc:
        raise Invalid(f"captures must be comma-separated ids, got {raw!r}") from exc


SourceQuery = Annotated[
    FlameSource, Query(description="samples, off-cpu (µs blocked) or proc-stack (/proc stack samples)")
]
StateQuery = Annotated[
    str | None, Query(description="Off-CPU and proc-stack only: one scheduler state, e.g. D")
]
"""The stack source and state filter the flame graph and the diff share."""


def sample_filter(
    captures: Annotated[str, Query(description="Comma-separated capture ids")],
    event: str | None = None,
    pid: int | None = None,
    tid: int | None = None,
    comm: str | None = None,
    source: SourceQuery = "samples",
    state: StateQuery = None,
    start: Annotated[datetime | None, Query(description="Inclusive, ISO 8601")] = None,
    end: Annotated[datetime | None, Query(description="Exclusive, ISO 8601")] = None,
    within: Annotated[
        str | None, Query(description="Offsets in every second, µs: 0-20000, or !0-20000 for outside")
    ] = None,
) -> SampleFilter:
    return SampleFilter(
        capture_ids=parse_capture_ids(captures),
        event=event or None,
        pid=pid,
        tid=tid,
        comm=comm or None,
        source=source,
        state=state or None,
        start=start,
        end=end,
        within=_within(within),
    )


def _within(raw: str | None) -> WithinSecond | None:
    if not raw:
        return None
    try:
        return WithinSecond.parse(raw)
    except ValueError as exc:
        raise Invalid(str(exc)) from exc


def focus_path(
    focus: Annotated[str | None, Query(description="JSON array of frame names from the root")] = None,
) -> list[str]:
    if not focus:
        return []
    try:
        path = json.loads(focus)
    except json.JSONDecodeError as exc:
        raise Invalid(f"focus must be a JSON array of frame names: {exc}") from exc
    if not isinstance(path, list) or not all(isinstance(p, str) for p in path):
        raise Invalid("focus must be a JSON array of frame names")
    return path


FilterDep = Annotated[SampleFilter, Depends(sample_filter)]
FocusDep = Annotated[list[str], Depends(focus_path)]
MaxDepthQuery = Annotated[
    int | None,
    Query(ge=1, le=MAX_DEPTH_BUDGET, description="Levels below the shown frame; the rest fold into (deeper)"),
]


@router.get("/api/flame", response_model=FlameAnswer, dependencies=[READ, SEE_QUERY])
def flame_graph(
    session: SessionDep,
    flt: FilterDep,
    focus: FocusDep,
    max_nodes: Annotated[int | None, Query(ge=2, le=MAX_NODE_BUDGET)] = None,
    max_depth: MaxDepthQuery = None,
) -> Response:
    """d3-flame-graph's JSON tree, pruned to `max_nodes` with the rest folded into "(other)", and
    to `max_depth` levels with the rest folded into "(deeper)".

    The tree is written as text from arrays (`analysis/tree_text.py`), without recursion: stacks
    nest deeper than pydantic's serialiser and the standard library's C encoder can follow.
    """
    body = service.flame_graph_json(
        session,
        flt,
        focus,
        max_nodes or get_settings().flame_max_nodes,
        max_depth or DEFAULT_MAX_DEPTH,
    )
    return Response(body, media_type="application/json")


@router.get("/api/flame/folded", response_class=PlainTextResponse, dependencies=[READ, SEE_QUERY])
def folded(session: SessionDep, flt: FilterDep, focus: FocusDep) -> PlainTextResponse:
    """The same view as folded stacks, for flamegraph.pl, inferno, speedscope and friends."""
    body = service.folded(session, flt, focus)
    name = "stallscope-" + "-".join(map(str, flt.capture_ids)) + ".folded"
    return PlainTextResponse(body, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/api/stacks/{stack_id}", dependencies=[READ, SEE_STACK])
def stack_frames(stack_id: int, session: SessionDep) -> list[FrameOut]:
    """A stored stack's frames, root first (events carry stack ids)."""
    if not stack_exists(session, stack_id):
        raise NotFound(f"stack {stack_id} does not exist")
    stacks, frames = catalog.resolve(session, [stack_id])
    return [FrameOut(name=frames[f].name, kind=frames[f].kind) for f in stacks[stack_id]]


@router.get("/api/facets", dependencies=[READ, SEE_QUERY])
def facets(session: SessionDep, flt: FilterDep) -> FacetsOut:
    return service.facets(session, flt)
