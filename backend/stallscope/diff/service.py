"""Differential flame graphs: both sides' stack weights, read the flame graph's way, weighed on one
call-site tree of all their captures with frames merged by name (`analysis/callsite_diff.py`)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from stallscope.analysis import callsite_diff
from stallscope.analysis.callsite_diff import NamedTree, WeighedDiff
from stallscope.analysis.diff import DiffResult, FunctionDelta, Normalize, top_functions
from stallscope.analysis.event_choice import offered_events
from stallscope.captures.service import require_captures, unit_of
from stallscope.diff.schemas import FunctionOut, SideOut
from stallscope.flame import callsite_trees, repository
from stallscope.flame.answer_cache import answer_cache
from stallscope.flame.catalog import catalog
from stallscope.flame.schemas import SampleFilter
from stallscope.flame.stack_rows import StackWeightArrays, from_sample_times, stack_weight_arrays
from stallscope.flame.tree_json import payload_with_tree
from stallscope.kit.errors import NotFound, Unavailable
from stallscope.kit.lru import LruCache
from stallscope.kit.malloc import give_back
from stallscope.kit.units import view_unit
from stallscope.models import Capture

NAMED_CACHE_SIZE = 2
"""Trees merged by name, per set of captures: every filter of a diff over them reuses one."""
TREE_CACHE_SIZE = 1
"""Weighed diffs kept (the last: 28 MB for two 350,000-node sides): zooms into it prune it again
instead of reading both sides again. Parsed captures never change (a re-parse changes `parsed_at`,
which is part of the key)."""

_named: LruCache[str, NamedTree] = LruCache(max_entries=NAMED_CACHE_SIZE)
_trees: LruCache[str, tuple[WeighedDiff, str | None, list[str]]] = LruCache(max_entries=TREE_CACHE_SIZE)
_answers = answer_cache(12 * 1024 * 1024)
"""A shared link opened twice, Back and Forward, a second browser: the same answer is asked for again."""
_side_readers = ThreadPoolExecutor(max_workers=2, thread_name_prefix="diff-side")


def clear_caches() -> None:
    """Forget every tree, weighed diff and answer (benchmarks measure first requests with this)."""
    _named.clear()
    _trees.clear()
    _answers.clear()


def _event_and_choices(
    session: Session, a: SampleFilter, b: SampleFilter, event: str | None
) -> tuple[str | None, list[str]]:
    """The event both sides are read for, and what could have been chosen.

    As in the flame graph, different events are never summed: without a choice, the default of
    `analysis.event_choice` over both sides. Off-CPU and /proc stack diffs have scheduler states
    instead, all summed unless one is set.
    """
    ids = sorted(set(a.capture_ids) | set(b.capture_ids))
    if a.source == "off-cpu":
        return None, [state for state, _ in repository.off_cpu_states(session, ids)]
    if a.source == "proc-stack":
        return None, [state for state, _ in repository.proc_stack_states(session, ids)]
    events = offered_events(repository.event_counts(session, ids))
    if event is None and events:
        event = events[0]
    return event, events


def _versions(captures: list[Capture]) -> str:
    return ",".join(sorted({f"{c.id}@{c.parsed_at.isoformat() if c.parsed_at else '-'}" for c in captures}))


def _named_tree(session: Session, captures: list[Capture]) -> NamedTree:
    key = _versions(captures)
    found = _named.get(key)
    if found is None:
        found = callsite_trees.trees.named_for(session, captures)
        _named.put(key, found)
    return found


def _weighed_diff(
    session: Session, a: SampleFilter, b: SampleFilter, normalize: Normalize, captures: list[Capture]
) -> WeighedDiff:
    """Both sides read by the flame graph's own queries and weighed on one tree of all their captures.

    A pair the tree lacks means a stale tree: rebuilt once, as the flame graph does."""
    reading = _read_sides(session, [a, b], captures)
    named = _named_tree(session, captures)  # while the database aggregates the sides
    named.functions()
    rows_a, rows_b = reading()
    for attempt in range(2):
        if attempt:
            named = _named_tree(session, captures)
        leaves_a = named.tree.leaves(rows_a.comms, rows_a.stacks)
        leaves_b = named.tree.leaves(rows_b.comms, rows_b.stacks)
        if (leaves_a >= 0).all() and (leaves_b >= 0).all():
            return callsite_diff.weigh_sides(
                named,
                leaves_a,
                _weights(rows_a),
                leaves_b,
                _weights(rows_b),
                normalize,
            )
        if attempt == 0:
            callsite_trees.trees.forget(captures)
            _named.forget(_versions(captures))
    raise Unavailable(
        "some stacks of this diff are missing from the flame-graph data kept with its captures: "
        "re-parse the captures to rebuild it"
    )


def _read_sides(
    session: Session, sides: list[SampleFilter], captures: list[Capture]
) -> Callable[[], list[StackWeightArrays]]:
    """Start reading each side's stack weights; the call returned waits for them.

    A side the captures' sample arrays answer is summed here and now (milliseconds). The others are
    aggregated by the database: with an engine to connect with, at once on their own connections,
    while this thread goes on (the database aggregates both on two cores; the named tree is built
    meanwhile); a session bound to one connection reads them in turn, when waited for."""
    local = [from_sample_times(session, side, _of(side, captures)) for side in sides]
    bind = session.get_bind()
    if not isinstance(bind, Engine):
        return lambda: [
            found or stack_weight_arrays(repository.stack_weight_columns(session, side))
            for found, side in zip(local, sides, strict=True)
        ]
    pending = {
        i: _side_readers.submit(_read_side, bind, side) for i, side in enumerate(sides) if local[i] is None
    }

    def waited() -> list[StackWeightArrays]:
        return [pending[i].result() if found is None else found for i, found in enumerate(local)]

    return waited


def _of(side: SampleFilter, captures: list[Capture]) -> list[Capture]:
    return [c for c in captures if c.id in side.capture_ids]


def _read_side(bind: Engine, side: SampleFilter) -> StackWeightArrays:
    with Session(bind=bind) as side_session:
        return stack_weight_arrays(repository.stack_weight_columns(side_session, side))


def _weights(rows: StackWeightArrays) -> tuple[np.ndarray, np.ndarray]:
    return rows.weights, rows.samples


def _functions(result: DiffResult, top: int) -> list[FunctionDelta]:
    """The `top` by total change and the `top` by self change, so either sort of the table is full."""
    by_total = top_functions(result.functions, top, "total")
    chosen = {f.name for f in by_total}
    by_self = [f for f in top_functions(result.functions, top, "self") if f.name not in chosen]
    return top_functions(by_total + by_self, len(by_total) + len(by_self), "total")


def diff_json(
    session: Session,
    a: SampleFilter,
    b: SampleFilter,
    normalize: Normalize,
    max_nodes: int,
    top: int,
    focus: list[str],
    max_depth: int,
) -> bytes:
    """The diff's answer as the JSON body sent, from the cache of answers when it was just asked."""
    captures = require_captures(session, a.capture_ids, "A") + require_captures(session, b.capture_ids, "B")
    versions = _versions(captures)
    tree_key = f"{a.model_dump_json()}|{b.model_dump_json()}|{normalize}|{versions}"
    key = f"{tree_key}|{max_nodes}|{max_depth}|{top}|{focus}"
    cached = _answers.get(key)
    if cached is not None:
        return cached
    found = _trees.get(tree_key)
    if found is None:
        event, events = _event_and_choices(session, a, b, a.event)
        a = a.model_copy(update={"event": event})
        b = b.model_copy(update={"event": event})
        unique = list({c.id: c for c in captures}.values())
        found = (_weighed_diff(session, a, b, normalize, unique), event, events)
        _trees.put(tree_key, found)
    weighed, event, events = found
    lookup = catalog.lookup(session)
    node = callsite_diff.find(weighed, focus, lookup)
    if node is None:
        raise NotFound(f"the frame path {' > '.join(focus)} is in neither side of this diff")
    result = callsite_diff.result(weighed, node, max_nodes, max_depth, lookup, top)
    assert result.text is not None  # written from arrays
    fields: dict[str, Any] = {
        "a": SideOut(captures=a.capture_ids, total=result.total_a, samples=result.samples_a).model_dump(),
        "b": SideOut(captures=b.capture_ids, total=result.total_b, samples=result.samples_b).model_dump(),
        "source": a.source,
        "state": a.state,
        "unit": view_unit(a.source, unit_of(captures, event)),
        "event": event,
        "events": events,
        "normalize": normalize,
        "scale": result.scale,
        "functions": [FunctionOut.of(f).model_dump(mode="json") for f in _functions(result, top)],
        "function_count": (len(result.functions) if result.function_count is None else result.function_count),
        "node_count": result.node_count,
        "pruned_nodes": result.pruned_nodes,
        "prune_threshold": result.prune_threshold,
        "focus": focus,
        "max_depth": max_depth,
        "deep_nodes": result.deep_nodes,
        "height": result.height,
    }
    body = payload_with_tree(fields, result.text)
    del fields, result
    give_back()  # what building the view freed (kit/malloc.py)
    _answers.put(key, body)
    return body
