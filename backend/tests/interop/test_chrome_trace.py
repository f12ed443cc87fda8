"""A timeline selection as Chrome trace-event JSON, checked against what the API lists for it.

No Chrome trace consumer installs offline here (Perfetto's trace processor downloads its binary at
run time), so the structure both viewers need is checked by hand: every event has ph/ts/pid/tid,
complete events a duration, every thread a name, every stack reference an entry.
"""

from __future__ import annotations

import subprocess
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident, upload_file
from tests.fixtures.worker import wait_parsed

CAPTURE = Path(__file__).parent / "data" / "sched-cpu-dd.perf.txt.gz"


@pytest.fixture(scope="module")
def parsed(api: TestClient, worker: subprocess.Popen[bytes]) -> dict[str, Any]:
    capture = upload_file(api, make_incident(api)["id"], CAPTURE)
    done = wait_parsed(api, capture["id"])
    assert done["status"] == "ready", done
    return done


def _trace(api: TestClient, capture: dict[str, Any], **params: str) -> dict[str, Any]:
    response = api.get(
        "/api/timeline/export",
        params={"incident": capture["incident_id"], "captures": capture["id"], "format": "chrome", **params},
    )
    assert response.status_code == 200, response.text
    trace: dict[str, Any] = response.json()
    return trace


def _events_total(api: TestClient, capture: dict[str, Any], **params: str) -> int:
    page = api.get("/api/events", params={"captures": capture["id"], "limit": 1, **params}).json()
    return int(page["total"])


def _check_structure(trace: dict[str, Any]) -> Counter[str]:
    """What both viewers need of every event; the events counted by phase."""
    named = {(e["pid"], e["tid"]) for e in trace["traceEvents"] if e["name"] == "thread_name"}
    frames = trace["stackFrames"]
    phases: Counter[str] = Counter()
    for event in trace["traceEvents"]:
        assert {"ph", "ts", "pid", "tid", "name"} <= event.keys(), event
        phases[event["ph"]] += 1
        if event["ph"] == "M":
            continue
        assert (event["pid"], event["tid"]) in named, event
        assert event["ts"] >= 0, event
        if event["ph"] == "X":
            assert event["dur"] >= 0, event
        else:
            assert event["ph"] == "i", event
            assert event["s"] == "t", event
        if "sf" in event:
            frame = frames[event["sf"]]
            while "parent" in frame:
                frame = frames[frame["parent"]]
    return phases


def test_the_trace_holds_the_selections_samples_and_events(api: TestClient, parsed: dict[str, Any]) -> None:
    trace = _trace(api, parsed)
    phases = _check_structure(trace)
    other = trace["otherData"]
    events = _events_total(api, parsed)
    assert other["samples"] == parsed["sample_count"] > 100
    assert other["events"] == events > 0
    assert phases["X"] + phases["i"] == parsed["sample_count"] + events
    assert other["left_out"] == {"samples": 0, "events": 0}
    assert other["complete_until_utc"] is None
    start = datetime.fromisoformat(parsed["time_start"])
    assert other["origin_epoch_us"] == (start - datetime.fromisoformat("1970-01-01T00:00:00+00:00")) // (
        timedelta(microseconds=1)
    )
    off_cpu = [e for e in trace["traceEvents"] if e.get("cat") == "off-cpu"]
    assert off_cpu
    assert all(e["name"] == f"off-cpu {e['args']['state']}" for e in off_cpu)
    samples = [e for e in trace["traceEvents"] if e.get("cat") == "cpu-clock"]
    assert len(samples) == parsed["sample_count"]
    assert all("sf" in e for e in samples)

    # A range: what the events list says it holds; a limit: the trace stops at a time and says so.
    end = start + (datetime.fromisoformat(parsed["time_end"]) - start) / 2
    bounds = {"start": start.isoformat(), "end": end.isoformat()}
    ranged = _trace(api, parsed, **bounds)
    _check_structure(ranged)
    assert ranged["otherData"]["events"] == _events_total(api, parsed, **bounds)
    assert 0 < ranged["otherData"]["samples"] < parsed["sample_count"]
    limited = _trace(api, parsed, limit="40")
    kept = limited["otherData"]
    assert 0 < kept["samples"] + kept["events"] <= 40
    left_out = {"samples": other["samples"] - kept["samples"], "events": events - kept["events"]}
    assert kept["left_out"] == left_out
    cut = datetime.fromisoformat(kept["complete_until_utc"])
    last = max(e["ts"] for e in limited["traceEvents"] if e["ph"] != "M")
    assert kept["origin_epoch_us"] + last < cut.timestamp() * 1_000_000
