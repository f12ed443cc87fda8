"""Differential trees and function tables on tiny hand-drawn profiles.

Profiles are drawn as columns, after firefox-devtools/profiler's text samples: each column is one
sample of weight 1, read top-down from the process name to the leaf.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from stallscope.analysis.diff import (
    DiffResult,
    FunctionDelta,
    WeightedStack,
    diff_stacks,
    diff_tree_of_stacks,
    top_functions,
)
from stallscope.analysis.flame import OTHER_NAME


def columns(drawing: str) -> list[WeightedStack]:
    """Each column of the drawing is a stack (process first); a column's cells start where row 1's do."""
    lines = [line for line in drawing.splitlines() if line.strip()]
    header = lines[0]
    starts = [i for i, ch in enumerate(header) if ch != " " and (i == 0 or header[i - 1] == " ")]
    stacks: list[list[str]] = [[] for _ in starts]
    for line in lines:
        for col, start in enumerate(starts):
            cell = line[start:].split(" ", 1)[0] if start < len(line) else ""
            if cell:
                stacks[col].append(cell)
    return [WeightedStack(tuple(frames), 1) for frames in stacks]


def node(result: DiffResult | dict[str, Any], *path: str) -> dict[str, Any]:
    current = result.root if isinstance(result, DiffResult) else result
    for name in path:
        matches = [c for c in current["children"] if c["name"] == name]
        assert len(matches) == 1, f"{name} not among {[c['name'] for c in current['children']]}"
        current = matches[0]
    return current


def function(result: DiffResult, name: str) -> FunctionDelta:
    (row,) = [f for f in result.functions if f.name == name]
    return row


BEFORE = columns("""
db     db     db     db     db     db
main   main   main   main   main   main
query  query  query  query  query  query
scan   scan   sort   sort   sort   sort
""")

AFTER = columns("""
db     db     db     db     db     db
main   main   main   main   main   main
query  query  query  query  query  query
scan   scan   scan   scan   sort   sort
""")


def test_a_two_to_one_change_in_two_functions() -> None:
    result = diff_stacks(BEFORE, AFTER, normalize="none")
    assert (result.total_a, result.total_b, result.scale) == (6, 6, 1.0)
    scan = node(result, "db", "main", "query", "scan")
    assert (scan["a"], scan["b"], scan["delta"], scan["value"]) == (2, 4, 2, 4)
    assert scan["share_delta"] == pytest.approx(2 / 6, abs=1e-6)
    sort = node(result, "db", "main", "query", "sort")
    assert (sort["a"], sort["b"], sort["delta"]) == (4, 2, -2)
    query = node(result, "db", "main", "query")
    assert (query["a"], query["b"], query["delta"]) == (6, 6, 0)
    assert (function(result, "scan").self_delta, function(result, "scan").total_delta) == (2, 2)
    assert (function(result, "sort").self_a, function(result, "sort").self_b) == (4, 2)
    assert function(result, "query").total_delta == 0
    assert [f.name for f in top_functions(result.functions, 2, "self")] == ["scan", "sort"]  # tie: by name


def test_normalisation_compares_shares_not_counts() -> None:
    doubled = [WeightedStack(s.frames, s.weight * 2) for s in BEFORE]
    same_shape = diff_stacks(doubled, BEFORE)
    assert same_shape.scale == 0.5
    assert all(f.total_delta == 0 and f.self_delta == 0 for f in same_shape.functions)
    sort = node(same_shape, "db", "main", "query", "sort")
    assert (sort["a"], sort["b"], sort["delta"], sort["share_delta"]) == (8, 4, 0, 0)
    raw = diff_stacks(doubled, BEFORE, normalize="none")
    assert raw.scale == 1.0
    assert function(raw, "sort").total_delta == -4
    assert node(raw, "db", "main", "query", "sort")["share_delta"] == 0


def test_normalised_delta_is_in_b_units() -> None:
    # A: scan 2 of 6 (1/3); B: scan 6 of 12 (1/2) -> scaled A = 4, delta +2 of B's 12.
    after = [WeightedStack(s.frames, 2) for s in AFTER[:3]] + [WeightedStack(s.frames, 2) for s in AFTER[4:]]
    result = diff_stacks(BEFORE, after)
    assert (result.total_a, result.total_b) == (6, 10)
    assert result.scale == pytest.approx(10 / 6)
    scan = function(result, "scan")
    assert (scan.total_a, scan.total_b, scan.scale) == (2, 6, result.scale)
    assert scan.total_delta == pytest.approx(6 - 20 / 6)
    assert node(result, "db", "main", "query", "scan")["delta"] == pytest.approx(6 - 20 / 6, abs=1e-3)
    assert node(result, "db", "main", "query", "scan")["share_delta"] == pytest.approx(
        6 / 10 - 2 / 6, abs=1e-6
    )


def test_recursion_counts_a_function_once_per_stack() -> None:
    a = columns("""
app   app   app
main  main  main
f     f     g
f     leaf
f
leaf
""")
    b = columns("""
app   app
main  main
f     g
leaf
""")
    result = diff_stacks(a, b, normalize="none")
    f = function(result, "f")
    assert (f.total_a, f.total_b, f.total_delta) == (2, 1, -1)
    assert (f.self_a, f.self_b) == (0, 0)
    assert function(result, "leaf").total_a == 2
    assert function(result, "main").total_a == 3
    assert node(result, "app", "main", "f", "f", "f")["a"] == 1


def test_frames_only_in_a_or_only_in_b_are_both_kept() -> None:
    a = columns("""
app   app   app
main  main  main
old   old   work
""")
    b = columns("""
app   app   app
main  main  main
work  new   new
""")
    result = diff_stacks(a, b, normalize="none")
    old = node(result, "app", "main", "old")
    assert (old["a"], old["b"], old["value"], old["delta"]) == (2, 0, 0, -2)
    new = node(result, "app", "main", "new")
    assert (new["a"], new["b"], new["delta"]) == (0, 2, 2)
    assert function(result, "old").total_delta == -2
    assert function(result, "new").self_delta == 2


def test_pruning_ranks_by_the_larger_side_so_vanished_frames_survive() -> None:
    a = [WeightedStack(("app", "main", "vanished"), 90), WeightedStack(("app", "main", "tiny"), 1)]
    b = [WeightedStack(("app", "main", "tiny"), 2), WeightedStack(("app", "main", "grew"), 5)]
    result = diff_stacks(a, b, normalize="none", max_nodes=4)
    main = node(result, "app", "main")
    assert [c["name"] for c in main["children"]] == ["vanished", OTHER_NAME]
    other = node(main, OTHER_NAME)
    assert (other["a"], other["b"], other["delta"], other["kind"]) == (1, 7, 6, "other")
    assert main["truncated"] is True
    assert (result.node_count, result.pruned_nodes) == (4, 2)
    assert result.prune_threshold == pytest.approx(5 / 91)
    # The table is computed before pruning: every function is there.
    assert {f.name for f in result.functions} == {"main", "vanished", "tiny", "grew"}


@pytest.mark.parametrize("empty", ["a", "b"])
def test_an_empty_side_compares_raw_weights(empty: str) -> None:
    a, b = ([], AFTER) if empty == "a" else (AFTER, [])
    result = diff_stacks(a, b)
    assert result.scale == 1.0
    scan = function(result, "scan")
    assert scan.total_delta == (4 if empty == "a" else -4)
    assert result.root["value"] == (6 if empty == "a" else 0)
    assert node(result, "db")["a"] == (0 if empty == "a" else 6)


def test_two_empty_sides_are_an_empty_diff() -> None:
    result = diff_stacks([], [])
    assert (result.total_a, result.total_b, result.functions) == (0, 0, [])
    assert result.root["children"] == []


def test_frame_kinds_and_process_level() -> None:
    stacks = [WeightedStack(("app", "main", "sys_read"), 3)]
    result = diff_stacks(stacks, stacks, kinds={"sys_read": "kernel"})
    assert node(result, "app")["kind"] == "process"
    assert node(result, "app", "main")["kind"] == "user"
    assert node(result, "app", "main", "sys_read")["kind"] == "kernel"
    assert "app" not in {f.name for f in result.functions}


def test_top_functions_sorts_by_the_size_of_the_change_either_way() -> None:
    rows = [
        FunctionDelta("up", self_a=0, self_b=5, total_a=1, total_b=6),
        FunctionDelta("down", self_a=8, self_b=0, total_a=8, total_b=0),
        FunctionDelta("flat", self_a=3, self_b=3, total_a=9, total_b=9),
    ]
    assert [f.name for f in top_functions(rows, 3, "total")] == ["down", "up", "flat"]
    assert [f.name for f in top_functions(rows, 2, "self")] == ["down", "up"]
    assert top_functions(rows, 0, "self") == []
    halved = [FunctionDelta(f.name, f.self_a, f.self_b, f.total_a, f.total_b, scale=0.5) for f in rows]
    assert [f.name for f in top_functions(halved, 3, "total")] == ["up", "flat", "down"]


def test_totals_stay_honest_under_any_budget() -> None:
    a = columns("""
app   app   app   app   app   app   db    db
main  main  main  main  main  main  main  main
f     f     g     g     h     k     q     q
x     y     x     y     x           r
""")
    b = columns("""
app   app   app   app   db    db    db    web
main  main  main  main  main  main  main  serve
f     g     g     k     q     q     s
y     x     y           r     r
""")
    full = diff_stacks(a, b, normalize="none")
    for budget in range(1, full.node_count + 1):
        result = diff_stacks(a, b, normalize="none", max_nodes=budget)
        assert result.node_count == budget
        assert result.node_count + result.pruned_nodes == full.node_count
        pending = [result.root]
        while pending:
            current = pending.pop()
            children = current["children"]
            assert sum(c["a"] for c in children) <= current["a"]
            assert sum(c["b"] for c in children) <= current["b"]
            assert current["delta"] == current["b"] - current["a"]
            if any(c["name"] == OTHER_NAME for c in children):
                assert current.get("truncated") is True
            pending.extend(children)


def test_stacks_deeper_than_the_recursion_limit() -> None:
    deep = ("app", *(f"f{i % 7}" for i in range(3000)))
    result = diff_stacks([WeightedStack(deep, 1)], [WeightedStack(deep, 3)], normalize="none")
    assert result.node_count == 3002
    assert function(result, "f3").total_delta == 2


def test_the_budget_keeps_the_heaviest_frames_by_either_side() -> None:
    rng = random.Random(7)
    names = ["main", "f", "g", "h", "k", "io", "lock"]

    def profile(count: int) -> list[WeightedStack]:
        return [
            WeightedStack(("app", *rng.choices(names, k=rng.randint(1, 6))), rng.randint(1, 1000))
            for _ in range(count)
        ]

    a, b = profile(60), profile(90)
    full = diff_stacks(a, b, max_nodes=10_000)
    scale = full.scale
    assert scale != 1

    def weights(root: dict[str, Any]) -> list[float]:
        out, pending = [], [root]
        while pending:
            current = pending.pop()
            if current["name"] != OTHER_NAME:
                out.append(max(current["a"] * scale, current["b"]))
                pending.extend(current["children"])
        return out

    everything = sorted(weights(full.root), reverse=True)
    for budget in (5, 17, 40, 100):
        kept = sorted(weights(diff_stacks(a, b, max_nodes=budget).root), reverse=True)
        assert kept == everything[:budget]


def test_a_focused_frame_is_pruned_with_a_fresh_budget_and_keeps_its_numbers() -> None:
    rng = random.Random(11)
    names = ["main", "f", "g", "h", "k", "io", "lock"]

    def profile(count: int) -> list[WeightedStack]:
        return [
            WeightedStack(("app", "main", *rng.choices(names, k=rng.randint(1, 6))), rng.randint(1, 1000))
            for _ in range(count)
        ]

    tree = diff_tree_of_stacks(profile(80), profile(120))
    whole = tree.result((), max_nodes=100_000)
    small = tree.result((), max_nodes=8)
    assert whole is not None
    assert small is not None
    truncated = [c["name"] for c in node(small, "app", "main")["children"] if c.get("truncated")]
    assert truncated, "a budget of 8 must fold something away below app > main"

    focus = ("app", "main", truncated[0])
    zoomed = tree.result(focus, max_nodes=100_000)
    assert zoomed is not None
    expected = node(whole, *focus)
    # The focused root and everything under it is the whole diff's subtree, numbers and colours alike.
    assert zoomed.root == expected
    assert zoomed.pruned_nodes == 0
    assert (zoomed.total_a, zoomed.total_b, zoomed.scale) == (whole.total_a, whole.total_b, whole.scale)
    assert zoomed.functions == whole.functions

    budgeted = tree.result(focus, max_nodes=5)
    assert budgeted is not None
    assert budgeted.node_count == 5
    assert budgeted.node_count + budgeted.pruned_nodes == zoomed.node_count
    assert (budgeted.root["a"], budgeted.root["b"]) == (expected["a"], expected["b"])


def test_a_focus_on_no_frame_is_none() -> None:
    tree = diff_tree_of_stacks(BEFORE, AFTER)
    assert tree.result(("db", "main", "nowhere")) is None
    assert tree.result(("nobody",)) is None
    found = tree.result(("db", "main", "query", "scan"))
    assert found is not None
    assert (found.root["name"], found.root["a"], found.root["b"]) == ("scan", 2, 4)
