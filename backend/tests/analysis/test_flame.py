"""Flame-tree building and pruning on tiny hand-written profiles."""

from __future__ import annotations

from typing import Any

import pytest

from stallscope.analysis.flame import (
    OTHER_NAME,
    FrameInfo,
    StackWeight,
    build_flame_tree,
    find_focus,
    folded_lines,
    prune_tree,
)


def profile(text: str) -> tuple[list[StackWeight], dict[int, FrameInfo]]:
    """Folded lines (`comm;a;b 3`) to rows and frames, kernel frames marked with a `_[k]` suffix."""
    frames: dict[str, int] = {}
    infos: dict[int, FrameInfo] = {}
    rows = []
    for line in text.strip().splitlines():
        stack, count = line.rsplit(" ", 1)
        comm, *names = stack.split(";")
        ids = []
        for name in names:
            if name not in frames:
                frames[name] = len(frames) + 1
                kind = "kernel" if name.endswith("_[k]") else "user"
                infos[frames[name]] = FrameInfo(name.removesuffix("_[k]"), kind)
            ids.append(frames[name])
        rows.append(StackWeight(comm, ids, int(count), int(count)))
    return rows, infos


def child(node: dict[str, Any], name: str) -> dict[str, Any]:
    matches = [c for c in node["children"] if c["name"] == name]
    assert len(matches) == 1, f"{name} not among {[c['name'] for c in node['children']]}"
    return matches[0]


SIMPLE = """
db;main;query;scan 6
db;main;query;sort 3
db;main;idle 1
web;main;serve 8
"""


def test_values_are_inclusive_and_processes_are_the_first_level() -> None:
    tree = build_flame_tree(*profile(SIMPLE))
    assert tree.root.value == 18
    assert tree.node_count == 1 + 2 + 5 + 2  # root, processes, db's frames, web's frames
    pruned = prune_tree(tree.root, 1000).root
    assert [c["name"] for c in pruned["children"]] == ["db", "web"]
    query = child(child(child(pruned, "db"), "main"), "query")
    assert query["value"] == 9
    assert {c["name"]: c["value"] for c in query["children"]} == {"scan": 6, "sort": 3}


def test_pruning_folds_the_lightest_children_into_other_and_keeps_totals() -> None:
    tree = build_flame_tree(*profile(SIMPLE))
    result = prune_tree(tree.root, 6)
    assert result.node_count == 6
    assert result.pruned_nodes == tree.node_count - 6
    main = child(child(result.root, "db"), "main")
    other = child(main, OTHER_NAME)
    assert other["value"] == 1
    assert main["truncated"] is True
    assert result.root["truncated"] is True
    assert result.prune_threshold == pytest.approx(8 / 18)  # web;main;serve is the heaviest cut
    assert sum(c["value"] for c in main["children"]) == main["value"]


def test_nothing_is_marked_truncated_when_everything_fits() -> None:
    result = prune_tree(build_flame_tree(*profile(SIMPLE)).root, 1000)
    assert "truncated" not in result.root
    assert result.pruned_nodes == 0
    assert result.prune_threshold == 0


def test_focus_follows_names_from_the_process_down() -> None:
    tree = build_flame_tree(*profile(SIMPLE))
    node = find_focus(tree.root, ["db", "main", "query"])
    assert node is not None
    assert node.value == 9
    assert find_focus(tree.root, ["db", "nope"]) is None


def test_folded_lines_round_trip_and_sort_bytewise() -> None:
    tree = build_flame_tree(*profile(SIMPLE))
    assert folded_lines(tree.root) == [
        ("db;main;idle", 1),
        ("db;main;query;scan", 6),
        ("db;main;query;sort", 3),
        ("web;main;serve", 8),
    ]


def test_folded_lines_of_a_focus_keep_the_full_path() -> None:
    tree = build_flame_tree(*profile(SIMPLE))
    node = find_focus(tree.root, ["db", "main", "query"])
    assert node is not None
    assert folded_lines(node, ["db", "main", "query"]) == [
        ("db;main;query;scan", 6),
        ("db;main;query;sort", 3),
    ]


def test_same_name_different_kind_stay_apart_in_the_tree_but_merge_when_folded() -> None:
    rows, frames = profile("app;read 2\napp;read_[k] 3")
    tree = build_flame_tree(rows, frames)
    kinds = sorted(c["kind"] for c in child(prune_tree(tree.root, 100).root, "app")["children"])
    assert kinds == ["kernel", "user"]
    assert folded_lines(tree.root) == [("app;read", 5)]
