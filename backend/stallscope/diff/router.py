"""HTTP route for differential flame graphs: `a.*` and `b.*` query parameters select each side.

No `from __future__ import annotations` here: the per-side parameters are declared by a factory, and
their aliases (`a.captures`, `b.captures`, ...) must be evaluated when it runs, not read back later.
"""

from collections.abc import Callable
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response

from stallscope.analysis.diff import Normalize
from stallscope.auth.guard import READ
from stallscope.auth.scope import SEE_QUERY
from stallscope.config import get_settings
from stallscope.deps import SessionDep
from stallscope.diff import service
from stallscope.diff.schemas import DiffOut
from stallscope.flame.router import (
    DEFAULT_MAX_DEPTH,
    MAX_NODE_BUDGET,
    FocusDep,
    MaxDepthQuery,
    SourceQuery,
    StateQuery,
)
from stallscope.flame.schemas import SampleFilter, WithinSecond
from stallscope.kit.errors import Invalid

router = APIRouter(tags=["diff"])

MAX_TOP = 10_000


def _capture_ids(prefix: str, raw: str | None) -> list[int]:
    try:
        return [int(part) for part in (raw or "").split(",") if part.strip()]
    except ValueError as exc:
        raise Invalid(f"{prefix}.captures must be comma-separated ids, got {raw!r}") from exc


def _within(prefix: str, raw: str | None) -> WithinSecond | None:
    if not raw:
        return None
    try:
        return WithinSecond.parse(raw)
    except ValueError as exc:
        raise Invalid(f"{prefix}.{exc}") from exc


def side_filter(prefix: str) -> Callable[..., SampleFilter]:
    """A dependency reading one side's filter from `<prefix>.captures`, `<prefix>.start`, ..."""

    def dependency(
        captures: Annotated[
            str | None, Query(alias=f"{prefix}.captures", description="Comma-separated capture ids")
        ] = None,
        start: Annotated[
            datetime | None, Query(alias=f"{prefix}.start", description="Inclusive, ISO 8601")
        ] = None,
        end: Annotated[
            datetime | None, Query(alias=f"{prefix}.end", description="Exclusive, ISO 8601")
        ] = None,
        pid: Annotated[int | None, Query(alias=f"{prefix}.pid")] = None,
        tid: Annotated[int | None, Query(alias=f"{prefix}.tid")] = None,
        comm: Annotated[
            str | None, Query(alias=f"{prefix}.comm", description="Process or thread name")
        ] = None,
        within: Annotated[
            str | None,
            Query(
                alias=f"{prefix}.within",
                description="Offsets in every second, µs: 0-20000, or !0-20000 for outside",
            ),
        ] = None,
    ) -> SampleFilter:
        if start is not None and end is not None and end <= start:
            raise Invalid(f"{prefix}.end must be after {prefix}.start")
        return SampleFilter(
            capture_ids=_capture_ids(prefix, captures),
            start=start,
            end=end,
            pid=pid,
            tid=tid,
            comm=comm or None,
            within=_within(prefix, within),
        )

    return dependency


SideA = Annotated[SampleFilter, Depends(side_filter("a"))]
SideB = Annotated[SampleFilter, Depends(side_filter("b"))]


@router.get("/api/diff", response_model=DiffOut, dependencies=[READ, SEE_QUERY])
def diff(
    session: SessionDep,
    a: SideA,
    b: SideB,
    focus: FocusDep,
    source: SourceQuery = "samples",
    state: StateQuery = None,
    event: Annotated[str | None, Query(description="CPU only: default the most sampled event")] = None,
    normalize: Annotated[
        Normalize, Query(description="total: scale A to B's total (compare shares); none: raw weights")
    ] = "total",
    max_nodes: Annotated[int | None, Query(ge=2, le=MAX_NODE_BUDGET)] = None,
    max_depth: MaxDepthQuery = None,
    top: Annotated[int, Query(ge=0, le=MAX_TOP, description="Functions per sort (total, self)")] = 50,
) -> Response:
    """B's flame tree with A's weights beside it (`a`, `b`, `delta`, `share_delta` on every node).

    `focus` (a JSON array of frame names) answers the subtree at that frame with a fresh node
    budget, as the flame graph does when a zoom reaches pruned detail; `max_depth` folds what lies
    deeper into "(deeper)" frames, as in the flame graph.

    Serialised without recursion, as the flame graph is: stacks nest deeper than pydantic's
    serialiser and the standard library's C encoder can follow.
    """
    shared = {
        "source": source,
        "state": (state or None) if source in ("off-cpu", "proc-stack") else None,
        "event": event or None,
    }
    body = service.diff_json(
        session,
        a.model_copy(update=shared),
        b.model_copy(update=shared),
        normalize,
        max_nodes or get_settings().flame_max_nodes,
        top,
        focus,
        max_depth or DEFAULT_MAX_DEPTH,
    )
    return Response(body, media_type="application/json")
