"""Call-site trees against the object trees they replace: the same answers, node for node.

Profiles are random; each stack's weight is a distinct power of two, so two nodes weigh the same only
when the same stacks pass through both, which makes one the other's ancestor: both implementations
then keep the ancestor first, and their pruned answers must be identical, not just similar.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stallscope.analysis import callsite_diff
from stallscope.analysis.callsites import TREE_ARRAYS, CallsiteTree, Stacks, build, merge
from stallscope.analysis.diff import diff_tree, top_functions
from stallscope.analysis.flame import (
    FrameInfo,
    StackWeight,
    build_flame_tree,
    find_focus,
    folded_lines,
    prune_tree,
)
from stallscope.analysis.folded_view import folded_stacks
from stallscope.analysis.weighed_tree import Namer, find, prune, weigh
from stallscope.flame.callsite_store import to_bytes, tree_and_extras_from_bytes

COMMS = ("java", "nginx", "postgres")
FRAMES = {i: FrameInfo(f"f{i}", "kernel" if i % 3 == 0 else "user") for i in range(1, 8)}
SAME_NAME = 8
"""A frame named as frame 1 (the same symbol stored twice, say from two builds): flame graphs keep
them apart (siblings would then tie on name, so flame profiles never use it); diffs merge them."""
FRAMES[SAME_NAME] = FrameInfo(FRAMES[1].name, FRAMES[1].kind)

Row = tuple[str, tuple[int, ...]]


def rows_of(frames: int) -> st.SearchStrategy[list[Row]]:
    return st.lists(
        st.tuples(st.sampled_from(COMMS), st.lists(st.integers(1, frames), max_size=7).map(tuple)),
        min_size=1,
        max_size=30,
        unique=True,
    )


rows_strategy = rows_of(7)


def stacks_of(rows: Sequence[Row]) -> tuple[Stacks, dict[tuple[int, ...], int]]:
    stack_ids: dict[tuple[int, ...], int] = {}
    for _, frames in rows:
        stack_ids.setdefault(frames, 100 + len(stack_ids))
    comms = sorted({comm for comm, _ in rows})
    lengths = np.array([len(frames) for _, frames in rows], dtype=np.int64)
    offsets = np.zeros(len(rows), dtype=np.int64)
    offsets[1:] = np.cumsum(lengths)[:-1]
    flat = [f for _, frames in rows for f in frames]
    stacks = Stacks(
        comms=comms,
        comm=np.array([comms.index(comm) for comm, _ in rows], dtype=np.int32),
        stack=np.array([stack_ids[frames] for _, frames in rows], dtype=np.int64),
        offsets=offsets,
        lengths=lengths,
        frames=np.array(flat, dtype=np.int32),
    )
    return stacks, stack_ids


def leaves_of(tree: CallsiteTree, rows: Sequence[Row], stack_ids: dict[tuple[int, ...], int]) -> np.ndarray:
    stacks = np.array([stack_ids[frames] for _, frames in rows], dtype=np.int64)
    return tree.leaves([comm for comm, _ in rows], stacks)


def powers(count: int, offset: int = 0) -> np.ndarray:
    return np.array([1 << (i + offset) for i in range(count)], dtype=np.int64)


def canonical(tree: dict[str, Any]) -> str:
    return json.dumps(tree, sort_keys=True)


def lookup(ids: Any) -> dict[int, FrameInfo]:
    return {i: FRAMES[i] for i in ids}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=rows_strategy,
    shown=st.data(),
    max_nodes=st.integers(1, 40),
    max_depth=st.one_of(st.none(), st.integers(1, 6)),
)
def test_pruned_flame_graphs_match_the_object_tree(
    rows: list[Row], shown: st.DataObject, max_nodes: int, max_depth: int | None
) -> None:
    # The tree holds every stack of the capture; a view weighs only some of them.
    stacks, stack_ids = stacks_of(rows)
    tree = build(stacks)
    selected = shown.draw(st.lists(st.sampled_from(rows), min_size=1, unique=True))
    weights = powers(len(selected))
    samples = np.arange(1, len(selected) + 1, dtype=np.int64)
    weighed = weigh(tree, leaves_of(tree, selected, stack_ids), weights, samples)
    objects = build_flame_tree(
        [StackWeight(c, f, int(w), int(n)) for (c, f), w, n in zip(selected, weights, samples, strict=True)],
        FRAMES,
    )
    focus = shown.draw(
        st.sampled_from([[], [selected[0][0]], [selected[0][0], *map(_name, selected[0][1][:2])]])
    )
    old_node = find_focus(objects.root, focus)
    namer = Namer(tree, lookup)
    node = find(weighed, namer, focus)
    assert (node is None) == (old_node is None)
    if node is None or old_node is None:
        return
    assert int(weighed.value[node]) == old_node.value
    assert int(weighed.samples[node]) == old_node.samples
    new = prune(weighed, namer, node, max_nodes, max_depth)
    old = prune_tree(old_node, max_nodes, max_depth)
    assert canonical(new.root) == canonical(old.root)
    assert (new.node_count, new.pruned_nodes, new.deep_nodes, new.height) == (
        old.node_count,
        old.pruned_nodes,
        old.deep_nodes,
        old.height,
    )
    assert new.prune_threshold == old.prune_threshold


def _name(frame_id: int) -> str:
    return FRAMES[frame_id].name


@settings(max_examples=60, deadline=None)
@given(rows=rows_strategy, split=st.integers(0, 30))
def test_merging_trees_equals_building_one_from_every_stack(rows: list[Row], split: int) -> None:
    stacks, stack_ids = stacks_of(rows)
    whole = build(stacks)
    left, right = rows[:split], rows[split:]
    parts = [build(stacks_of(part)[0]) for part in (left, right) if part]
    merged = merge(parts)
    # Stack ids differ between separately built parts; compare through paths instead.
    weights = powers(len(rows))
    samples = np.ones(len(rows), dtype=np.int64)
    a = weigh(whole, leaves_of(whole, rows, stack_ids), weights, samples)
    assert merged.node_count == whole.node_count
    assert int(a.value[0]) == int(weights.sum())
    assert np.array_equal(np.sort(merged.key), np.sort(whole.key))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=rows_of(SAME_NAME),
    sides=st.data(),
    max_nodes=st.integers(1, 40),
    max_depth=st.one_of(st.none(), st.integers(1, 6)),
)
def test_diffs_match_the_name_trie(
    rows: list[Row], sides: st.DataObject, max_nodes: int, max_depth: int | None
) -> None:
    stacks, stack_ids = stacks_of(rows)
    ids = np.array(sorted(FRAMES), dtype=np.int64)
    representatives = np.array([1 if i == SAME_NAME else i for i in ids.tolist()], dtype=np.int64)
    tree = build(stacks)
    if sides.draw(st.booleans(), label="stored with the tree"):
        stored = to_bytes(tree, callsite_diff.named_parts(tree, ids, representatives))
        found = callsite_diff.named_from_parts(*tree_and_extras_from_bytes(stored, list(tree.comms)))
        assert found is not None
        merged = callsite_diff.by_name(tree, ids, representatives).tree
        for name in TREE_ARRAYS:
            assert np.array_equal(getattr(found.tree, name), getattr(merged, name))
        if merged is not tree:  # the merge as stored (read where it lies), not merged again
            assert not found.tree.parent.flags.writeable
        named = found
    else:
        named = callsite_diff.by_name(tree, ids, representatives)
    side_a = sides.draw(st.lists(st.sampled_from(rows), unique=True))
    side_b = sides.draw(st.lists(st.sampled_from(rows), unique=True))
    weights_a, weights_b = powers(len(side_a)), powers(len(side_b), offset=len(side_a))
    samples_a, samples_b = np.ones(len(side_a), dtype=np.int64), np.ones(len(side_b), dtype=np.int64)
    weighed = callsite_diff.weigh_sides(
        named,
        leaves_of(named.tree, side_a, stack_ids),
        (weights_a, samples_a),
        leaves_of(named.tree, side_b, stack_ids),
        (weights_b, samples_b),
        "none",
    )

    def stack_weights(side: list[Row], weights: np.ndarray) -> list[StackWeight]:
        return [StackWeight(c, f, int(w), 1) for (c, f), w in zip(side, weights, strict=True)]

    old_tree = diff_tree(stack_weights(side_a, weights_a), stack_weights(side_b, weights_b), FRAMES, "none")
    old = old_tree.result((), max_nodes, max_depth)
    new = callsite_diff.result(weighed, 0, max_nodes, max_depth, lookup, top_count=len(FRAMES))
    assert old is not None
    assert canonical(new.root) == canonical(old.root)
    assert [f.as_dict() for f in new.functions] == [f.as_dict() for f in old.functions]
    assert new.function_count == len(old.functions)
    # With a small table only candidates are named: the same functions as ranking them all.
    few = callsite_diff.result(weighed, 0, max_nodes, max_depth, lookup, top_count=2).functions
    by_total = top_functions(old.functions, 2, "total")
    by_self = [f for f in top_functions(old.functions, 2, "self") if f.name not in {g.name for g in by_total}]
    expected = top_functions(by_total + by_self, len(by_total) + len(by_self), "total")
    assert [f.as_dict() for f in few] == [f.as_dict() for f in expected]
    assert (new.node_count, new.pruned_nodes, new.deep_nodes, new.height, new.prune_threshold) == (
        old.node_count,
        old.pruned_nodes,
        old.deep_nodes,
        old.height,
        old.prune_threshold,
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=rows_of(SAME_NAME), shown=st.data())
def test_folded_stacks_match_the_object_tree(rows: list[Row], shown: st.DataObject) -> None:
    """Lines merge where frames share a name (frame 1 and `SAME_NAME`), as the object walk merged them."""
    stacks, stack_ids = stacks_of(rows)
    tree = build(stacks)
    selected = shown.draw(st.lists(st.sampled_from(rows), min_size=1, unique=True))
    weights, samples = powers(len(selected)), np.ones(len(selected), dtype=np.int64)
    weighed = weigh(tree, leaves_of(tree, selected, stack_ids), weights, samples)
    objects = build_flame_tree(
        [StackWeight(c, f, int(w), 1) for (c, f), w in zip(selected, weights, strict=True)], FRAMES
    )
    comm, frames = selected[0]
    focuses = [[], [comm]]
    if frames and frames[0] not in (1, SAME_NAME):  # a name two siblings share resolves either way
        focuses.append([comm, _name(frames[0])])
    focus = shown.draw(st.sampled_from(focuses))
    old_node = find_focus(objects.root, focus)
    node = find(weighed, Namer(tree, lookup), focus)
    assert node is not None
    assert old_node is not None
    assert folded_stacks(weighed, node, focus, lookup) == folded_lines(old_node, focus)


def test_folded_stacks_sort_bytewise_beyond_ascii() -> None:
    """Code point order is not byte order for surrogate-escaped bytes (U+DCFF is byte 0xFF, after
    U+E000's 0xEE): lines sort as their bytes, as stackcollapse sorts them."""
    names = {1: FrameInfo("z", "user"), 2: FrameInfo("\ue000", "user"), 3: FrameInfo("\udcff", "user")}
    rows = [("app", (1,)), ("app", (3,)), ("app", (2,)), ("app", (1, 2))]
    stacks, stack_ids = stacks_of(rows)
    tree = build(stacks)
    ones = np.ones(len(rows), dtype=np.int64)
    weighed = weigh(tree, leaves_of(tree, rows, stack_ids), powers(len(rows)), ones)
    lines = folded_stacks(weighed, 0, [], lambda ids: {i: names[i] for i in ids})
    assert lines == [("app;z", 1), ("app;z;\ue000", 8), ("app;\ue000", 4), ("app;\udcff", 2)]
