"""/proc stack dumps on the timeline: a track per state, counting the dumps in each bucket by process.

Real recordings (tests/ingest/data/proc_stacks): one with states on db1, one without on db2, one
without any time on db3, which has nothing to draw.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident
from tests.timeline.capture_text import one_track, timeline, tracks, upload_parsed

DATA = Path(__file__).resolve().parents[1] / "ingest" / "data" / "proc_stacks"


@pytest.fixture(scope="module")
def incident(api: TestClient, worker: subprocess.Popen[bytes]) -> dict[str, Any]:
    created = make_incident(api)
    for name, host in (("pid_state.txt", "db1"), ("ts_us.txt", "db2"), ("head_bare.txt", "db3")):
        upload_parsed(api, created["id"], (DATA / name).read_bytes(), name, host=host)
    return created


def host_tracks(api: TestClient, incident: dict[str, Any], host: str) -> list[dict[str, Any]]:
    (entry,) = [h for h in tracks(api, incident["id"])["hosts"] if h["host"] == host]
    result: list[dict[str, Any]] = entry["tracks"]
    return result


def test_each_state_is_a_track_uninterruptible_first(api: TestClient, incident: dict[str, Any]) -> None:
    listed = host_tracks(api, incident, "db1")
    assert [(t["type"], t["origin"], t["state"], t["samples"], t["label"]) for t in listed] == [
        ("cpu", "proc-stack", "D", 13, "/proc stack samples · state D"),
        ("cpu", "proc-stack", "S", 48, "/proc stack samples · state S"),
        ("cpu", "proc-stack", "R", 59, "/proc stack samples · state R"),
    ]
    assert listed[0]["id"] == "cpu:db1:proc-stack%3AD"


def test_dumps_without_a_state_are_one_track(api: TestClient, incident: dict[str, Any]) -> None:
    (track,) = host_tracks(api, incident, "db2")
    assert (track["origin"], track["state"], track["samples"], track["label"]) == (
        "proc-stack",
        None,
        132,
        "/proc stack samples",
    )
    assert {p["comm"] for p in track["top"]} >= {"lock", "fsync"}


def test_untimed_dumps_have_nothing_to_draw(api: TestClient, incident: dict[str, Any]) -> None:
    assert host_tracks(api, incident, "db3") == []


@pytest.mark.parametrize(("width", "read_from"), [(4, "rollup"), (4000, "raw")])
def test_the_track_counts_every_dump_once(
    api: TestClient, incident: dict[str, Any], width: int, read_from: str
) -> None:
    """Coarse buckets (a rollup) and fine ones (raw samples) add up to the dumps of that state."""
    track = one_track(timeline(api, incident["id"], ["cpu:db1:proc-stack%3AD"], width=width))
    assert track["source"].startswith(read_from)
    assert sum(g["total"] for g in track["groups"]) == 13
    assert {(g["comm"], g["pid"]) for g in track["groups"]} <= {("fsync", 32258), ("io worker", 32258)}
    per_bucket = [sum(counts) for counts in zip(*(g["counts"] for g in track["groups"]), strict=True)]
    assert sum(per_bucket) == 13
    assert max(per_bucket) < 13  # spread over the 3 s recording, not piled into one bucket
