"""Parses a dead worker or a lost message left behind are queued again, once, with the reason.

The worker here is real and so are the stuck states: each test puts a parsed capture back into the
exact row state a dead worker or a lost message leaves (what kill -9 leaves is shown end to end in
`test_console_supervision.py`), then runs the console's recovery job.
"""

from __future__ import annotations

import subprocess
import threading
import time
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from stallscope.captures.parse_claim import TOUCH
from stallscope.captures.parse_queue import send_parse
from stallscope.captures.parsing import parse_capture
from stallscope.captures.recovery import MAX_RECOVERIES, find_and_requeue
from stallscope.db import libpq_url
from stallscope.maintenance.jobs import requeue_stalled_parses
from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed

CAPTURE = b"""svc 42/42 [001] 10.000100: 1000 cpu-clock:
\t    1111 handle (/usr/bin/svc)
\t    2222 main (/usr/bin/svc)

svc 42/42 [001] 10.000200: 1000 cpu-clock:
\t    2222 main (/usr/bin/svc)

"""
STALL_TIMEOUT_S = 30.0


@pytest.fixture
def parsed(api: TestClient, worker: subprocess.Popen[bytes]) -> dict[str, Any]:
    capture = upload_bytes(api, make_incident(api)["id"], CAPTURE, "svc.txt")
    done = wait_parsed(api, capture["id"])
    assert done["status"] == "ready", done
    return done


def _set(database_url: str, capture_id: int, assignments: str) -> None:
    with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
        conn.execute(f"UPDATE captures SET {assignments} WHERE id = %s", (capture_id,))


def _row(database_url: str, capture_id: int) -> dict[str, Any]:
    with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
        cur = conn.execute(
            "SELECT status, parse_attempt, recoveries, recovery_note, error, parsed_at, "
            "(SELECT count(*) FROM samples s WHERE s.capture_id = c.id) AS sample_rows, sample_count "
            "FROM captures c WHERE id = %s",
            (capture_id,),
        )
        names = [d.name for d in cur.description or []]
        row = cur.fetchone()
        assert row is not None
        return dict(zip(names, row, strict=True))


def test_a_message_for_an_older_attempt_is_ignored(
    api: TestClient, database_url: str, parsed: dict[str, Any]
) -> None:
    before = _row(database_url, parsed["id"])
    parse_capture(database_url, parsed["id"], before["parse_attempt"])  # a redelivery after it finished
    assert _row(database_url, parsed["id"]) == before
    _set(database_url, parsed["id"], "status = 'queued', parse_attempt = parse_attempt + 1")
    parse_capture(database_url, parsed["id"], before["parse_attempt"])  # the message of the attempt before
    assert _row(database_url, parsed["id"])["status"] == "queued"


def test_a_parse_whose_worker_died_is_queued_again_and_finishes(
    api: TestClient, database_url: str, parsed: dict[str, Any]
) -> None:
    attempt = _row(database_url, parsed["id"])["parse_attempt"]
    _set(database_url, parsed["id"], "status = 'parsing', parse_heartbeat_at = now() - interval '10 minutes'")
    requeue_stalled_parses(database_url, STALL_TIMEOUT_S)
    done = wait_parsed(api, parsed["id"])
    row = _row(database_url, parsed["id"])
    assert done["status"] == "ready", done
    assert row["parse_attempt"] == attempt + 1
    assert row["recoveries"] == 1
    assert "worker parsing it stopped" in done["recovery_note"]
    assert row["sample_rows"] == row["sample_count"] == 2, "parsed once, nothing doubled"


def test_a_lost_parse_message_is_sent_again(
    api: TestClient, database_url: str, parsed: dict[str, Any]
) -> None:
    # A message the broker never delivered: the capture waits for an attempt no message names.
    _set(
        database_url,
        parsed["id"],
        "status = 'queued', parse_attempt = parse_attempt + 1, queued_at = now() - interval '10 minutes'",
    )
    requeue_stalled_parses(database_url, STALL_TIMEOUT_S)
    done = wait_parsed(api, parsed["id"])
    assert done["status"] == "ready", done
    assert "parse message was lost" in done["recovery_note"]
    assert _row(database_url, parsed["id"])["recoveries"] == 0, "not the capture's fault"


def test_a_live_parse_is_left_alone(api: TestClient, database_url: str, parsed: dict[str, Any]) -> None:
    _set(database_url, parsed["id"], "status = 'parsing', parse_heartbeat_at = now()")
    with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
        requeued = find_and_requeue(conn, queue_is_empty=True, stall_timeout_s=STALL_TIMEOUT_S)
    assert parsed["id"] not in [r.capture_id for r in requeued]
    assert _row(database_url, parsed["id"])["status"] == "parsing"
    _set(database_url, parsed["id"], "status = 'ready'")


def test_a_row_held_by_a_parse_transaction_is_tried_again_next_round(
    api: TestClient, database_url: str, parsed: dict[str, Any]
) -> None:
    """A parse writes its capture's row, then runs its transaction's steps holding that row's lock.
    The recovery does not wait behind it (it would wait as long as the steps, or for a worker cut off
    from the database, until the server drops its connection): the capture is left for next round."""
    _set(database_url, parsed["id"], "status = 'parsing', parse_heartbeat_at = now() - interval '10 minutes'")
    with psycopg.connect(libpq_url(database_url)) as parse_transaction:
        parse_transaction.execute("UPDATE captures SET progress = 0.99 WHERE id = %s", (parsed["id"],))
        with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
            requeued = find_and_requeue(conn, queue_is_empty=False, stall_timeout_s=STALL_TIMEOUT_S)
        assert parsed["id"] not in [r.capture_id for r in requeued]
    row = _row(database_url, parsed["id"])
    assert (row["status"], row["recoveries"]) == ("parsing", 0)
    with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:  # released: the next round
        requeued = find_and_requeue(conn, queue_is_empty=False, stall_timeout_s=STALL_TIMEOUT_S)
    assert parsed["id"] in [r.capture_id for r in requeued]
    assert _row(database_url, parsed["id"])["status"] == "queued"
    _set(database_url, parsed["id"], "status = 'ready'")


def test_a_heartbeat_that_waited_for_the_parse_transaction_is_dated_when_written(
    api: TestClient, database_url: str, parsed: dict[str, Any]
) -> None:
    """The heartbeat waits while the parse's transaction holds the row; once it goes through it must
    say "alive now", not "alive when I started waiting", or the recovery takes the parse for dead."""
    attempt = _row(database_url, parsed["id"])["parse_attempt"]
    _set(database_url, parsed["id"], "status = 'parsing', parse_heartbeat_at = now() - interval '10 minutes'")
    touching = threading.Event()
    with psycopg.connect(libpq_url(database_url)) as parse_transaction:
        parse_transaction.execute("UPDATE captures SET progress = 0.99 WHERE id = %s", (parsed["id"],))

        def touch() -> None:
            with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
                touching.set()
                conn.execute(TOUCH, (parsed["id"], attempt))  # waits for the commit below

        toucher = threading.Thread(target=touch)
        toucher.start()
        assert touching.wait(30)
        _wait_for_lock_waiter(database_url)
        row = parse_transaction.execute("SELECT clock_timestamp()").fetchone()
        assert row is not None
        committed_after = row[0]
    toucher.join(30)
    assert not toucher.is_alive()
    with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
        found = conn.execute(
            "SELECT parse_heartbeat_at FROM captures WHERE id = %s", (parsed["id"],)
        ).fetchone()
    assert found is not None
    assert found[0] >= committed_after
    _set(database_url, parsed["id"], "status = 'ready'")


def _wait_for_lock_waiter(database_url: str) -> None:
    """Until some session waits for a row lock (the touch, behind the parse's transaction)."""
    with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
        for _ in range(300):
            waiting = conn.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE wait_event_type = 'Lock' AND query LIKE '%SET parse_heartbeat_at%'"
            ).fetchone()
            if waiting is not None and waiting[0] > 0:
                return
            time.sleep(0.1)
    raise AssertionError("the heartbeat never waited for the parse's transaction")


def test_a_capture_that_keeps_killing_its_worker_fails_with_the_reason(
    api: TestClient, database_url: str, parsed: dict[str, Any]
) -> None:
    _set(
        database_url,
        parsed["id"],
        f"status = 'parsing', recoveries = {MAX_RECOVERIES - 1}, "
        "parse_heartbeat_at = now() - interval '10 minutes'",
    )
    requeue_stalled_parses(database_url, STALL_TIMEOUT_S)
    row = _row(database_url, parsed["id"])
    assert row["status"] == "failed"
    assert f"stopped {MAX_RECOVERIES} times" in row["error"]
    assert row["sample_rows"] == 0, "no half-current samples left behind"
    assert api.get(f"/api/captures/{parsed['id']}").json()["error"] == row["error"]


def test_two_consoles_recovering_at_once_queue_a_capture_once(
    api: TestClient, database_url: str, parsed: dict[str, Any]
) -> None:
    attempt = _row(database_url, parsed["id"])["parse_attempt"]
    _set(database_url, parsed["id"], "status = 'parsing', parse_heartbeat_at = now() - interval '10 minutes'")
    results: list[list[int]] = []
    barrier = threading.Barrier(2)

    def recover() -> None:
        with psycopg.connect(libpq_url(database_url), autocommit=True) as conn:
            barrier.wait()
            found = find_and_requeue(conn, queue_is_empty=False, stall_timeout_s=STALL_TIMEOUT_S)
            results.append([r.capture_id for r in found if r.capture_id == parsed["id"]])

    threads = [threading.Thread(target=recover) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(len(r) for r in results) == [0, 1]
    assert _row(database_url, parsed["id"])["parse_attempt"] == attempt + 1
    send_parse(parsed["id"], attempt + 1)  # what the console does with what it requeued
    assert wait_parsed(api, parsed["id"])["status"] == "ready"
