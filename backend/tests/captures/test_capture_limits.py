"""Per-capture bounds: past one, a capture ends `partial`, names the bound and its setting, keeps the rest.

Each capture is stored as an upload would be, but never queued: the parse job runs in a process of
its own, with the bounds lowered in its environment, against the real database. The shared worker
never sees these captures (they would sit `queued` for a minute before anything queued them again,
and the job claims them within a second).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from stallscope.blobs.configured import blob_store
from stallscope.captures import service
from stallscope.captures.schemas import UploadInfo
from stallscope.config import get_settings
from stallscope.db import get_session_factory
from stallscope.ingest.limits import setting_name
from tests.fixtures.factories import make_incident

PARSE_TIMEOUT_S = 180
PARSE = """
import json, sys
from stallscope.captures.parsing import parse_capture
for module, name, value in json.loads(sys.argv[3]):
    setattr(sys.modules[module], name, value)
parse_capture(sys.argv[1], int(sys.argv[2]))
"""
TINY_CACHES = [
    ("stallscope.ingest.stack_dictionary", "MAX_CACHED_STACKS", 2),
    ("stallscope.ingest.stack_dictionary", "MAX_CACHED_FRAMES", 2),
    ("stallscope.ingest.sample_store", "BATCH_SAMPLES", 2),
    ("stallscope.ingest.sample_store", "MAX_TOTALS", 2),
    ("stallscope.ingest.sample_store", "MAX_TRACKED_THREADS", 0),
]
"""Every cache emptied and every table written out every other sample: the paths big captures take."""

Conn = psycopg.Connection[tuple[Any, ...]]


@pytest.fixture(scope="module")
def incident_id(api: TestClient) -> int:
    return int(make_incident(api)["id"])


def parsed(
    api: TestClient,
    database_url: str,
    incident_id: int,
    data: bytes,
    filename: str,
    limits: dict[str, int] | None = None,
    constants: list[tuple[str, str, int]] | None = None,
    format: str | None = None,
) -> dict[str, Any]:
    """Store `data` as an upload, parse it in a process whose environment sets `limits`, read it back."""
    settings = get_settings()
    writer = blob_store(settings).start_upload(settings.max_upload_bytes)
    writer.write(data)
    blob = writer.commit()
    with get_session_factory(database_url)() as session:
        upload = UploadInfo(filename=filename, format=format)
        capture = service.record_upload(session, incident_id, upload, blob)
        session.commit()
        capture_id = capture.id
    env = {k: v for k, v in os.environ.items() if not k.startswith(setting_name("max_"))}
    env.update({setting_name(f"max_{name}"): str(value) for name, value in (limits or {}).items()})
    job = [sys.executable, "-c", PARSE, database_url, str(capture_id), json.dumps(constants or [])]
    subprocess.run(job, env=env, check=True, timeout=PARSE_TIMEOUT_S)
    result: dict[str, Any] = api.get(f"/api/captures/{capture_id}").json()
    return result


def stack_weights(db: Conn, capture_id: int) -> dict[str, tuple[int, int]]:
    """Each stored stack of the capture, folded (`comm;frame;...`), with its weight and samples."""
    rows = db.execute(
        """
        SELECT t.comm || ';' || array_to_string(
                   ARRAY(SELECT f.name FROM unnest(s.frame_ids) WITH ORDINALITY AS u(id, n)
                         JOIN frames f ON f.id = u.id ORDER BY u.n), ';'),
               sum(t.weight)::bigint, sum(t.samples)::bigint
        FROM capture_stack_totals t JOIN stacks s ON s.id = t.stack_id
        WHERE t.capture_id = %s GROUP BY 1
        """,
        (capture_id,),
    ).fetchall()
    return {folded: (int(weight), int(samples)) for folded, weight, samples in rows}


def limit_warnings(capture: dict[str, Any], setting: str) -> list[dict[str, Any]]:
    return [w for w in capture["warnings"] if setting in w["message"]]


@pytest.mark.parametrize("caches", ["as shipped", "tiny"])
def test_stacks_past_the_distinct_limit_keep_their_time_under_one_marked_frame(
    api: TestClient, database_url: str, db: Conn, incident_id: int, caches: str
) -> None:
    lines = [
        "app;main;a 10",
        "app;main;b 20",
        "app;main;c 30",
        "app;main;d 40",  # the fourth distinct stack: past the limit
        "app;main;a 5",  # seen before the limit: still its own
        "app;main;e 50",
        "app;main;d 1",
    ]
    capture = parsed(
        api,
        database_url,
        incident_id,
        ("\n".join(lines) + "\n").encode(),
        "stacks.folded",
        limits={"distinct_stacks": 3},
        constants=TINY_CACHES if caches == "tiny" else None,
    )
    assert capture["status"] == "partial"
    setting = setting_name("max_distinct_stacks")
    [warning] = limit_warnings(capture, setting)
    assert warning["line"] == 4
    assert "past 3 distinct stacks" in warning["message"]
    assert "3 samples or events" in warning["message"]
    assert capture["warnings"][0] == warning, "a bound reached is the first thing the capture page says"
    assert capture["record_counts"]["cut.distinct_stacks"] == 3
    assert capture["sample_count"] == 7
    assert stack_weights(db, capture["id"]) == {
        "app;main;a": (15, 2),
        "app;main;b": (20, 1),
        "app;main;c": (30, 1),
        "app;[stack limit reached]": (91, 3),
    }
    assert capture["stack_count"] == 4
    assert capture["thread_count"] == 1


def test_stacks_deeper_than_the_limit_keep_their_leaf_side_under_a_frame_counting_the_cut(
    api: TestClient, database_url: str, db: Conn, incident_id: int
) -> None:
    deep = ";".join(f"f{i}" for i in range(10))
    data = f"app;{deep} 7\napp;main;leaf 3\napp;{deep} 1\n".encode()
    capture = parsed(api, database_url, incident_id, data, "deep.folded", limits={"stack_depth": 4})
    assert capture["status"] == "partial"
    [warning] = limit_warnings(capture, setting_name("max_stack_depth"))
    assert warning["line"] == 1
    assert "1 stacks deeper than 4 frames" in warning["message"]
    assert "up to 6 frames cut" in warning["message"]
    assert capture["record_counts"]["cut.stack_depth"] == 2
    assert stack_weights(db, capture["id"]) == {
        "app;[6 frames cut];f6;f7;f8;f9": (8, 2),
        "app;main;leaf": (3, 1),
    }


def perf_script_sample(time_s: float, period: int, stack: list[str]) -> str:
    """One `perf script` sample of `app`, its frames given root first."""
    frames = "".join(f"\t{0x1000 + i:x} {name} (/usr/bin/app)\n" for i, name in enumerate(reversed(stack)))
    return f"app 100/100 [000] {time_s:.6f}: {period} cycles:\n{frames}\n"


@pytest.mark.parametrize("caches", ["as shipped", "tiny"])
def test_perf_script_stacks_come_out_the_same_through_cuts_and_table_restarts(
    api: TestClient, database_url: str, db: Conn, incident_id: int, caches: str
) -> None:
    """The parser's table hands stacks over by frame code; a stack cut at the depth limit, or one
    from before its table started again, goes frame by frame. Both ways store the same stacks."""
    deep = [f"d{i}" for i in range(8)]
    stacks = [["main", "a"], deep, ["main", "b"], ["main", "a"], [*deep[:6], "x", "y"], ["main", "b"]]
    data = "".join(perf_script_sample(1 + i / 100, 10 * (i + 1), stack) for i, stack in enumerate(stacks))
    tiny = [*TINY_CACHES, ("stallscope.ingest.perf_script.stacks", "MAX_INTERNED_REFS", 3)]
    constants = tiny if caches == "tiny" else None
    capture = parsed(
        api, database_url, incident_id, data.encode(), "cuts.perf.txt", {"stack_depth": 4}, constants
    )
    assert capture["status"] == "partial", capture["error"]
    assert stack_weights(db, capture["id"]) == {
        "app;main;a": (10 + 40, 2),
        "app;main;b": (30 + 60, 2),
        "app;[4 frames cut];d4;d5;d6;d7": (20, 1),
        "app;[4 frames cut];d4;d5;x;y": (50, 1),
    }


def test_the_default_depth_keeps_a_100k_frame_stack_whole_and_cuts_past_131072(
    api: TestClient, database_url: str, db: Conn, incident_id: int
) -> None:
    kept = ";".join(f"k{i}" for i in range(100_000))
    cut = ";".join(f"c{i}" for i in range(140_000))
    data = f"app;{kept} 1\napp;{cut} 2\n".encode()
    # Forced: the first line is longer than what detection reads.
    capture = parsed(api, database_url, incident_id, data, "very-deep.folded", format="collapsed")
    assert capture["status"] == "partial", capture["error"]
    [warning] = limit_warnings(capture, setting_name("max_stack_depth"))
    assert warning["line"] == 2
    assert "deeper than 131,072 frames" in warning["message"]
    depths: dict[int, int] = dict(
        db.execute(
            "SELECT t.weight, cardinality(s.frame_ids) FROM capture_stack_totals t "
            "JOIN stacks s ON s.id = t.stack_id WHERE t.capture_id = %s",
            (capture["id"],),
        ).fetchall()
    )
    assert depths == {1: 100_000, 2: 131_072 + 1}
    [(first, second, last)] = db.execute(
        "SELECT f1.name, f2.name, fl.name FROM capture_stack_totals t JOIN stacks s ON s.id = t.stack_id "
        "JOIN frames f1 ON f1.id = s.frame_ids[1] JOIN frames f2 ON f2.id = s.frame_ids[2] "
        "JOIN frames fl ON fl.id = s.frame_ids[cardinality(s.frame_ids)] "
        "WHERE t.capture_id = %s AND t.weight = 2",
        (capture["id"],),
    ).fetchall()
    frames_cut = 140_000 - 131_072
    assert (first, second, last) == (f"[{frames_cut:,} frames cut]", f"c{frames_cut}", "c139999")


def test_points_of_series_past_the_limit_are_dropped(
    api: TestClient, database_url: str, db: Conn, incident_id: int
) -> None:
    names = ["m1", "m2", "m3", "m4", "m1", "m5", "m4", "m2"]
    data = "".join(
        f'{{"ts": {1_700_000_000 + i}, "name": "{n}", "value": {i}}}\n' for i, n in enumerate(names)
    )
    capture = parsed(api, database_url, incident_id, data.encode(), "m.jsonl", limits={"metric_series": 3})
    assert capture["status"] == "partial"
    [warning] = limit_warnings(capture, setting_name("max_metric_series"))
    assert warning["line"] == 4
    assert "past 3 series, 3 points of later series were dropped" in warning["message"]
    assert capture["record_counts"]["cut.metric_series"] == 3
    assert capture["record_counts"]["metric_points"] == 5
    assert capture["record_counts"]["metric_series"] == 3
    stored = db.execute(
        "SELECT s.name, m.value FROM metrics m JOIN metric_series s ON s.id = m.series_id "
        "WHERE m.capture_id = %s ORDER BY m.ts",
        (capture["id"],),
    ).fetchall()
    assert stored == [("m1", 0.0), ("m2", 1.0), ("m3", 2.0), ("m1", 4.0), ("m2", 7.0)]


def test_columns_of_rows_past_the_series_limit_are_dropped_and_the_others_kept(
    api: TestClient, database_url: str, db: Conn, incident_id: int
) -> None:
    data = b"ts,a,b,c,d,e\n1700000000,1,2,3,4,5\n1700000001,6,7,8,9,10\n"
    capture = parsed(api, database_url, incident_id, data, "wide.csv", limits={"metric_series": 3})
    assert capture["status"] == "partial"
    [warning] = limit_warnings(capture, setting_name("max_metric_series"))
    assert warning["line"] == 2
    assert capture["record_counts"]["cut.metric_series"] == 4
    stored = db.execute(
        "SELECT s.name, m.value FROM metrics m JOIN metric_series s ON s.id = m.series_id "
        "WHERE m.capture_id = %s ORDER BY m.ts, s.name",
        (capture["id"],),
    ).fetchall()
    assert stored == [("a", 1.0), ("b", 2.0), ("c", 3.0), ("a", 6.0), ("b", 7.0), ("c", 8.0)]


def test_events_past_the_limit_are_dropped(
    api: TestClient, database_url: str, db: Conn, incident_id: int
) -> None:
    data = "".join(
        f"{i:10.3f} ( 0.004 ms): app/{100 + i} futex(uaddr: 0x7f00, op: WAIT) = 0\n" for i in range(5)
    ).encode()
    capture = parsed(api, database_url, incident_id, data, "trace.txt", limits={"events": 3})
    assert capture["status"] == "partial"
    [warning] = limit_warnings(capture, setting_name("max_events"))
    assert warning["line"] == 4
    assert "2 events past the first 3 were dropped" in warning["message"]
    assert capture["record_counts"]["events"] == 3
    assert capture["record_counts"]["cut.events"] == 2
    assert capture["thread_count"] == 3, "threads of dropped events are not the capture's"
    tids = db.execute("SELECT tid FROM events WHERE capture_id = %s ORDER BY ts", (capture["id"],)).fetchall()
    assert tids == [(100,), (101,), (102,)]


def test_warnings_past_the_limit_are_counted_and_name_the_setting(
    api: TestClient, database_url: str, incident_id: int
) -> None:
    data = b"app;main 1\n" + b"".join(b"stack %d without a count\n" % i for i in range(5)) + b"app;main 2\n"
    capture = parsed(
        api, database_url, incident_id, data, "noisy.folded", limits={"warnings": 2}, format="collapsed"
    )
    assert capture["status"] == "partial"
    messages = [w["message"] for w in capture["warnings"]]
    assert len(messages) == 3
    assert messages[2] == f"3 more warnings not shown ({setting_name('max_warnings')}=2)"
    assert capture["sample_count"] == 2
