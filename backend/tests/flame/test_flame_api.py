"""The flame-graph endpoints on a small, hand-written capture with known answers."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed


def sample(comm: str, pid: int, tid: int, t: float, event: str, period: int, *frames: str) -> str:
    """One perf script sample; `frames` are leaf first, as perf prints them."""
    lines = [f"{comm} {pid}/{tid} [000] {t:.6f}: {period} {event}:"]
    lines += [f"\t    {0x1000 + i:x} {f} (/usr/bin/{comm})" for i, f in enumerate(frames)]
    return "\n".join(lines) + "\n\n"


CAPTURE = "".join(
    [
        # cpu-clock: db spends 3 ms in scan, 1 ms in sort; web 2 ms in serve.
        sample("db", 10, 11, 100.0, "cpu-clock", 1_000_000, "scan", "query", "main"),
        sample("db", 10, 11, 100.1, "cpu-clock", 1_000_000, "scan", "query", "main"),
        sample("db", 10, 12, 100.2, "cpu-clock", 1_000_000, "scan", "query", "main"),
        sample("db", 10, 12, 101.5, "cpu-clock", 1_000_000, "sort", "query", "main"),
        sample("web", 20, 20, 101.6, "cpu-clock", 1_000_000, "serve", "main"),
        sample("web", 20, 20, 101.7, "cpu-clock", 1_000_000, "serve", "main"),
        # page-faults must never be summed into the cpu-clock profile.
        sample("db", 10, 11, 100.3, "page-faults", 1, "memcpy", "query", "main"),
        sample("<script>alert(1)</script>", 30, 30, 100.4, "page-faults", 1, "operator<<", "main"),
    ]
)


@pytest.fixture(scope="module")
def capture_id(api: TestClient, worker: subprocess.Popen[bytes]) -> int:
    incident = make_incident(api)
    capture = upload_bytes(api, incident["id"], CAPTURE.encode(), "known.txt")
    parsed = wait_parsed(api, capture["id"])
    assert parsed["status"] == "ready", parsed
    return int(capture["id"])


def flame(api: TestClient, capture_id: int, **params: Any) -> dict[str, Any]:
    response = api.get("/api/flame", params={"captures": str(capture_id), **params})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def names(node: dict[str, Any]) -> dict[str, int]:
    return {c["name"]: c["value"] for c in node["children"]}


def test_events_are_kept_apart_and_the_busiest_is_the_default(api: TestClient, capture_id: int) -> None:
    cpu = flame(api, capture_id)
    assert cpu["event"] == "cpu-clock"
    assert cpu["events"] == ["cpu-clock", "page-faults"]
    assert cpu["unit"] == "ns"
    assert cpu["total"] == 6_000_000
    assert cpu["total_samples"] == 6
    assert names(cpu["root"]) == {"db": 4_000_000, "web": 2_000_000}
    faults = flame(api, capture_id, event="page-faults")
    assert faults["total"] == 2
    assert names(faults["root"]) == {"db": 1, "<script>alert(1)</script>": 1}


def test_filters_by_process_thread_and_time(api: TestClient, capture_id: int) -> None:
    assert flame(api, capture_id, comm="web")["total"] == 2_000_000
    assert flame(api, capture_id, pid=10)["total"] == 4_000_000
    assert flame(api, capture_id, tid=12)["total"] == 2_000_000
    first_second = flame(
        api, capture_id, start="1970-01-01T00:01:40Z", end="1970-01-01T00:01:41Z"
    )  # perf time 100.0 .. 101.0 on an unaligned capture
    assert first_second["total"] == 3_000_000


def test_within_keeps_or_drops_offsets_inside_every_second(api: TestClient, capture_id: int) -> None:
    # cpu-clock offsets in their seconds: 0, 100, 200 ms (scan), 500 (sort), 600, 700 ms (serve).
    inside = flame(api, capture_id, within="0-150000")
    assert inside["total"] == 2_000_000
    assert names(inside["root"]) == {"db": 2_000_000}
    outside = flame(api, capture_id, within="!0-150000")
    assert outside["total"] == 4_000_000
    assert names(outside["root"]) == {"db": 2_000_000, "web": 2_000_000}
    windowed = flame(api, capture_id, within="550000-1000000", start="1970-01-01T00:01:41Z")
    assert names(windowed["root"]) == {"web": 2_000_000}


def test_malformed_within_is_a_clear_422(api: TestClient, capture_id: int) -> None:
    response = api.get("/api/flame", params={"captures": str(capture_id), "within": "20-10"})
    assert response.status_code == 422
    assert "within" in response.json()["detail"]


def test_focus_returns_the_subtree_with_a_fresh_budget(api: TestClient, capture_id: int) -> None:
    result = flame(api, capture_id, focus=json.dumps(["db", "main", "query"]))
    assert result["root"]["name"] == "query"
    assert result["total"] == 4_000_000
    assert names(result["root"]) == {"scan": 3_000_000, "sort": 1_000_000}


def test_unknown_focus_is_a_404(api: TestClient, capture_id: int) -> None:
    response = api.get(
        "/api/flame", params={"captures": str(capture_id), "focus": json.dumps(["db", "nope"])}
    )
    assert response.status_code == 404
    assert "db > nope" in response.json()["detail"]


def test_node_budget_prunes_and_says_so(api: TestClient, capture_id: int) -> None:
    result = flame(api, capture_id, max_nodes=5)
    full = flame(api, capture_id)
    assert full["pruned_nodes"] == 0
    assert result["node_count"] == 5
    assert result["pruned_nodes"] == full["node_count"] - 5
    assert result["root"]["truncated"] is True
    assert result["total"] == full["total"]


def test_folded_download_follows_the_view(api: TestClient, capture_id: int) -> None:
    response = api.get("/api/flame/folded", params={"captures": str(capture_id), "comm": "db"})
    assert response.status_code == 200
    assert response.text == "db;main;query;scan 3000000\ndb;main;query;sort 1000000\n"
    assert "attachment" in response.headers["content-disposition"]


def test_facets_list_events_processes_and_threads(api: TestClient, capture_id: int) -> None:
    facets = api.get("/api/facets", params={"captures": str(capture_id)}).json()
    assert [(e["name"], e["samples"]) for e in facets["events"]] == [("cpu-clock", 6), ("page-faults", 2)]
    assert {(p["pid"], p["comm"]) for p in facets["processes"]} == {
        (10, "db"),
        (20, "web"),
        (30, "<script>alert(1)</script>"),
    }
    assert len(facets["threads"]) == 4
    assert facets["time_start"].startswith("1970-01-01T00:01:40")


def test_bad_capture_list_is_a_clear_422(api: TestClient) -> None:
    response = api.get("/api/flame", params={"captures": "1,x"})
    assert response.status_code == 422
    assert "comma-separated" in response.json()["detail"]
