"""Flame-graph use cases: resolve the view's filter, build (or reuse) the tree, prune or fold it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from stallscope.analysis.flame import (
    FlameNode,
    FlameTree,
    StackWeight,
    build_flame_tree,
    find_focus,
    folded_lines,
    prune_tree,
)
from stallscope.captures.service import require_captures, unit_of
from stallscope.flame import repository
from stallscope.flame.catalog import catalog
from stallscope.flame.schemas import EventFacet, FacetsOut, FlameOut, SampleFilter
from stallscope.ingest.proc_stacks import events as proc_stack_events
from stallscope.kit.errors import NotFound
from stallscope.models import Capture

TREE_CACHE_SIZE = 3
"""Trees are rebuilt for every zoom fetch otherwise; a few recent ones cover a person's session."""

_tree_cache: OrderedDict[str, FlameTree] = OrderedDict()
_tree_cache_lock = threading.Lock()


def _with_default_event(session: Session, flt: SampleFilter) -> tuple[SampleFilter, list[str]]:
    """Different events are never summed: without a choice, the most sampled CPU event is shown.

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
    # /proc stack samples are threads' kernel stacks, not CPU samples: offered last, never the default
    # while a CPU event exists (their R and S dumps would outnumber a few seconds of perf samples).
    events = sorted(
        (name for name, _ in repository.event_counts(session, flt.capture_ids)),
        key=proc_stack_events.is_proc_stack_event,
    )
    if flt.event is None and events:
        flt = flt.model_copy(update={"event": events[0]})
    return flt, events


def _cache_key(flt: SampleFilter, captures: list[Capture]) -> str:
    versions = ",".join(f"{c.id}@{c.parsed_at.isoformat() if c.parsed_at else '-'}" for c in captures)
    return f"{flt.model_dump_json()}|{versions}"


def _tree(session: Session, flt: SampleFilter, captures: list[Capture]) -> FlameTree:
    key = _cache_key(flt, captures)
    with _tree_cache_lock:
        cached = _tree_cache.get(key)
        if cached is not None:
            _tree_cache.move_to_end(key)
            return cached
    aggregated = repository.stack_weights(session, flt)
    stacks, frames = catalog.resolve(session, {stack_id for _, stack_id, _, _ in aggregated})
    rows = [StackWeight(comm, stacks[stack_id], weight, n) for comm, stack_id, weight, n in aggregated]
    tree = build_flame_tree(rows, frames)
    with _tree_cache_lock:
        _tree_cache[key] = tree
        while len(_tree_cache) > TREE_CACHE_SIZE:
            _tree_cache.popitem(last=False)
    return tree


def _focused(tree: FlameTree, focus: list[str]) -> FlameNode:
    node = find_focus(tree.root, focus)
    if node is None:
        raise NotFound(f"the frame path {' > '.join(focus)} is not in this view")
    return node


def flame_graph(
    session: Session, flt: SampleFilter, focus: list[str], max_nodes: int, max_depth: int
) -> FlameOut:
    captures = require_captures(session, flt.capture_ids)
    flt, events = _with_default_event(session, flt)
    tree = _tree(session, flt, captures)
    node = _focused(tree, focus)
    pruned = prune_tree(node, max_nodes, max_depth)
    return FlameOut(
        root=pruned.root,
        total=node.value,
        total_samples=node.samples,
        unit="us" if flt.source == "off-cpu" else unit_of(captures, flt.event),
        event=flt.event,
        events=events,
        node_count=pruned.node_count,
        pruned_nodes=pruned.pruned_nodes,
        prune_threshold=pruned.prune_threshold,
        focus=focus,
        max_depth=max_depth,
        deep_nodes=pruned.deep_nodes,
        height=pruned.height,
    )


def folded(session: Session, flt: SampleFilter, focus: list[str]) -> str:
    """The view as folded stacks, `comm;frame;... weight`, byte-compatible with stackcollapse-perf."""
    view = resolve_view(session, flt, focus)
    return "".join(f"{stack} {weight}\n" for stack, weight in folded_lines(view.node, focus))


@dataclass(frozen=True, slots=True)
class ResolvedView:
    """A view's whole (unpruned) tree and focused node, its filter with the default event chosen,
    its captures and its unit: what the folded, pprof and speedscope exports are made from."""

    tree: FlameTree
    node: FlameNode
    flt: SampleFilter
    captures: list[Capture]
    unit: str


def resolve_view(session: Session, flt: SampleFilter, focus: list[str]) -> ResolvedView:
    captures = require_captures(session, flt.capture_ids)
    flt, _ = _with_default_event(session, flt)
    tree = _tree(session, flt, captures)
    unit = "us" if flt.source == "off-cpu" else unit_of(captures, flt.event)
    return ResolvedView(tree, _focused(tree, focus), flt, captures, unit)


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
