"""Timeline rollups follow their capture: rebuilt (never added to) on re-parse and on a clock shift,
ignored once a re-parse fails, and equal to raw rows on real captures at every kept level."""

from __future__ import annotations

import gzip
import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.fixtures.db import Conn
from tests.fixtures.factories import make_incident
from tests.fixtures.worker import wait_parsed
from tests.timeline.capture_text import OFFSET, iso, one_track, perf_capture, timeline, tracks, upload_parsed

SECOND_US = 1_000_000

NO_TIMESCALEDB = "TimescaleDB is not installed in this PostgreSQL; the timeline buckets with date_bin here"
HAS_TIMESCALEDB = "TimescaleDB is installed in this PostgreSQL; the timeline buckets with time_bucket here"

CLOCKMONO = "captures/clockmono/cpu5s_clockmono.perf.txt.gz"
CLOCKMONO_OFFSET = "+1795297732.388439s"
"""realtime - monotonic, measured beside the recording (cpu5s_clockmono.clock.jsonl)."""
PERF_TRACE = "captures/perf_trace.mmap_fsync_futex.txt.gz"


def rollup_summary(db: Conn, capture_id: int) -> list[tuple[str, int, int, int]]:
    """(source, level, rows, sum of n) per source and level of one capture."""
    rows = db.execute(
        "SELECT source, res_us, count(*), sum(n) FROM timeline_rollups WHERE capture_id = %s "
        "GROUP BY 1, 2 ORDER BY 1, 2",
        (capture_id,),
    ).fetchall()
    return [(source, int(level), int(count), int(total)) for source, level, count, total in rows]


def built(db: Conn, capture_id: int) -> int:
    """Rows saying the capture's rollups are complete (the manifest's last row)."""
    row = db.execute(
        "SELECT count(*) FROM timeline_rollups "
        "WHERE capture_id = %s AND source = 'manifest' AND key = 'built'",
        (capture_id,),
    ).fetchone()
    assert row is not None
    return int(row[0])


def cpu_seconds(api: TestClient, incident_id: int, host: str, seconds: int) -> list[int]:
    result = timeline(
        api, incident_id, [f"cpu:{host}:cpu-clock"], start=iso(0), end=iso(seconds), width=seconds
    )
    return [sum(column) for column in zip(*(g["counts"] for g in one_track(result)["groups"]), strict=True)]


SAMPLES = [("svc", 7, 7, 100.0 + i * 0.004) for i in range(250)] + [("svc", 7, 8, 101.5)]


def test_shift_and_reparse_replace_the_rollups(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn
) -> None:
    incident = make_incident(api)
    capture = upload_parsed(
        api, incident["id"], perf_capture(SAMPLES), "shift.txt", host="shift1", offset=OFFSET
    )
    before = rollup_summary(db, capture["id"])
    assert built(db, capture["id"]) == 1
    assert cpu_seconds(api, incident["id"], "shift1", 6) == [250, 1, 0, 0, 0, 0]

    assert api.post(f"/api/captures/{capture['id']}/reparse").status_code == 202
    assert wait_parsed(api, capture["id"])["status"] == "ready"
    assert rollup_summary(db, capture["id"]) == before
    assert built(db, capture["id"]) == 1

    response = api.post(f"/api/captures/{capture['id']}/shift", json={"shift": "+2s"})
    assert response.status_code == 202, response.text
    assert wait_parsed(api, capture["id"])["status"] == "ready"
    assert rollup_summary(db, capture["id"]) == before
    assert cpu_seconds(api, incident["id"], "shift1", 6) == [0, 0, 250, 1, 0, 0]


def test_a_failed_reparse_leaves_nothing_on_the_timeline(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn
) -> None:
    incident = make_incident(api)
    data = perf_capture([*SAMPLES, ("vanishing", 9, 9, 102.0)])
    capture = upload_parsed(api, incident["id"], data, "vanish.txt", host="gone1", offset=OFFSET)
    row = db.execute("SELECT blob_path FROM captures WHERE id = %s", (capture["id"],)).fetchone()
    assert row is not None
    Path(row[0]).unlink()  # these bytes are unique to this test, so no other capture shares the blob
    assert api.post(f"/api/captures/{capture['id']}/reparse").status_code == 202
    assert wait_parsed(api, capture["id"])["status"] == "failed"
    (host,) = tracks(api, incident["id"])["hosts"]
    assert host["tracks"] == []
    assert [c["on_timeline"] for c in host["captures"]] == [False]
    assert timeline(api, incident["id"], ["cpu:gone1:cpu-clock"])["missing"] == ["cpu:gone1:cpu-clock"]


def test_real_cpu_capture_rollup_levels_equal_raw_samples(
    api: TestClient, worker: subprocess.Popen[bytes], corpus: Path, db: Conn
) -> None:
    """perf record -k CLOCK_MONOTONIC, 5 s on 2 CPUs, aligned by the clock readings taken beside it."""
    incident = make_incident(api)
    path = corpus / CLOCKMONO
    capture = upload_parsed(
        api, incident["id"], path.read_bytes(), path.name, host="mono1", offset=CLOCKMONO_OFFSET
    )
    assert capture["clock"]["mode"] == "user-offset"
    listing = tracks(api, incident["id"])
    (cpu_track,) = [t for t in listing["hosts"][0]["tracks"] if t["type"] == "cpu"]
    assert cpu_track["samples"] == capture["sample_count"] == 9991
    levels = [
        int(level)
        for (level,) in db.execute(
            "SELECT n FROM timeline_rollups WHERE capture_id = %s AND source = 'manifest' AND key = 'cpu'",
            (capture["id"],),
        ).fetchall()
    ]
    assert levels, "a 2 kHz capture must keep at least one CPU level"
    start, end = listing["time_start"], listing["time_end"]
    for level in levels:
        # A width in pixels that makes the bucket exactly this level, read once per process (the
        # rollup) and once per thread (raw samples: rollups keep no thread ids).
        span_us = int(5.5 * SECOND_US)
        width = -(-span_us // level)
        by_process = one_track(
            timeline(api, incident["id"], [cpu_track["id"]], start=start, end=end, width=width)
        )
        by_thread = one_track(
            timeline(
                api,
                incident["id"],
                [cpu_track["id"]],
                start=start,
                end=end,
                width=width,
                split="thread",
                top=50,
            )
        )
        assert by_process["source"].startswith("rollup"), (level, by_process["source"])
        assert by_thread["source"] == "raw"
        totals = [sum(c) for c in zip(*(g["counts"] for g in by_process["groups"]), strict=True)]
        assert totals == [sum(c) for c in zip(*(g["counts"] for g in by_thread["groups"]), strict=True)]
        assert sum(totals) == 9991


def test_real_syscall_trace_counts_and_longest_calls(
    api: TestClient, worker: subprocess.Popen[bytes], corpus: Path
) -> None:
    """perf trace -e mmap,fsync,futex: every call counted once, per bucket and per name."""
    incident = make_incident(api)
    path = corpus / PERF_TRACE
    capture = upload_parsed(api, incident["id"], path.read_bytes(), path.name, host="trace1")
    calls = capture["record_counts"]["events.syscall"]
    with gzip.open(path, "rt") as text:
        continued = sum(1 for line in text if "[continued]" in line)
    assert calls > 2000
    listing = {t["id"]: t for t in tracks(api, incident["id"])["hosts"][0]["tracks"]}
    kind = listing["ev:trace1:syscall"]
    assert kind["count"] == calls
    assert sum(n["count"] for n in kind["names"]) == calls
    assert {n["name"] for n in kind["names"]} == {"mmap", "fsync", "futex"}
    assert continued > 0  # split calls were joined, not counted twice

    whole = one_track(timeline(api, incident["id"], ["ev:trace1:syscall"], width=800))
    assert whole["mode"] == "buckets"
    assert sum(whole["buckets"]["count"]) == whole["count"] == calls
    longest = max(n["max_ns"] or 0 for n in kind["names"])
    assert max(m or 0 for m in whole["buckets"]["max_ns"]) == longest

    fsync = one_track(timeline(api, incident["id"], ["ev:trace1:syscall:fsync"], width=800))
    fsync_names = {n["name"]: n for n in kind["names"]}["fsync"]
    if fsync["mode"] == "marks":
        assert len(fsync["marks"]) == fsync_names["count"]
        assert max(m["duration_ns"] or 0 for m in fsync["marks"]) == fsync_names["max_ns"]
    else:
        assert sum(fsync["buckets"]["count"]) == fsync_names["count"]


# --- one back end or the other ------------------------------------------------------------------------


def test_timescaledb_buckets_with_time_bucket(timescaledb: bool, database_url: str) -> None:
    if not timescaledb:
        pytest.skip(NO_TIMESCALEDB)
    from stallscope.db import get_session_factory
    from stallscope.timeline.sql import bucket_function_session

    with get_session_factory(database_url)() as session:
        assert bucket_function_session(session) == "time_bucket"


def test_plain_postgres_buckets_with_date_bin(timescaledb: bool, database_url: str) -> None:
    if timescaledb:
        pytest.skip(HAS_TIMESCALEDB)
    from stallscope.db import get_session_factory
    from stallscope.timeline.sql import bucket_function_session

    with get_session_factory(database_url)() as session:
        assert bucket_function_session(session) == "date_bin"
