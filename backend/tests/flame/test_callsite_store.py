"""Stored call-site trees read back exactly as they were written, arrays and whole-capture weights."""

from __future__ import annotations

import numpy as np

from stallscope.analysis import callsite_diff
from stallscope.analysis.callsites import Stacks, build
from stallscope.flame.callsite_store import from_bytes, to_bytes, tree_and_extras_from_bytes


def test_a_tree_and_its_weights_survive_the_round_trip() -> None:
    stacks = Stacks(
        comms=["java", "nginx"],
        comm=np.array([0, 0, 1], dtype=np.int32),
        stack=np.array([7, 9, 7], dtype=np.int64),
        offsets=np.array([0, 3, 5], dtype=np.int64),
        lengths=np.array([3, 2, 3], dtype=np.int64),
        frames=np.array([1, 2, 3, 1, 4, 1, 2, 3], dtype=np.int32),
    )
    tree = build(stacks)
    tree.whole["cycles"] = (np.array([10, 20, 30], dtype=np.int64), np.array([1, 2, 3], dtype=np.int64))
    tree.whole["instructions"] = (np.array([5, 0, 7], dtype=np.int64), np.array([1, 0, 1], dtype=np.int64))
    back = from_bytes(to_bytes(tree), list(tree.comms))
    for name in ("parent", "key", "level_starts", "pair_keys", "pair_leaf"):
        assert np.array_equal(getattr(back, name), getattr(tree, name)), name
        assert getattr(back, name).dtype == getattr(tree, name).dtype, name
    assert back.comms == ("java", "nginx")
    assert sorted(back.whole) == ["cycles", "instructions"]
    for event, (weights, samples) in tree.whole.items():
        assert back.whole[event][0].tolist() == weights.tolist()
        assert back.whole[event][1].tolist() == samples.tolist()
    # The leaves a view looks up are the ones built.
    assert (
        back.leaves(["nginx", "java"], np.array([7, 9])).tolist()
        == tree.leaves(["nginx", "java"], np.array([7, 9])).tolist()
    )


def test_a_capture_whose_frames_all_differ_in_name_is_its_own_merge_by_name() -> None:
    """The diff's parts stored with a tree: a capture with no name shared by two frames needs no merge,
    and its function index comes back as it was computed."""
    stacks = Stacks(
        comms=["java"],
        comm=np.array([0, 0], dtype=np.int32),
        stack=np.array([7, 9], dtype=np.int64),
        offsets=np.array([0, 3], dtype=np.int64),
        lengths=np.array([3, 2], dtype=np.int64),
        frames=np.array([1, 2, 1, 1, 4], dtype=np.int32),
    )
    tree = build(stacks)
    ids = np.array([1, 2, 4], dtype=np.int64)
    stored = to_bytes(tree, callsite_diff.named_parts(tree, ids, ids))
    named = callsite_diff.named_from_parts(*tree_and_extras_from_bytes(stored, ["java"]))
    assert named is not None
    assert np.array_equal(named.tree.key, tree.key)
    assert np.array_equal(named.tree.parent, tree.parent)
    fresh = callsite_diff.FunctionIndex.of(tree)
    for name in callsite_diff.INDEX_ARRAYS:
        assert getattr(named.functions(), name).tolist() == getattr(fresh, name).tolist(), name
    # The tree read back alone does not keep the stored parts' bytes alive: its arrays are copies.
    assert from_bytes(stored, ["java"]).parent.base is None
