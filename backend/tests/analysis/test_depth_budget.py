"""The depth budget of flame and diff trees, beside the node budget: what is folded, and honestly."""

from __future__ import annotations

from typing import Any

from stallscope.analysis.diff import WeightedStack, diff_stacks
from stallscope.analysis.flame import (
    DEEPER_NAME,
    OTHER_NAME,
    FrameInfo,
    StackWeight,
    build_flame_tree,
    folded_lines,
    prune_tree,
)

FRAMES = {i: FrameInfo(f"f{i}", "user") for i in range(10)}
ROWS = [
    StackWeight("app", [0, 1, 2, 3, 4, 5], 6, 6),  # six frames deep
    StackWeight("app", [0, 1, 2, 7], 3, 3),
    StackWeight("app", [0, 8], 1, 1),
    StackWeight("app", [0, 9], 1, 1),
]


def walk(root: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    found, pending = [], [(0, root)]
    while pending:
        depth, node = pending.pop()
        found.append((depth, node))
        pending.extend((depth + 1, c) for c in node["children"])
    return found


def assert_honest(root: dict[str, Any], weight: str) -> None:
    for _, node in walk(root):
        below = sum(c[weight] for c in node["children"])
        assert below <= node[weight], node["name"]
        if any(c["name"] in (OTHER_NAME, DEEPER_NAME) for c in node["children"]):
            assert node.get("truncated") is True


def test_frames_below_the_depth_budget_fold_into_one_deeper_child() -> None:
    tree = build_flame_tree(ROWS, FRAMES)
    pruned = prune_tree(tree.root, 100, max_depth=4)  # app is level 1, f0 2, f1 3, f2 4
    levels = walk(pruned.root)
    assert max(depth for depth, _ in levels) == pruned.height == 5
    (f2,) = [n for _, n in levels if n["name"] == "f2"]
    assert f2["children"] == [
        {"name": DEEPER_NAME, "value": 9, "samples": 9, "kind": "deeper", "children": [], "folded_frames": 4}
    ]
    assert (pruned.deep_nodes, pruned.pruned_nodes, pruned.node_count) == (4, 4, 7)
    assert_honest(pruned.root, "value")
    # No budget: everything; the folded export never cuts.
    assert prune_tree(tree.root, 100).deep_nodes == 0
    assert folded_lines(tree.root)[0] == ("app;f0;f1;f2;f3;f4;f5", 6)


def test_both_budgets_at_once_keep_the_totals() -> None:
    tree = build_flame_tree(ROWS, FRAMES)
    pruned = prune_tree(tree.root, 5, max_depth=4)  # all, app, f0, f1, f2: f8 and f9 fold
    (f0,) = [n for _, n in walk(pruned.root) if n["name"] == "f0"]
    assert [(c["name"], c["value"]) for c in f0["children"]] == [("f1", 9), (OTHER_NAME, 2)]
    assert (pruned.deep_nodes, pruned.pruned_nodes) == (4, 6)
    assert_honest(pruned.root, "value")


def test_the_diff_folds_the_same_levels_with_both_sides_weights() -> None:
    deep = ("app", *(f"f{i}" for i in range(6)))
    a = [WeightedStack(deep, 2), WeightedStack(("app", "f0", "g"), 4)]
    b = [WeightedStack(deep, 5)]
    result = diff_stacks(a, b, normalize="none", max_depth=3)
    levels = walk(result.root)
    assert result.height == max(depth for depth, _ in levels) == 4
    (f1,) = [n for _, n in levels if n["name"] == "f1"]
    (deeper,) = f1["children"]
    assert (deeper["name"], deeper["a"], deeper["b"], deeper["delta"]) == (DEEPER_NAME, 2, 5, 3)
    assert deeper["folded_frames"] == 4
    assert (result.deep_nodes, result.pruned_nodes) == (4, 4)
    assert_honest(result.root, "a")
    assert_honest(result.root, "b")
    assert diff_stacks(a, b).deep_nodes == 0
