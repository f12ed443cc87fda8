"""A 100,000-frame stack through the flame graph, its zooms, the diff, the folded download and the CLI.

Stacks that deep come from runaway recursion; the capture below holds one beside a few ordinary
stacks. Everything that walks a tree must walk it without recursion, and what the browser cannot
draw arrives folded into a "(deeper)" frame that a zoom loads, with every total unchanged.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stallscope.analysis.flame import DEEPER_NAME
from stallscope.cli import main
from stallscope.flame.router import DEFAULT_MAX_DEPTH
from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed

DEPTH = 100_000
"""Frames in the deep stack, its process name not counted."""
DEEP_FRAMES = ["main", "dive", *(f"f{i}" for i in range(DEPTH - 2))]
DEEP_WEIGHT = 3
DEEP_LINE = f"app;{';'.join(DEEP_FRAMES)} {DEEP_WEIGHT}\n"
DEEP = "app;main;work 10\napp;main;idle 5\n" + DEEP_LINE + "db;main;query;scan 7\n"
"""Ordinary stacks first: a format is recognised from the head of the file."""
DEEP_TOTAL = 25
NORMAL = "app;main;work 20\napp;main;dive;f0 4\ndb;main;query;sort 6\n"
FUNCTIONS = DEPTH + 4
"""Distinct frame names of the deep capture: the deep stack's, then work, idle, query and scan."""
ZOOM_LEVEL = 2_000
"""As deep as a zoom goes here: its path travels in the URL, which HTTP clients cap (httpx at 64 KiB)."""


@pytest.fixture(scope="module")
def captures(api: TestClient, worker: subprocess.Popen[bytes]) -> tuple[int, int]:
    incident = make_incident(api)
    ids = []
    for name, text in (("deep.folded", DEEP), ("normal.folded", NORMAL)):
        capture = upload_bytes(api, incident["id"], text.encode(), name)
        parsed = wait_parsed(api, capture["id"])
        assert parsed["status"] == "ready", parsed
        ids.append(int(capture["id"]))
    return ids[0], ids[1]


def get_json(api: TestClient, url: str, **params: Any) -> dict[str, Any]:
    response = api.get(url, params=params)
    assert response.status_code == 200, response.text[:2000]
    result: dict[str, Any] = loads_deep(response.text)
    return result


def loads_deep(text: str) -> Any:
    """`json.loads` without its recursion, which gives up near 1,000 nested containers."""
    scalar = json.JSONDecoder().raw_decode
    whitespace = re.compile(r"[ \t\n\r]*")
    document: list[Any] = []
    open_containers: list[Any] = [document]
    keys: list[str] = []  # the key each open object waits to fill
    previous = "["  # the last structural character, or "v" after a value
    pos = 0
    while (pos := whitespace.match(text, pos).end()) < len(text):  # type: ignore[union-attr]
        char, top = text[pos], open_containers[-1]
        if char in ",:]}":
            if char in "]}":
                open_containers.pop()
            previous, pos = ("v" if char in "]}" else char), pos + 1
            continue
        if isinstance(top, dict) and previous in "{,":
            key, pos = scalar(text, pos)
            keys.append(key)
            previous = "v"
            continue
        if char in "[{":
            value: Any = [] if char == "[" else {}
            previous, pos = char, pos + 1
        else:
            value, pos = scalar(text, pos)
            previous = "v"
        if isinstance(top, list):
            top.append(value)
        else:
            top[keys.pop()] = value
        if char in "[{":
            open_containers.append(value)
    (result,) = document
    return result


def child(node: dict[str, Any], name: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [c for c in node["children"] if c["name"] == name]
    assert len(found) == 1, f"{name} once among {[c['name'] for c in node['children']][:20]}"
    return found[0]


def along(node: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    """The nodes met following `names` down from `node` (a loop: the path is deep)."""
    met = []
    for name in names:
        node = child(node, name)
        met.append(node)
    return met


def path_to(level: int) -> list[str]:
    """Names from the root to the deep stack's frame `level` levels below it (the process is level 1)."""
    return ["app", *DEEP_FRAMES[: level - 1]]


def test_the_flame_graph_folds_what_lies_below_the_depth_budget(
    api: TestClient, captures: tuple[int, int]
) -> None:
    deep, _ = captures
    result = get_json(api, "/api/flame", captures=str(deep))
    assert (result["total"], result["total_samples"]) == (DEEP_TOTAL, 4)
    root = result["root"]
    assert {c["name"]: c["value"] for c in root["children"]} == {"app": 18, "db": 7}
    assert result["max_depth"] == DEFAULT_MAX_DEPTH
    assert result["height"] == DEFAULT_MAX_DEPTH + 1
    chain = along(root, path_to(DEFAULT_MAX_DEPTH))
    assert [n["value"] for n in chain[3:]] == [DEEP_WEIGHT] * (DEFAULT_MAX_DEPTH - 3)
    assert all(n.get("truncated") is True for n in chain)
    (deeper,) = chain[-1]["children"]
    folded = DEPTH + 1 - DEFAULT_MAX_DEPTH
    assert deeper == {
        "name": DEEPER_NAME,
        "value": DEEP_WEIGHT,
        "samples": 1,
        "kind": "deeper",
        "children": [],
        "folded_frames": folded,
    }
    assert (result["deep_nodes"], result["pruned_nodes"]) == (folded, folded)
    # The root; db, main, query, scan; app, main, work, idle; dive down to the budget.
    assert result["node_count"] == 1 + 4 + 4 + DEFAULT_MAX_DEPTH - 2
    assert "truncated" not in child(child(root, "db"), "main")


def test_a_zoom_loads_the_next_levels_and_a_large_budget_the_whole_stack(
    api: TestClient, captures: tuple[int, int]
) -> None:
    deep, _ = captures
    level = ZOOM_LEVEL
    zoomed = get_json(api, "/api/flame", captures=str(deep), focus=json.dumps(path_to(level)))
    assert zoomed["root"]["name"] == DEEP_FRAMES[level - 2]
    assert (zoomed["total"], zoomed["focus"]) == (DEEP_WEIGHT, path_to(level))
    chain = along(zoomed["root"], DEEP_FRAMES[level - 1 : level - 1 + DEFAULT_MAX_DEPTH])
    (deeper,) = chain[-1]["children"]
    assert (deeper["name"], deeper["value"]) == (DEEPER_NAME, DEEP_WEIGHT)
    assert deeper["folded_frames"] == DEPTH + 1 - level - DEFAULT_MAX_DEPTH

    whole = get_json(
        api, "/api/flame", captures=str(deep), max_depth=str(DEPTH + 1), max_nodes=str(2 * DEPTH)
    )
    assert (whole["height"], whole["deep_nodes"], whole["pruned_nodes"]) == (DEPTH + 1, 0, 0)
    chain = along(whole["root"], path_to(DEPTH + 1))
    assert chain[-1] == {
        "name": DEEP_FRAMES[-1],
        "value": DEEP_WEIGHT,
        "samples": 1,
        "kind": "user",
        "children": [],
    }


def test_the_diff_of_a_deep_capture_with_itself_and_with_an_ordinary_one(
    api: TestClient, captures: tuple[int, int]
) -> None:
    deep, normal = captures
    same = get_json(api, "/api/diff", **{"a.captures": str(deep), "b.captures": str(deep)})
    assert (same["a"]["total"], same["b"]["total"], same["scale"]) == (DEEP_TOTAL, DEEP_TOTAL, 1)
    assert same["function_count"] == FUNCTIONS
    assert {f["total_delta"] for f in same["functions"]} == {0}
    chain = along(same["root"], path_to(DEFAULT_MAX_DEPTH))
    assert {(n["a"], n["b"], n["delta"]) for n in chain[3:]} == {(DEEP_WEIGHT, DEEP_WEIGHT, 0)}
    (deeper,) = chain[-1]["children"]
    assert (deeper["name"], deeper["a"], deeper["b"], deeper["delta"]) == (DEEPER_NAME, 3, 3, 0)
    assert deeper["folded_frames"] == same["deep_nodes"] == DEPTH + 1 - DEFAULT_MAX_DEPTH

    changed = get_json(
        api, "/api/diff", normalize="none", **{"a.captures": str(normal), "b.captures": str(deep)}
    )
    assert (changed["a"]["total"], changed["b"]["total"]) == (30, DEEP_TOTAL)
    dive, f0, f1 = along(changed["root"], ["app", "main", "dive", "f0", "f1"])[2:]
    assert [(n["a"], n["b"], n["delta"]) for n in (dive, f0, f1)] == [(4, 3, -1), (4, 3, -1), (0, 3, 3)]
    focus = path_to(DEFAULT_MAX_DEPTH)
    zoomed = get_json(
        api,
        "/api/diff",
        normalize="none",
        focus=json.dumps(focus),
        **{"a.captures": str(normal), "b.captures": str(deep)},
    )
    assert (zoomed["root"]["name"], zoomed["root"]["a"], zoomed["root"]["b"]) == (focus[-1], 0, DEEP_WEIGHT)
    assert zoomed["height"] == DEFAULT_MAX_DEPTH + 1


def test_the_folded_download_gives_the_deep_line_back_whole(
    api: TestClient, captures: tuple[int, int]
) -> None:
    deep, _ = captures
    response = api.get("/api/flame/folded", params={"captures": str(deep)})
    assert response.status_code == 200
    assert response.content == "".join(sorted(DEEP.splitlines(keepends=True))).encode()
    zoomed = api.get(
        "/api/flame/folded", params={"captures": str(deep), "focus": json.dumps(path_to(ZOOM_LEVEL))}
    )
    assert zoomed.content == DEEP_LINE.encode()


def perf_script_sample(comm: str, t: float, frames: list[str]) -> str:
    """One `perf script` sample of 1 ms; `frames` root first (perf prints the leaf first)."""
    lines = [f"{comm} 10/10 [000] {t:.6f}: 1000000 cpu-clock:"]
    lines += [f"\t    {0x1000 + i:x} {name} (/usr/bin/{comm})" for i, name in enumerate(reversed(frames))]
    return "\n".join(lines) + "\n\n"


def test_the_cli_collapses_and_diffs_a_deep_stack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    perf = tmp_path / "deep.perf.txt"
    perf.write_text(
        perf_script_sample("app", 100.0, ["main", "work"])
        + perf_script_sample("app", 100.1, DEEP_FRAMES)
        + perf_script_sample("db", 100.2, ["main", "query"])
    )
    assert main(["collapse", str(perf)]) == 0
    out = capsys.readouterr().out
    assert out == f"app;{';'.join(DEEP_FRAMES)} 1000000\napp;main;work 1000000\ndb;main;query 1000000\n"

    deep, normal = tmp_path / "deep.folded", tmp_path / "normal.folded"
    deep.write_text(DEEP)
    normal.write_text(NORMAL)
    assert main(["diff", str(normal), str(deep), "--json", "--normalize", "none", "--top", "5"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["a"]["total"], result["b"]["total"]) == (30, DEEP_TOTAL)
    assert result["function_count"] == FUNCTIONS + 1  # and sort, only in the ordinary capture
    work = next(f for f in result["by_total"] if f["name"] == "work")
    assert (work["total_a"], work["total_b"], work["total_delta"]) == (20, 10, -10)
    assert main(["diff", str(deep), str(deep), "--json", "--top", "3"]) == 0
    same = json.loads(capsys.readouterr().out)
    assert {f["total_delta"] for f in same["by_total"]} == {0}
