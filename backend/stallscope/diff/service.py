"""Differential flame graphs: read both sides' stored stacks the flame graph's way, then diff them."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from typing import TypeVar

from sqlalchemy.orm import Session

from stallscope.analysis.diff import DiffResult, DiffTree, FunctionDelta, Normalize, diff_tree, top_functions
from stallscope.analysis.flame import StackWeight
from stallscope.captures.service import require_captures, unit_of
from stallscope.diff.schemas import DiffOut, FunctionOut, SideOut
from stallscope.flame import repository
from stallscope.flame.catalog import catalog
from stallscope.flame.schemas import SampleFilter
from stallscope.kit.errors import NotFound
from stallscope.models import Capture

Rows = list[tuple[str, int, int, int]]

TREE_CACHE_SIZE = 4
"""Merged trees kept: zooms into a diff prune them again instead of reading both sides again.
Parsed captures never change (a re-parse changes `parsed_at`, which is part of the key)."""
RESULT_CACHE_SIZE = 8
"""A shared link opened twice, Back and Forward, a second browser: the same answer is asked for again."""

_trees: OrderedDict[str, tuple[DiffTree, str | None, list[str]]] = OrderedDict()
_results: OrderedDict[str, DiffOut] = OrderedDict()
_cache_lock = threading.Lock()
V = TypeVar("V")


def _cached(cache: OrderedDict[str, V], key: str) -> V | None:
    with _cache_lock:
        found = cache.get(key)
        if found is not None:
            cache.move_to_end(key)
        return found


def _keep(cache: OrderedDict[str, V], key: str, value: V, size: int) -> None:
    with _cache_lock:
        cache[key] = value
        while len(cache) > size:
            cache.popitem(last=False)


def _event_and_choices(
    session: Session, a: SampleFilter, b: SampleFilter, event: str | None
) -> tuple[str | None, list[str]]:
    """The event both sides are read for, and what could have been chosen.

    As in the flame graph, different events are never summed: without a choice, the event sampled
    most over both sides. Off-CPU and /proc stack diffs have scheduler states instead, all summed
    unless one is set.
    """
    ids = sorted(set(a.capture_ids) | set(b.capture_ids))
    if a.source == "off-cpu":
        return None, [state for state, _ in repository.off_cpu_states(session, ids)]
    if a.source == "proc-stack":
        return None, [state for state, _ in repository.proc_stack_states(session, ids)]
    events = [name for name, _ in repository.event_counts(session, ids)]
    if event is None and events:
        event = events[0]
    return event, events


def _unit(captures: list[Capture], source: str, event: str | None) -> str:
    return "us" if source == "off-cpu" else unit_of(captures, event)


def _diff_tree(session: Session, a: SampleFilter, b: SampleFilter, normalize: Normalize) -> DiffTree:
    """Both sides read by the flame graph's own queries, frames resolved in one lookup."""
    rows_a = repository.stack_weights(session, a)
    rows_b = repository.stack_weights(session, b)
    stacks, frames = catalog.resolve(session, {stack for rows in (rows_a, rows_b) for _, stack, _, _ in rows})

    def weights(rows: Rows) -> Iterator[StackWeight]:
        return (StackWeight(comm, stacks[stack], weight, n) for comm, stack, weight, n in rows)

    return diff_tree(weights(rows_a), weights(rows_b), frames, normalize)


def _functions(result: DiffResult, top: int) -> list[FunctionDelta]:
    """The `top` by total change and the `top` by self change, so either sort of the table is full."""
    by_total = top_functions(result.functions, top, "total")
    chosen = {f.name for f in by_total}
    by_self = [f for f in top_functions(result.functions, top, "self") if f.name not in chosen]
    return top_functions(by_total + by_self, len(by_total) + len(by_self), "total")


def diff(
    session: Session,
    a: SampleFilter,
    b: SampleFilter,
    normalize: Normalize,
    max_nodes: int,
    top: int,
    focus: list[str],
    max_depth: int,
) -> DiffOut:
    captures = require_captures(session, a.capture_ids, "A") + require_captures(session, b.capture_ids, "B")
    versions = ",".join(
        sorted({f"{c.id}@{c.parsed_at.isoformat() if c.parsed_at else '-'}" for c in captures})
    )
    tree_key = f"{a.model_dump_json()}|{b.model_dump_json()}|{normalize}|{versions}"
    key = f"{tree_key}|{max_nodes}|{max_depth}|{top}|{focus}"
    cached = _cached(_results, key)
    if cached is not None:
        return cached
    found = _cached(_trees, tree_key)
    if found is None:
        event, events = _event_and_choices(session, a, b, a.event)
        a = a.model_copy(update={"event": event})
        b = b.model_copy(update={"event": event})
        found = (_diff_tree(session, a, b, normalize), event, events)
        _keep(_trees, tree_key, found, TREE_CACHE_SIZE)
    tree, event, events = found
    result = tree.result(focus, max_nodes, max_depth)
    if result is None:
        raise NotFound(f"the frame path {' > '.join(focus)} is in neither side of this diff")
    out = DiffOut(
        root=result.root,
        a=SideOut(captures=a.capture_ids, total=result.total_a, samples=result.samples_a),
        b=SideOut(captures=b.capture_ids, total=result.total_b, samples=result.samples_b),
        source=a.source,
        state=a.state,
        unit=_unit(captures, a.source, event),
        event=event,
        events=events,
        normalize=normalize,
        scale=result.scale,
        functions=[FunctionOut.of(f) for f in _functions(result, top)],
        function_count=len(result.functions),
        node_count=result.node_count,
        pruned_nodes=result.pruned_nodes,
        prune_threshold=result.prune_threshold,
        focus=focus,
        max_depth=max_depth,
        deep_nodes=result.deep_nodes,
        height=result.height,
    )
    _keep(_results, key, out, RESULT_CACHE_SIZE)
    return out
