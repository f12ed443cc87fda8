"""One accounting: a thread's bar (the API), its strip and `stallscope threads` agree, on a real capture
whose waits often have no closing event (`tests/ingest/data/sched/README.md`)."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import subprocess
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stallscope.analysis.thread_states import STATES
from stallscope.cli import main
from tests.fixtures.factories import make_incident, upload_file
from tests.fixtures.worker import wait_parsed

LOCKWAIT = Path(__file__).parents[1] / "ingest" / "data" / "sched" / "lockwait.sched.txt.gz"
PID = 15687
WORKLOAD = ("hot_locker", "cold_locker", "ticker", "fsync_io")
HOT, COLD = "0x5593191d8100", "0x5593191d80c0"
TOLERANCE = 0.01
"""Shares may differ by a rounding of the strip's times to microseconds; the issue asks for 1%."""


@pytest.fixture(scope="module")
def capture(api: TestClient, worker: subprocess.Popen[bytes]) -> int:
    incident = make_incident(api)
    uploaded = upload_file(api, incident["id"], LOCKWAIT, host="lab-1")
    assert wait_parsed(api, uploaded["id"])["status"] in ("ready", "partial")
    return int(uploaded["id"])


@pytest.fixture(scope="module")
def cli() -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["threads", str(LOCKWAIT), "--json"]) == 0
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


def workload(threads: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {t["tid"]: t for t in threads if t["comm"] in WORKLOAD}


def thread_named(api: TestClient, capture: int, comm: str) -> dict[str, Any]:
    threads = api.get("/api/threads", params={"captures": str(capture)}).json()["threads"]
    return next(t for t in threads if t["comm"] == comm)


def strip_shares(api: TestClient, capture: int, thread: dict[str, Any], **params: str) -> dict[str, float]:
    response = api.get(
        "/api/threads/strip",
        params={"captures": str(capture), "tid": thread["tid"], "comm": thread["comm"], **params},
    )
    assert response.status_code == 200, response.text
    spent: Counter[str] = Counter()
    for seg in response.json()["segments"]:
        start, end = datetime.fromisoformat(seg["start"]), datetime.fromisoformat(seg["end"])
        spent[seg["state"]] += (end - start).total_seconds()
    total = sum(spent.values())
    return {state: spent[state] / total for state in STATES}


def shares(states: dict[str, int], wall: int) -> dict[str, float]:
    return {state: states[state] / wall for state in STATES}


def assert_close(a: dict[str, float], b: dict[str, float], who: str) -> None:
    for state in STATES:
        assert abs(a[state] - b[state]) <= TOLERANCE, f"{who}: {state} {a[state]:.4f} vs {b[state]:.4f}"


def test_bar_strip_and_cli_agree_on_every_thread(api: TestClient, capture: int, cli: dict[str, Any]) -> None:
    bars = workload(api.get("/api/threads", params={"captures": str(capture)}).json()["threads"])
    offline = workload(cli["threads"])
    assert sorted(bars) == sorted(offline)
    assert len(bars) == 8
    for tid, bar in bars.items():
        bar_shares = shares(bar["states"], bar["wall_ns"])
        assert_close(bar_shares, offline[tid]["shares"], f"cli {bar['comm']} {tid}")
        assert_close(
            bar_shares, strip_shares(api, capture, bar, buckets="1000"), f"strip {bar['comm']} {tid}"
        )
        assert_close(bar_shares, strip_shares(api, capture, bar, buckets="10"), f"coarse strip {tid}")


def test_and_over_a_time_range(api: TestClient, capture: int) -> None:
    span = {"start": "1970-01-01T03:03:07.050000Z", "end": "1970-01-01T03:03:07.150000Z"}
    bars = workload(api.get("/api/threads", params={"captures": str(capture), **span}).json()["threads"])
    assert len(bars) == 8
    for tid, bar in bars.items():
        assert 0 < bar["wall_ns"] <= 100_000_000
        assert_close(shares(bar["states"], bar["wall_ns"]), strip_shares(api, capture, bar, **span), str(tid))


def test_waits_without_a_closing_event_are_inferred_not_unknown(api: TestClient, capture: int) -> None:
    fsync = thread_named(api, capture, "fsync_io")
    # 781 of its 1,799 D waits have no wakeup and no switch-in: its next event bounds each.
    assert fsync["inferred_intervals"] > 700
    assert fsync["inferred"]["uninterruptible"] > 0.05 * fsync["wall_ns"]
    assert fsync["states"]["unknown"] < 0.001 * fsync["wall_ns"]
    assert fsync["inferred"]["uninterruptible"] < fsync["states"]["uninterruptible"]


def test_pids_are_known(api: TestClient, capture: int) -> None:
    result = api.get("/api/threads", params={"captures": str(capture)}).json()
    assert {t["pid"] for t in workload(result["threads"]).values()} == {PID}
    assert not any(note.startswith("Process ids are unknown") for note in result["notes"])


def test_top_stacks_per_state_show_the_lock_behind_the_timer(api: TestClient, capture: int) -> None:
    """The ticker's normal sleep is a 20 ms timer; it also waits on the hot lock."""
    result = api.get("/api/threads", params={"captures": str(capture), "comm_regex": "^ticker$"}).json()
    (ticker,) = result["threads"]
    sleeping = ticker["top_stacks"]["sleeping"]
    assert "do_nanosleep" in sleeping[0]["frames"]
    assert any("futex_do_wait" in top["frames"] for top in sleeping[1:])
    assert all(a["ns"] >= b["ns"] for a, b in itertools.pairwise(sleeping))
    assert all(top["count"] >= 1 and 0 < top["longest_ns"] <= top["ns"] for top in sleeping)
    fsync = thread_named(api, capture, "fsync_io")
    assert 2 <= len(fsync["top_stacks"]["uninterruptible"]) <= 5


def test_futex_waits_grouped_by_address(api: TestClient, capture: int) -> None:
    result = api.get("/api/threads", params={"captures": str(capture)}).json()
    locks = {lock["address"]: lock for lock in result["locks"] if lock["kind"] == "address"}
    assert set(locks) == {HOT, COLD}
    hot, cold = locks[HOT], locks[COLD]
    assert Counter(w["comm"] for w in hot["waiters"]) == {"hot_locker": 4, "ticker": 1}
    assert Counter(w["comm"] for w in cold["waiters"]) == {"cold_locker": 2}
    assert (hot["pid"], hot["host"]) == (PID, "lab-1")
    assert hot["waits"] == sum(w["waits"] for w in hot["waiters"])
    assert hot["total_ns"] == sum(w["total_ns"] for w in hot["waiters"])
    assert hot["longest_ns"] == max(w["longest_ns"] for w in hot["waiters"])
    assert hot["total_ns"] > cold["total_ns"]
