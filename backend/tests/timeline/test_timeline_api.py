"""The timeline API on hand-written captures with known answers: CPU density per process and bucket,
off-CPU time per state, event latencies, a metric's sawtooth, and the bucket grid itself."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.factories import make_incident
from tests.timeline.capture_text import (
    OFFSET,
    iso,
    one_track,
    perf_capture,
    perf_trace_call,
    sched_switch,
    timeline,
    tracks,
    upload_parsed,
)

SECOND_US = 1_000_000
SECOND_NS = 1_000_000_000

# db (pid 10) 200 samples in the first second, web (pid 20) 50 in the second, db 3 in the third,
# cron (pid 30) one in the fourth; perf time 100 s is 08:00:00Z with OFFSET.
CPU_SAMPLES = (
    [("db", 10, 11, 100.0 + i * 0.005) for i in range(200)]
    + [("web", 20, 21, 101.0 + i * 0.02) for i in range(50)]
    + [("db", 10, 12, 102.1), ("db", 10, 12, 102.2), ("db", 10, 11, 102.3)]
    + [("cron", 30, 30, 103.5)]
)

# Wall-clock CSV (epoch ms from 08:00:00Z): free memory drops 200 MiB a second and refills, 3 times.
SAWTOOTH = [1000.0, 800.0, 600.0, 400.0] * 3
METRICS_CSV = "ts,name,value\n" + "".join(
    f"{1795248000000 + i * 1000},mem_free_mib,{v}\n{1795248000000 + i * 1000},naks,{i % 2}\n"
    for i, v in enumerate(SAWTOOTH)
)


@pytest.fixture(scope="module")
def incident(api: TestClient, worker: subprocess.Popen[bytes]) -> dict[str, Any]:
    """One incident, three hosts: CPU samples and metrics on db1 (aligned), a scheduler trace and a
    syscall trace on sched1 (no offset: unaligned)."""
    created = make_incident(api)
    upload_parsed(api, created["id"], perf_capture(CPU_SAMPLES), "cpu.txt", host="db1", offset=OFFSET)
    upload_parsed(api, created["id"], METRICS_CSV.encode(), "metrics.csv", host="db1")
    upload_parsed(api, created["id"], SCHED.encode(), "sched.txt", host="sched1")
    upload_parsed(api, created["id"], TRACE.encode(), "trace.txt", host="app1", offset="+1795248000s")
    return created


def group_counts(track: dict[str, Any]) -> dict[str, list[int]]:
    return {("other" if g["other"] else f"{g['comm']}/{g['pid']}"): g["counts"] for g in track["groups"]}


# --- tracks ------------------------------------------------------------------------------------------


def test_tracks_are_grouped_by_host_with_stable_ids(api: TestClient, incident: dict[str, Any]) -> None:
    listing = tracks(api, incident["id"])
    hosts = {h["host"]: h for h in listing["hosts"]}
    assert sorted(hosts) == ["app1", "db1", "sched1"]
    assert hosts["sched1"]["unaligned"] is True
    assert hosts["db1"]["unaligned"] is False
    db1 = {t["id"]: t for t in hosts["db1"]["tracks"]}
    cpu = db1["cpu:db1:cpu-clock"]
    assert cpu["samples"] == len(CPU_SAMPLES)
    assert [(p["comm"], p["pid"], p["samples"]) for p in cpu["top"]] == [
        ("db", 10, 203),
        ("web", 20, 50),
        ("cron", 30, 1),
    ]
    free = db1["m:db1:mem_free_mib"]
    assert (free["points"], free["min"], free["max"], free["system"]) == (12, 400.0, 1000.0, False)
    offcpu = {t["id"]: t for t in hosts["sched1"]["tracks"]}["offcpu:sched1"]
    assert offcpu["unclosed"] == 1
    assert [(s["state"], s["intervals"], s["total_ns"]) for s in offcpu["states"]] == [
        ("D", 1, 1_250_000_000),
        ("S", 3, 1_500_000_000),
        ("R", 1, 250_000_000),
    ]
    app1 = {t["id"]: t for t in hosts["app1"]["tracks"]}
    assert app1["ev:app1:syscall"]["count"] == FUTEXES + 2
    assert [(n["name"], n["count"]) for n in app1["ev:app1:syscall"]["names"]] == [
        ("futex", FUTEXES),
        ("fsync", 2),
    ]
    assert app1["ev:app1:syscall:fsync"]["names"] == [{"name": "fsync", "count": 2, "max_ns": 250_000_000}]
    # The default range covers the aligned captures only: sched1's times sit in 1970.
    assert listing["time_start"] == "2026-11-21T08:00:00Z"


def test_selection_filters_hosts_and_captures(api: TestClient, incident: dict[str, Any]) -> None:
    assert [h["host"] for h in tracks(api, incident["id"], hosts="db1")["hosts"]] == ["db1"]
    response = api.get("/api/timeline/tracks", params={"incident": incident["id"], "captures": "999999"})
    assert response.status_code == 422
    assert "not part of incident" in response.json()["detail"]


# --- CPU ---------------------------------------------------------------------------------------------


def test_cpu_density_per_process_and_second_from_the_rollup(
    api: TestClient, incident: dict[str, Any]
) -> None:
    result = timeline(api, incident["id"], ["cpu:db1:cpu-clock"], start=iso(0), end=iso(4), width=4)
    assert result["grid"] == {"start_us": 1795248000 * SECOND_US, "width_us": SECOND_US, "count": 4}
    track = one_track(result)
    assert track["source"].startswith("rollup")
    assert group_counts(track) == {"db/10": [200, 0, 3, 0], "web/20": [0, 50, 0, 0], "cron/30": [0, 0, 0, 1]}
    assert [g["total"] for g in track["groups"]] == [203, 50, 1]


def test_cpu_top_n_folds_the_rest_into_other(api: TestClient, incident: dict[str, Any]) -> None:
    track = one_track(
        timeline(api, incident["id"], ["cpu:db1:cpu-clock"], start=iso(0), end=iso(4), width=4, top=1)
    )
    assert group_counts(track) == {"db/10": [200, 0, 3, 0], "other": [0, 50, 0, 1]}


def test_fine_zoom_reads_raw_samples_with_the_same_totals(api: TestClient, incident: dict[str, Any]) -> None:
    result = timeline(api, incident["id"], ["cpu:db1:cpu-clock"], start=iso(0), end=iso(4), width=4000)
    assert result["grid"]["width_us"] == 1000
    track = one_track(result)
    assert track["source"] == "raw"
    counts = group_counts(track)
    per_second = {k: [sum(v[s * 1000 : (s + 1) * 1000]) for s in range(4)] for k, v in counts.items()}
    assert per_second == {"db/10": [200, 0, 3, 0], "web/20": [0, 50, 0, 0], "cron/30": [0, 0, 0, 1]}
    assert counts["db/10"][:10] == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0]  # one sample every 5 ms


def test_a_level_as_wide_as_the_bucket_is_read_as_it_is(api: TestClient, incident: dict[str, Any]) -> None:
    """500 ms buckets read the 500 ms level row for row; 1 s buckets (above) sum two of its buckets."""
    result = timeline(api, incident["id"], ["cpu:db1:cpu-clock"], start=iso(0), end=iso(4), width=8)
    assert result["grid"]["width_us"] == 500_000
    track = one_track(result)
    assert track["source"] == "rollup 500 ms"
    assert group_counts(track) == {
        "db/10": [100, 100, 0, 0, 3, 0, 0, 0],
        "web/20": [0, 0, 25, 25, 0, 0, 0, 0],
        "cron/30": [0, 0, 0, 0, 0, 0, 0, 1],
    }


def test_cpu_filters_by_process_thread_and_comm(api: TestClient, incident: dict[str, Any]) -> None:
    def counts(**params: Any) -> tuple[str, dict[str, list[int]]]:
        track = one_track(
            timeline(api, incident["id"], ["cpu:db1:cpu-clock"], start=iso(0), end=iso(4), width=4, **params)
        )
        return track["source"], group_counts(track)

    assert counts(pid=20) == ("rollup 500 ms", {"web/20": [0, 50, 0, 0]})
    assert counts(comm="cron") == ("rollup 500 ms", {"cron/30": [0, 0, 0, 1]})
    # Rollups keep no thread ids: a thread filter reads raw samples.
    assert counts(tid=12) == ("raw", {"db/10": [0, 0, 2, 0]})
    thread_split = one_track(
        timeline(
            api,
            incident["id"],
            ["cpu:db1:cpu-clock"],
            start=iso(0),
            end=iso(4),
            width=4,
            split="thread",
            comm="db",
        )
    )
    assert thread_split["split"] == "thread"
    assert group_counts(thread_split) == {"db/11": [200, 0, 1, 0], "db/12": [0, 0, 2, 0]}


def test_default_range_and_unknown_tracks(api: TestClient, incident: dict[str, Any]) -> None:
    result = timeline(api, incident["id"], ["cpu:db1:cpu-clock", "cpu:gone:cpu-clock"], width=1000)
    assert result["start"] == "2026-11-21T08:00:00Z"
    assert result["missing"] == ["cpu:gone:cpu-clock"]
    assert sum(sum(g["counts"]) for g in one_track(result)["groups"]) == len(CPU_SAMPLES)


def test_bad_ranges_are_a_clear_422(api: TestClient, incident: dict[str, Any]) -> None:
    base = {"incident": incident["id"], "tracks": "cpu:db1:cpu-clock"}
    backwards = api.get("/api/timeline", params={**base, "start": iso(3), "end": iso(1)})
    assert backwards.status_code == 422
    assert "after start" in backwards.json()["detail"]
    naive = api.get("/api/timeline", params={**base, "start": "2026-11-21T08:00:00", "end": iso(1)})
    assert naive.status_code == 422
    assert "time zone" in naive.json()["detail"]
    assert api.get("/api/timeline", params={**base, "width": 0}).status_code == 422
    assert api.get("/api/timeline", params={"incident": 999999}).status_code == 404


# --- off-CPU -----------------------------------------------------------------------------------------

# Perf times 1..4 s on an unaligned capture: 1970-01-01T00:00:01Z onwards.
# worker S [1, 2), main R [2, 2.25), worker D [2.25, 3.5), main S [3.5, 4), worker S from 4 (unclosed).
SCHED = (
    sched_switch("worker", 100, 0, "1.000000", "S", "swapper/0", 0)
    + sched_switch("main", 200, 1, "2.000000", "R+", "worker", 100)
    + sched_switch("worker", 100, 1, "2.250000", "D", "main", 200)
    + sched_switch("main", 200, 1, "3.500000", "S", "worker", 100)
    + sched_switch("worker", 100, 1, "4.000000", "S", "main", 200)
)
EPOCH_1S = "1970-01-01T00:00:01Z"
EPOCH_5S = "1970-01-01T00:00:05Z"


def states(track: dict[str, Any]) -> dict[str, list[float]]:
    return {s["state"]: s["ns"] for s in track["states"]}


def test_off_cpu_time_per_state_and_second(api: TestClient, incident: dict[str, Any]) -> None:
    track = one_track(timeline(api, incident["id"], ["offcpu:sched1"], start=EPOCH_1S, end=EPOCH_5S, width=4))
    assert track["source"] == "steps"
    assert states(track) == {
        "D": [0, 0.75 * SECOND_NS, 0.5 * SECOND_NS, 0],
        "S": [SECOND_NS, 0, 0.5 * SECOND_NS, 0],
        "R": [0, 0.25 * SECOND_NS, 0, 0],
    }
    assert {s["state"]: s["total_ns"] for s in track["states"]} == {
        "D": 1.25 * SECOND_NS,
        "S": 1.5 * SECOND_NS,
        "R": 0.25 * SECOND_NS,
    }


def test_off_cpu_intervals_are_split_across_buckets(api: TestClient, incident: dict[str, Any]) -> None:
    """200 ms buckets from 1 s: D [2.25 s, 3.5 s) takes the last 150 ms of one, 100 ms of another."""
    result = timeline(api, incident["id"], ["offcpu:sched1"], start=EPOCH_1S, end=EPOCH_5S, width=20)
    assert result["grid"]["width_us"] == 200_000
    ms = 1_000_000
    assert states(one_track(result))["D"] == [0] * 6 + [150 * ms] + [200 * ms] * 5 + [100 * ms] + [0] * 7


def test_off_cpu_for_one_thread_reads_raw_intervals(api: TestClient, incident: dict[str, Any]) -> None:
    worker = one_track(
        timeline(api, incident["id"], ["offcpu:sched1"], start=EPOCH_1S, end=EPOCH_5S, width=4, tid=100)
    )
    assert worker["source"] == "raw"
    assert states(worker) == {"D": [0, 0.75 * SECOND_NS, 0.5 * SECOND_NS, 0], "S": [SECOND_NS, 0, 0, 0]}
    # A range starting inside an interval still sees it (the scan looks back by the longest interval).
    inside = one_track(
        timeline(
            api,
            incident["id"],
            ["offcpu:sched1"],
            start="1970-01-01T00:00:03Z",
            end=EPOCH_5S,
            width=2,
            tid=100,
        )
    )
    assert states(inside) == {"D": [0.5 * SECOND_NS, 0]}


# --- events ------------------------------------------------------------------------------------------

FUTEXES = 2500
# perf trace times are ms from the trace start, aligned at upload to 08:00:00Z: a futex every 2 ms
# for 5 s, and two slow fsyncs at 1.0 s (100 ms) and 3.0 s (250 ms).
TRACE = (
    "".join(
        perf_trace_call(i * 2.0, 0.010 + (i % 7) * 0.001, "app", 42, "futex(uaddr: 0x1000, op: WAIT)")
        for i in range(FUTEXES)
    )
    + perf_trace_call(1000.5, 100.0, "app", 43, "fsync(fd: 3)")
    + perf_trace_call(3000.5, 250.0, "app", 43, "fsync(fd: 3)")
)


def test_dense_events_come_as_count_and_max_per_bucket(api: TestClient, incident: dict[str, Any]) -> None:
    result = timeline(api, incident["id"], ["ev:app1:syscall"], start=iso(0), end=iso(5), width=5)
    track = one_track(result)
    assert (track["mode"], track["count"]) == ("buckets", FUTEXES + 2)
    assert track["buckets"]["count"] == [500, 501, 500, 501, 500]
    assert track["buckets"]["max_ns"] == [16_000, 100_000_000, 16_000, 250_000_000, 16_000]
    assert track["source"].startswith("rollup")


def test_sparse_events_come_one_by_one(api: TestClient, incident: dict[str, Any]) -> None:
    fsyncs = one_track(
        timeline(api, incident["id"], ["ev:app1:syscall:fsync"], start=iso(0), end=iso(5), width=5)
    )
    assert fsyncs["mode"] == "marks"
    assert [
        (m["ts_us"] - 1795248000 * SECOND_US, m["duration_ns"], m["name"], m["tid"]) for m in fsyncs["marks"]
    ] == [
        (1_000_500, 100_000_000, "fsync", 43),
        (3_000_500, 250_000_000, "fsync", 43),
    ]
    # Zoomed in to 100 ms, the futexes are few enough to draw one by one.
    zoomed = one_track(
        timeline(api, incident["id"], ["ev:app1:syscall"], start=iso(0), end=iso(0.1), width=1000)
    )
    assert (zoomed["mode"], zoomed["count"]) == ("marks", 50)
    assert zoomed["marks"][1]["ts_us"] - zoomed["marks"][0]["ts_us"] == 2000


# --- metrics -----------------------------------------------------------------------------------------


def test_metric_points_keep_the_sawtooth_when_sparse(api: TestClient, incident: dict[str, Any]) -> None:
    track = one_track(
        timeline(api, incident["id"], ["m:db1:mem_free_mib"], start=iso(0), end=iso(12), width=600)
    )
    assert track["mode"] == "points"
    assert [p["value"] for p in track["points"]] == SAWTOOTH
    assert [p["ts_us"] - 1795248000 * SECOND_US for p in track["points"]] == [
        i * SECOND_US for i in range(12)
    ]


def test_metric_buckets_keep_min_and_max(api: TestClient, incident: dict[str, Any]) -> None:
    result = timeline(
        api, incident["id"], ["m:db1:mem_free_mib", "m:db1:naks"], start=iso(0), end=iso(12), width=3
    )
    assert result["grid"]["width_us"] == 5 * SECOND_US
    free, naks = result["tracks"]
    assert free["mode"] == "buckets"
    assert free["buckets"] == {
        "count": [5, 5, 2],
        "min": [400.0, 400.0, 400.0],
        "avg": [760.0, 720.0, 500.0],
        "max": [1000.0, 1000.0, 600.0],
    }
    assert naks["buckets"]["max"] == [1.0, 1.0, 1.0]


def test_bucket_function_matches_the_back_end(
    api: TestClient, incident: dict[str, Any], database_url: str
) -> None:
    """TimescaleDB's time_bucket and PostgreSQL's date_bin must draw the same grid; whichever runs here."""
    import psycopg

    from stallscope.db import libpq_url

    with psycopg.connect(libpq_url(database_url)) as conn:
        timescaledb = conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'timescaledb'").fetchone()
        function = "time_bucket" if timescaledb else "date_bin"
        row = conn.execute(
            f"SELECT {function}(CAST(%s AS interval), CAST(%s AS timestamptz), CAST(%s AS timestamptz))",
            ("5 seconds", "2026-11-21T08:00:07.25Z", "1970-01-01T00:00:00Z"),
        ).fetchone()
    assert row is not None
    assert row[0].isoformat() == "2026-11-21T08:00:05+00:00"
