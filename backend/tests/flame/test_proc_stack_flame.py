"""/proc stack dumps, recorded for real (see tests/ingest/data/proc_stacks), through the real worker
into a flame graph of blocking stacks: every state summed, or one (D), counted in samples."""

from __future__ import annotations

import subprocess
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed

DATA = Path(__file__).resolve().parents[1] / "ingest" / "data" / "proc_stacks"
STATES = {"R": 59, "S": 48, "D": 13}
"""Dumps per state in pid_state.txt (its README says how they came about)."""


@pytest.fixture(scope="module")
def capture(api: TestClient, worker: subprocess.Popen[bytes]) -> dict[str, Any]:
    incident = make_incident(api)
    uploaded = upload_bytes(api, incident["id"], (DATA / "pid_state.txt").read_bytes(), "stacks.txt")
    parsed = wait_parsed(api, uploaded["id"])
    assert parsed["status"] == "ready", parsed
    return parsed


def flame(api: TestClient, capture_id: int | str, **params: Any) -> dict[str, Any]:
    response = api.get("/api/flame", params={"captures": str(capture_id), **params})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def children(node: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {child["name"]: child for child in node["children"]}


def test_the_capture_is_named_and_placed_in_wall_clock_time(capture: dict[str, Any]) -> None:
    assert capture["format"] == "proc-stacks"
    assert capture["clock"]["mode"] == "realtime"
    assert capture["record_counts"]["samples"] == 120
    assert {e["name"]: (e["samples"], e["unit"]) for e in capture["events"]} == {
        f"proc-stack:{state}": (n, "samples") for state, n in STATES.items()
    }
    assert capture["time_start"].startswith("2026-11-25T16:59:35.022772")


def test_every_state_summed_in_samples(api: TestClient, capture: dict[str, Any]) -> None:
    graph = flame(api, capture["id"], source="proc-stack")
    assert (graph["unit"], graph["total"], graph["total_samples"]) == ("samples", 120, 120)
    assert graph["events"] == list(STATES)  # the states, most sampled first
    assert set(children(graph["root"])) == {"stallwork", "fsync", "lock", "io worker", "spin", "nap"}


def test_the_d_state_flame_graph_holds_only_blocked_kernel_stacks(
    api: TestClient, capture: dict[str, Any]
) -> None:
    graph = flame(api, capture["id"], source="proc-stack", state="D")
    assert (graph["total"], graph["total_samples"]) == (13, 13)
    processes = children(graph["root"])
    assert set(processes) <= {"fsync", "io worker"}
    for process in processes.values():
        # Root first: the system call entry. (One fsync dump stops at sync_inode_metadata: the kernel's
        # unwinder gives up on a thread that runs while it is being read, and the dump is kept as read.)
        heaviest = max(process["children"], key=lambda child: child["value"])
        assert heaviest["name"] == "entry_SYSCALL_64_after_hwframe"
        assert {child["kind"] for child in process["children"]} == {"kernel"}
    folded = api.get(
        "/api/flame/folded",
        params={"captures": str(capture["id"]), "source": "proc-stack", "state": "D"},
    ).text
    lines = folded.splitlines()
    assert sum(int(line.rsplit(" ", 1)[1]) for line in lines) == 13
    assert all(line.startswith(("fsync;", "io worker;")) and "+0x" not in line for line in lines)
    assert "fsync;entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_fsync;do_fsync;" in folded


def test_a_time_range_reads_the_raw_samples_of_those_states(api: TestClient, capture: dict[str, Any]) -> None:
    start = datetime.fromisoformat(capture["time_start"])
    first_second = {"start": start.isoformat(), "end": (start + timedelta(seconds=1)).isoformat()}
    every_state = flame(api, capture["id"], source="proc-stack", **first_second)
    blocked = flame(api, capture["id"], source="proc-stack", state="D", **first_second)
    assert 0 < blocked["total"] < every_state["total"] < 120


PERF_SCRIPT = b"".join(
    b"postgres 4242/4242 [000] %.6f: 1000000 cpu-clock:\n\t    1000 scan (/usr/bin/postgres)\n\n" % t
    for t in (100.0, 100.1, 100.2)
)
"""Three CPU samples: far fewer than the /proc stack dumps of any one state."""


def test_cpu_samples_stay_the_default_beside_proc_stack_samples(
    api: TestClient, capture: dict[str, Any]
) -> None:
    perf = wait_parsed(api, upload_bytes(api, make_incident(api)["id"], PERF_SCRIPT, "cpu.txt")["id"])
    assert perf["status"] == "ready", perf
    graph = flame(api, f"{perf['id']},{capture['id']}")
    assert graph["event"] == "cpu-clock"
    assert graph["events"] == ["cpu-clock", *(f"proc-stack:{state}" for state in STATES)]
    assert (graph["total_samples"], set(children(graph["root"]))) == (3, {"postgres"})


def test_a_diff_compares_the_blocked_stacks_of_two_time_ranges(
    api: TestClient, capture: dict[str, Any]
) -> None:
    """The diff reads the flame graph's filter: with `state=D`, D dumps only, counted in samples."""
    start = datetime.fromisoformat(capture["time_start"])
    middle = (start + timedelta(seconds=1.5)).isoformat()
    ids = str(capture["id"])
    params = {"a.captures": ids, "a.end": middle, "b.captures": ids, "b.start": middle}
    response = api.get(
        "/api/diff", params={**params, "source": "proc-stack", "state": "D", "normalize": "none"}
    )
    assert response.status_code == 200, response.text
    diff = response.json()
    assert (diff["state"], diff["event"], diff["unit"]) == ("D", None, "samples")
    assert diff["events"] == list(STATES)
    assert diff["a"]["samples"] + diff["b"]["samples"] == 13
    assert {child["name"] for child in diff["root"]["children"]} <= {"fsync", "io worker"}


def test_facets_follow_the_state(api: TestClient, capture: dict[str, Any]) -> None:
    response = api.get(
        "/api/facets", params={"captures": str(capture["id"]), "source": "proc-stack", "state": "D"}
    )
    assert response.status_code == 200, response.text
    threads = response.json()["threads"]
    assert sum(t["samples"] for t in threads) == 13
    assert {t["comm"] for t in threads} <= {"fsync", "io worker"}
    assert {t["pid"] for t in threads} == {32258}


def test_every_view_shows_the_cpu_event_by_default_when_dumps_outnumber_it(
    api: TestClient, capture: dict[str, Any]
) -> None:
    """The flame graph, the diff and the heatmap choose the same default (`analysis.event_choice`):
    eight perf samples beside 120 /proc stack dumps, and the perf samples are what is shown."""
    from tests.diff.texts import BEFORE

    perf = wait_parsed(api, upload_bytes(api, capture["incident_id"], BEFORE.encode(), "cpu.txt")["id"])
    assert perf["status"] == "ready", perf
    both = f"{capture['id']},{perf['id']}"
    graph = flame(api, both)
    assert (graph["event"], graph["unit"]) == ("cpu-clock", "ns")
    assert graph["events"] == ["cpu-clock", *(f"proc-stack:{state}" for state in STATES)]
    diff = api.get("/api/diff", params={"a.captures": both, "b.captures": both})
    assert diff.status_code == 200, diff.text
    assert (diff.json()["event"], diff.json()["events"]) == (graph["event"], graph["events"])
    heatmap = api.get("/api/heatmap", params={"captures": both, "stream": "samples"})
    assert heatmap.status_code == 200, heatmap.text
    assert heatmap.json()["event"] == "cpu-clock"
    streams = api.get("/api/heatmap/streams", params={"captures": both}).json()
    (samples,) = [s for s in streams["streams"] if s["stream"] == "samples"]
    assert [n["name"] for n in samples["names"]] == graph["events"]
