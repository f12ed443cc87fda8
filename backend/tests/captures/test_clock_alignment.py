"""A capture's clock: anchors from the collector, offsets given at upload, shifts by a person."""

from __future__ import annotations

import json
import subprocess

import pytest
from fastapi.testclient import TestClient

from stallscope.ingest.clock import anchor_offset_ns, clock_mapping
from stallscope.ingest.model import CaptureClock
from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed

# perf time 100.5 s after boot; the host's wall clock read 1_763_712_000 s at boot.
BOOT_EPOCH_NS = 1_763_712_000 * 10**9
SAMPLE = b"svc 7/7 [000] 100.500000: 1000 cpu-clock:\n\t    11 work (/usr/bin/svc)\n\n"
ANCHORS = {
    "perf_clock": "monotonic",
    "anchors": [
        {"monotonic_ns": 50 * 10**9, "realtime_ns": BOOT_EPOCH_NS + 50 * 10**9},
        {"monotonic_ns": 150 * 10**9, "realtime_ns": BOOT_EPOCH_NS + 150 * 10**9 + 40_000},
        {"monotonic_ns": 160 * 10**9, "realtime_ns": BOOT_EPOCH_NS + 160 * 10**9},
    ],
}


def test_the_median_anchor_wins_over_one_bad_pair() -> None:
    assert anchor_offset_ns(ANCHORS["anchors"]) == BOOT_EPOCH_NS


def test_mapping_modes() -> None:
    assert clock_mapping(CaptureClock.MONOTONIC, {}).mode == "unaligned"
    assert clock_mapping(CaptureClock.MONOTONIC, ANCHORS).mode == "anchor"
    assert clock_mapping(CaptureClock.REALTIME, ANCHORS).offset_ns == 0
    default_clock = clock_mapping(CaptureClock.MONOTONIC, {**ANCHORS, "perf_clock": "default"})
    assert "ahead of CLOCK_MONOTONIC" in default_clock.note
    given = clock_mapping(CaptureClock.MONOTONIC, {"offset_ns_given": 5})
    assert (given.mode, given.offset_ns) == ("user-offset", 5)


def test_epoch_times_in_the_time_column_are_kept_as_they_are() -> None:
    """perf record -k CLOCK_REALTIME prints epoch seconds; no anchor must be added to them."""
    to_ts = clock_mapping(CaptureClock.MONOTONIC, ANCHORS).to_timestamp()
    assert to_ts(BOOT_EPOCH_NS).timestamp() == pytest.approx(BOOT_EPOCH_NS / 1e9)
    assert to_ts(10**9).timestamp() == pytest.approx(BOOT_EPOCH_NS / 1e9 + 1)


def test_an_anchored_capture_lands_on_wall_clock_time_and_can_be_shifted(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    incident = make_incident(api)
    capture = upload_bytes(api, incident["id"], SAMPLE, "anchored.txt", clock=json.dumps(ANCHORS))
    parsed = wait_parsed(api, capture["id"])
    assert parsed["clock"]["mode"] == "anchor"
    assert parsed["time_start"] == "2025-11-21T08:01:40.500000Z"

    shifted = api.post(f"/api/captures/{capture['id']}/shift", json={"shift": "+2.5s"})
    assert shifted.status_code == 202
    again = wait_parsed(api, capture["id"])
    assert again["time_start"] == "2025-11-21T08:01:43Z"
    assert again["clock"]["shift_ns"] == 2_500_000_000
    flame = api.get("/api/flame", params={"captures": str(capture["id"]), "start": again["time_start"]})
    assert flame.json()["total_samples"] == 1


def test_unanchored_captures_load_marked_unaligned(api: TestClient, worker: subprocess.Popen[bytes]) -> None:
    incident = make_incident(api)
    parsed = wait_parsed(api, upload_bytes(api, incident["id"], SAMPLE, "plain.txt")["id"])
    assert parsed["clock"]["mode"] == "unaligned"
    assert parsed["time_start"] == "1970-01-01T00:01:40.500000Z"


def test_an_offset_given_at_upload(api: TestClient, worker: subprocess.Popen[bytes]) -> None:
    incident = make_incident(api)
    capture = upload_bytes(api, incident["id"], SAMPLE, "offset.txt", offset="+1763712000s")
    parsed = wait_parsed(api, capture["id"])
    assert parsed["clock"]["mode"] == "user-offset"
    assert parsed["time_start"] == "2025-11-21T08:01:40.500000Z"


def test_perfs_wall_clock_column_aligns_a_capture_and_shifts_still_apply(
    api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    incident = make_incident(api)
    tod = SAMPLE.replace(b"[000] 100.5", b"[000] 2025-11-21 08:01:40.500000   100.5")
    capture = upload_bytes(api, incident["id"], tod, "tod.txt")
    parsed = wait_parsed(api, capture["id"])
    assert parsed["clock"]["mode"] == "perf-tod"
    assert parsed["clock"]["offset_ns"] == BOOT_EPOCH_NS
    assert parsed["time_start"] == "2025-11-21T08:01:40.500000Z"
    api.post(f"/api/captures/{capture['id']}/shift", json={"shift": "-500ms"})
    assert wait_parsed(api, capture["id"])["time_start"] == "2025-11-21T08:01:40Z"


def test_a_bad_shift_is_a_clear_422(api: TestClient, worker: subprocess.Popen[bytes]) -> None:
    incident = make_incident(api)
    capture = upload_bytes(api, incident["id"], SAMPLE, "bad-shift.txt")
    response = api.post(f"/api/captures/{capture['id']}/shift", json={"shift": "soon"})
    assert response.status_code == 422
    assert "not a duration" in response.json()["detail"]
