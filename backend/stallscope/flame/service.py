"""Flame-graph use cases: resolve the view's filter, weigh the captures' call-site tree, prune or fold it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from stallscope.analysis.event_choice import offered_events
from stallscope.analysis.folded_view import folded_stacks
from stallscope.analysis.weighed_tree import FrameLookup, Namer, WeighedTree, find, prune, weigh
from stallscope.captures.service import require_captures, unit_of
from stallscope.flame import callsite_trees, repository
from stallscope.flame.answer_cache import answer_cache
from stallscope.flame.catalog import catalog
from stallscope.flame.schemas import EventFacet, FacetsOut, FlameOut, SampleFilter
from stallscope.flame.stack_rows import StackWeightArrays, stack_rows
from stallscope.flame.tree_json import payload_with_tree
from stallscope.kit.errors import NotFound, Unavailable
from stallscope.kit.lru import LruCache
from stallscope.kit.malloc import give_back
from stallscope.kit.units import view_unit
from stallscope.models import Capture

WEIGHED_CACHE_BYTES = 16 * 1024 * 1024
"""Weighed trees kept for zooms and other budgets (40 bytes a node: a 350,000-node view takes 14 MB)."""

_weighed_cache: LruCache[str, WeighedTree] = LruCache(
    max_size=WEIGHED_CACHE_BYTES, size=lambda weighed: weighed.columns.nbytes
)
_answers = answer_cache(16 * 1024 * 1024)


def clear_caches() -> None:
    """Forget every weighed view (benchmarks measure first requests with this)."""
    _weighed_cache.clear()
    _answers.clear()


def _with_default_event(session: Session, flt: SampleFilter) -> tuple[SampleFilter, list[str]]:
    """Different events are never summed: without a choice, the default of `analysis.event_choice`.

    Off-CPU and /proc stack graphs have scheduler states where CPU graphs have events; all states
    are summed unless one is chosen, because blocked time is blocked time whatever the reason.
    """
    if flt.source == "off-cpu":
        return flt.model_copy(update={"event": None}), [
            s for s, _ in repository.off_cpu_states(session, flt.capture_ids)
        ]
    if flt.source == "proc-stack":
        return flt.model_copy(update={"event": None}), [
            s for s, _ in repository.proc_stack_states(session, flt.capture_ids)
        ]
    events = offered_events(repository.event_counts(session, flt.capture_ids))
    if flt.event is None and events:
        flt = flt.model_copy(update={"event": events[0]})
    return flt, events


def _cache_key(flt: SampleFilter, captures: list[Capture]) -> str:
    versions = ",".join(f"{c.id}@{c.parsed_at.isoformat() if c.parsed_at else '-'}" for c in captures)
    return f"{flt.model_dump_json()}|{versions}"


def weighed_view(session: Session, flt: SampleFilter, captures: list[Capture]) -> WeighedTree:
    """The captures' call-site tree weighed by the filter's stack weights; the last few are kept."""
    key = _cache_key(flt, captures)
    cached = _weighed_cache.get(key)
    if cached is not None:
        return cached
    if _reads_whole_captures(flt):
        assert flt.event is not None
        tree, leaves, weights, samples = callsite_trees.trees.whole_weights(session, captures, flt.event)
        weighed = weigh(tree, leaves, weights, samples)
    else:
        weighed = weigh_rows(session, captures, stack_rows(session, flt, captures))
    _weighed_cache.put(key, weighed)
    return weighed


def _reads_whole_captures(flt: SampleFilter) -> bool:
    """Whether the captures' trees hold the view's weights: one CPU event over whole captures, for
    every process and thread (what `capture_stack_totals` answers, kept with each tree)."""
    return (
        flt.source == "samples"
        and flt.event is not None
        and flt.is_whole_capture
        and flt.pid is None
        and flt.tid is None
        and flt.comm is None
    )


def weigh_rows(session: Session, captures: list[Capture], rows: StackWeightArrays) -> WeighedTree:
    """Rows on the captures' tree. A pair the tree lacks means the tree is stale: rebuilt once."""
    tree = callsite_trees.trees.tree_for(session, captures)
    leaves = tree.leaves(rows.comms, rows.stacks)
    if (leaves < 0).any():
        callsite_trees.trees.forget(captures)
        tree = callsite_trees.trees.tree_for(session, captures)
        leaves = tree.leaves(rows.comms, rows.stacks)
        if (leaves < 0).any():
            missing = int((leaves < 0).sum())
            raise Unavailable(
                f"{missing} stacks of this view are missing from the flame-graph data kept with its "
                "captures: re-parse the captures to rebuild it"
            )
    return weigh(tree, leaves, rows.weights, rows.samples)


def _focused(weighed: WeighedTree, namer: Namer, focus: list[str]) -> int:
    node = find(weighed, namer, focus)
    if node is None:
        raise NotFound(f"the frame path {' > '.join(focus)} is not in this view")
    return node


def flame_graph_json(
    session: Session, flt: SampleFilter, focus: list[str], max_nodes: int, max_depth: int
) -> bytes:
    """`flame_graph`'s answer as the JSON body sent, from the cache of answers when it was just asked."""
    captures = require_captures(session, flt.capture_ids)
    flt, events = _with_default_event(session, flt)
    key = f"{_cache_key(flt, captures)}|{json.dumps(focus)}|{max_nodes}|{max_depth}"
    body = _answers.get(key)
    if body is None:
        fields, text = _flame_graph(session, captures, flt, events, focus, max_nodes, max_depth)
        body = payload_with_tree(fields, text)
        del fields, text
        give_back()  # what building the view freed (kit/malloc.py)
        _answers.put(key, body)
    return body


def flame_graph(
    session: Session, flt: SampleFilter, focus: list[str], max_nodes: int, max_depth: int
) -> FlameOut:
    captures = require_captures(session, flt.capture_ids)
    flt, events = _with_default_event(session, flt)
    fields, text = _flame_graph(session, captures, flt, events, focus, max_nodes, max_depth)
    return FlameOut(root=json.loads(text), **fields)


def _flame_graph(
    session: Session,
    captures: list[Capture],
    flt: SampleFilter,
    events: list[str],
    focus: list[str],
    max_nodes: int,
    max_depth: int,
) -> tuple[dict[str, Any], str]:
    """The answer's fields (`FlameOut`'s, but its tree), and its tree as JSON text."""
    weighed = weighed_view(session, flt, captures)
    namer = Namer(weighed.tree, catalog.lookup(session))
    node = _focused(weighed, namer, focus)
    pruned = prune(weighed, namer, node, max_nodes, max_depth)
    assert pruned.text is not None  # written from arrays
    fields: dict[str, Any] = {
        "total": int(weighed.value[node]),
        "total_samples": int(weighed.samples[node]),
        "unit": view_unit(flt.source, unit_of(captures, flt.event)),
        "event": flt.event,
        "events": events,
        "node_count": pruned.node_count,
        "pruned_nodes": pruned.pruned_nodes,
        "prune_threshold": pruned.prune_threshold,
        "focus": focus,
        "max_depth": max_depth,
        "deep_nodes": pruned.deep_nodes,
        "height": pruned.height,
    }
    return fields, pruned.text


def folded(session: Session, flt: SampleFilter, focus: list[str]) -> str:
    """The view as folded stacks, `comm;frame;... weight`, byte-compatible with stackcollapse-perf."""
    view = resolve_view(session, flt, focus)
    lines = folded_stacks(view.weighed, view.node, focus, view.lookup)
    return "".join(f"{stack} {weight}\n" for stack, weight in lines)


@dataclass(frozen=True, slots=True)
class ResolvedView:
    """A view's weighed call-site tree and focused node, its filter with the default event chosen,
    its captures and its unit: what the folded, pprof and speedscope exports are made from."""

    weighed: WeighedTree
    node: int
    lookup: FrameLookup
    """Frame names and kinds, for the session the view was resolved in."""
    flt: SampleFilter
    captures: list[Capture]
    unit: str


def resolve_view(session: Session, flt: SampleFilter, focus: list[str]) -> ResolvedView:
    captures = require_captures(session, flt.capture_ids)
    flt, _ = _with_default_event(session, flt)
    weighed = weighed_view(session, flt, captures)
    lookup = catalog.lookup(session)
    node = _focused(weighed, Namer(weighed.tree, lookup), focus)
    unit = view_unit(flt.source, unit_of(captures, flt.event))
    return ResolvedView(weighed, node, lookup, flt, captures, unit)


def facets(session: Session, flt: SampleFilter) -> FacetsOut:
    captures = require_captures(session, flt.capture_ids)
    units = {e["name"]: e.get("unit", "samples") for c in captures for e in c.events}
    starts = [c.time_start for c in captures if c.time_start is not None]
    ends = [c.time_end for c in captures if c.time_end is not None]
    time_start: datetime | None = min(starts) if starts else None
    time_end: datetime | None = max(ends) if ends else None
    return FacetsOut(
        events=[
            EventFacet(name=name, samples=count, unit=str(units.get(name, "samples")))
            for name, count in repository.event_counts(session, flt.capture_ids)
        ],
        processes=repository.process_facets(session, flt),
        threads=repository.thread_facets(session, flt),
        time_start=time_start,
        time_end=time_end,
    )
