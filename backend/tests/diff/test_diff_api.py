"""`GET /api/diff` on stored CPU captures with known changes."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.diff.texts import AFTER, BEFORE, MS
from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed


@pytest.fixture(scope="module")
def captures(api: TestClient, worker: subprocess.Popen[bytes]) -> tuple[int, int]:
    incident = make_incident(api)
    ids = []
    for name, text in (("before.txt", BEFORE), ("after.txt", AFTER)):
        capture = upload_bytes(api, incident["id"], text.encode(), name)
        parsed = wait_parsed(api, capture["id"])
        assert parsed["status"] == "ready", parsed
        ids.append(int(capture["id"]))
    return ids[0], ids[1]


def get_diff(api: TestClient, **params: Any) -> dict[str, Any]:
    sides = {(k.replace("_", ".", 1) if k[:2] in ("a_", "b_") else k): v for k, v in params.items()}
    response = api.get("/api/diff", params=sides)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def node(root: dict[str, Any], *path: str) -> dict[str, Any]:
    for name in path:
        (root,) = [c for c in root["children"] if c["name"] == name]
    return root


def function(result: dict[str, Any], name: str) -> dict[str, Any]:
    rows: list[dict[str, Any]] = [f for f in result["functions"] if f["name"] == name]
    assert len(rows) == 1, f"{name} once among {[f['name'] for f in result['functions']]}"
    return rows[0]


def test_a_two_to_one_change_between_two_captures(api: TestClient, captures: tuple[int, int]) -> None:
    before, after = captures
    result = get_diff(api, a_captures=str(before), b_captures=str(after), normalize="none")
    assert (result["a"]["total"], result["b"]["total"]) == (8 * MS, 8 * MS)
    assert (result["a"]["samples"], result["b"]["samples"]) == (8, 8)
    assert (result["a"]["captures"], result["b"]["captures"]) == ([before], [after])
    assert (result["unit"], result["event"], result["source"]) == ("ns", "cpu-clock", "samples")
    assert result["events"] == ["cpu-clock", "page-faults"]
    scan = node(result["root"], "db", "main", "query", "scan")
    assert (scan["a"], scan["b"], scan["delta"], scan["value"]) == (2 * MS, 4 * MS, 2 * MS, 4 * MS)
    assert scan["share_delta"] == pytest.approx(0.25, abs=1e-6)
    sort = node(result["root"], "db", "main", "query", "sort")
    assert (sort["a"], sort["b"], sort["delta"]) == (4 * MS, 2 * MS, -2 * MS)
    assert node(result["root"], "web", "main", "serve")["delta"] == 0
    assert function(result, "scan")["self_delta"] == 2 * MS
    assert function(result, "scan")["total_delta"] == 2 * MS
    assert function(result, "sort")["total_delta"] == -2 * MS
    assert function(result, "query")["total_delta"] == 0
    assert function(result, "main")["total_a"] == 8 * MS
    assert "memcpy" not in {f["name"] for f in result["functions"]}
    assert [f["name"] for f in result["functions"][:2]] == ["scan", "sort"]
    assert result["function_count"] == 5
    assert result["pruned_nodes"] == 0


def test_normalisation_scales_a_to_b_total(api: TestClient, captures: tuple[int, int]) -> None:
    before, after = captures
    # A: both captures (16 ms), B: after (8 ms): deltas are B minus half of A; weights stay raw.
    result = get_diff(api, a_captures=f"{before},{after}", b_captures=str(after))
    assert (result["a"]["total"], result["b"]["total"], result["scale"]) == (16 * MS, 8 * MS, 0.5)
    scan = node(result["root"], "db", "main", "query", "scan")
    assert (scan["a"], scan["b"], scan["delta"]) == (6 * MS, 4 * MS, 1 * MS)
    assert scan["share_delta"] == pytest.approx(4 / 8 - 6 / 16, abs=1e-6)
    assert (function(result, "sort")["total_a"], function(result, "sort")["total_delta"]) == (6 * MS, -1 * MS)


def test_one_capture_two_time_ranges(api: TestClient, captures: tuple[int, int]) -> None:
    _, after = captures
    # perf time 100 s is 00:01:40 on an unaligned capture: db runs in that second, web in the next.
    result = get_diff(
        api,
        a_captures=str(after),
        a_start="1970-01-01T00:01:40Z",
        a_end="1970-01-01T00:01:41Z",
        b_captures=str(after),
        b_start="1970-01-01T00:01:41Z",
        b_end="1970-01-01T00:01:42Z",
        normalize="none",
    )
    assert (result["a"]["total"], result["b"]["total"]) == (6 * MS, 2 * MS)
    db = node(result["root"], "db")
    assert (db["a"], db["b"], db["value"], db["delta"]) == (6 * MS, 0, 0, -6 * MS)
    assert node(result["root"], "web", "main", "serve")["delta"] == 2 * MS
    assert function(result, "serve")["total_a"] == 0
    assert function(result, "scan")["self_b"] == 0


def test_per_side_process_filter_and_top(api: TestClient, captures: tuple[int, int]) -> None:
    before, after = captures
    result = get_diff(api, a_captures=str(before), a_comm="db", b_captures=str(after), b_comm="web", top=1)
    assert (result["a"]["total"], result["b"]["total"]) == (6 * MS, 2 * MS)
    # top=1 by total change (main, then by name) plus the largest self change not already listed.
    assert len(result["functions"]) == 2
    assert result["function_count"] == 5


def test_same_selection_on_both_sides_is_an_empty_diff(api: TestClient, captures: tuple[int, int]) -> None:
    before, _ = captures
    result = get_diff(api, a_captures=str(before), b_captures=str(before))
    assert all(f["total_delta"] == 0 and f["self_delta"] == 0 for f in result["functions"])
    assert result["root"]["delta"] == 0


def test_node_budget_keeps_what_only_a_has(api: TestClient, captures: tuple[int, int]) -> None:
    _, after = captures
    result = get_diff(
        api,
        a_captures=str(after),
        a_end="1970-01-01T00:01:41Z",
        b_captures=str(after),
        b_start="1970-01-01T00:01:41Z",
        normalize="none",
        max_nodes=2,
    )
    # db is only in A (6 ms), web only in B (2 ms): the budget keeps db, not just B's frames.
    assert result["node_count"] == 2
    assert [c["name"] for c in result["root"]["children"]] == ["db", "(other)"]
    other = result["root"]["children"][1]
    assert (other["a"], other["b"], other["kind"]) == (0, 2 * MS, "other")
    assert result["root"]["truncated"] is True
    assert result["pruned_nodes"] > 0


def test_a_zoom_into_pruned_detail_gets_that_subtree_with_a_fresh_budget(
    api: TestClient, captures: tuple[int, int]
) -> None:
    before, after = captures
    sides = {"a_captures": str(before), "b_captures": str(after), "normalize": "none"}
    whole = get_diff(api, **sides)
    small = get_diff(api, **sides, max_nodes=3)
    # Three nodes: the root, db and db > main; everything under main is folded into "(other)".
    assert [c["name"] for c in node(small["root"], "db", "main")["children"]] == ["(other)"]
    assert node(small["root"], "db", "main")["truncated"] is True

    focus = '["db", "main", "query"]'
    zoomed = get_diff(api, **sides, max_nodes=3, focus=focus)
    assert zoomed["focus"] == ["db", "main", "query"]
    query = node(whole["root"], "db", "main", "query")
    root = zoomed["root"]
    assert (root["name"], root["a"], root["b"]) == ("query", query["a"], query["b"])
    assert [c["name"] for c in zoomed["root"]["children"]] == ["scan", "sort"]
    assert node(zoomed["root"], "scan") == node(whole["root"], "db", "main", "query", "scan")
    # The side totals and the function table are the whole diff's, whatever the zoom.
    assert (zoomed["a"], zoomed["b"], zoomed["functions"]) == (whole["a"], whole["b"], whole["functions"])

    missing = api.get(
        "/api/diff",
        params={"a.captures": str(before), "b.captures": str(after), "focus": '["db", "nowhere"]'},
    )
    assert missing.status_code == 404, missing.text
    assert "db > nowhere" in missing.json()["detail"]


@pytest.mark.parametrize(
    ("params", "status", "words"),
    [
        ({"b.captures": "{id}"}, 422, "side A has no captures"),
        ({"a.captures": "{id}"}, 422, "side B has no captures"),
        ({"a.captures": "x", "b.captures": "{id}"}, 422, "a.captures must be comma-separated"),
        ({"a.captures": "999999", "b.captures": "999998"}, 404, "side A: capture 999999 does not exist"),
        ({"a.captures": "{id}", "b.captures": "{id}", "b.within": "9-3"}, 422, "b.within"),
        ({"a.captures": "{id}", "b.captures": "{id}", "normalize": "share"}, 422, "normalize"),
        (
            {
                "a.captures": "{id}",
                "b.captures": "{id}",
                "a.start": "2026-01-01T00:00:02Z",
                "a.end": "2026-01-01T00:00:01Z",
            },
            422,
            "a.end must be after a.start",
        ),
    ],
)
def test_clear_errors(
    api: TestClient, captures: tuple[int, int], params: dict[str, str], status: int, words: str
) -> None:
    before, _ = captures
    response = api.get("/api/diff", params={k: v.replace("{id}", str(before)) for k, v in params.items()})
    assert response.status_code == status, response.text
    assert words in str(response.json()["detail"])


def paths(node: dict[str, Any], key: str, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], int]:
    """Every frame path of a tree with its weight under `key`, zero weights left out."""
    out: dict[tuple[str, ...], int] = {}
    for child in node["children"]:
        path = (*prefix, child["name"])
        if child[key]:
            out[path] = child[key]
        out.update(paths(child, key, path))
    return out


def test_each_side_is_that_side_flame_graph(api: TestClient, captures: tuple[int, int]) -> None:
    before, after = captures
    result = get_diff(api, a_captures=str(before), b_captures=str(after))
    for capture, key in ((before, "a"), (after, "b")):
        flame = api.get("/api/flame", params={"captures": str(capture)}).json()
        assert paths(result["root"], key) == paths(flame["root"], "value")
        assert result[key]["total"] == flame["total"]
