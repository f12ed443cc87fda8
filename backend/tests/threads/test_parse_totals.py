"""The thread states the parse stores, fed from the events as they are stored, are exactly what the
view computes from the stored intervals (its path when a capture has none stored): on real captures,
and on a hand-made file whose attributes and times only the stored rows' reading normalises."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from stallscope.analysis.thread_states import ThreadStates
from stallscope.captures.parsing import parse_capture
from stallscope.db import get_session_factory
from stallscope.threads import totals
from stallscope.threads.repository import ThreadFilter
from stallscope.threads.service import capture_threads
from tests.captures.test_parse_writes import stored_capture
from tests.fixtures.corpus import corpus_file
from tests.fixtures.factories import make_incident, upload_bytes, upload_file
from tests.fixtures.worker import wait_parsed
from tests.threads.test_threads_api import SCHED

Conn = psycopg.Connection[tuple[Any, ...]]
LOCKWAIT = Path(__file__).parents[1] / "ingest" / "data" / "sched" / "lockwait.sched.txt.gz"
T0 = 1_767_225_600_000_000_000  # 2026-01-01T00:00:00Z in ns


def records_file() -> bytes:
    """Scheduler intervals as a `stallscope-records` file would carry them from a hand-made source:
    attributes as strings and numbers where the importers write the other, times in nanoseconds the
    database keeps to the microsecond, a comm the database cannot hold as it is, a thread without
    a pid, an empty stack, a futex wait with an address and one known by its stack alone."""
    header = {"format": "stallscope-records", "version": 1, "capture": {"filename": "t.txt", "timed": True}}

    def event(t: int, duration: int | None, kind: str, tid: int, comm: str, **more: Any) -> list[Any]:
        return [
            "event",
            T0 + t,
            duration,
            kind,
            kind,
            more.get("pid", 40),
            tid,
            comm,
            0,
            more.get("state"),
            more.get("stack"),
            more.get("waker"),
            None,
            None,
            more.get("attrs"),
        ]

    lines: list[Any] = [
        ["frame", 0, "kernel", "futex_wait_queue"],
        ["frame", 1, "kernel", "schedule"],
        ["frame", 2, "user", "main"],
        ["frame", 3, "kernel", "do_nanosleep"],
        ["stack", 0, [2, 1, 0]],
        ["stack", 1, [2, 3, 1]],
        ["stack", 2, []],
        event(100, 400, "off-cpu", 12, "sleeper", state="S", stack=2, attrs={"wakeup_delay_ns": " 300 "}),
        event(
            0,
            2_000_500,
            "off-cpu",
            10,
            "nul\u0000worker",
            state="S",
            stack=0,
            waker=11,
            attrs={"wakeup_delay_ns": "1500000", "waker_comm": 7},
        ),
        event(1_000_123, 1_000_000, "off-cpu", 11, "waker", pid=None, state="S", stack=0, waker=10),
        event(2_000_123, 3_000_000, "on-cpu", 11, "waker", pid=None),
        event(2_000_500, 1_000_000, "on-cpu", 10, "nul\u0000worker", stack=2),
        event(2_500_000, 1_000, "syscall", 10, "nul\u0000worker"),
        event(
            3_000_700,
            None,
            "off-cpu",
            10,
            "nul\u0000worker",
            state="D",
            stack=1,
            attrs={"inferred_duration_ns": 500_000, "futex_uaddr": 4096, "waker_comm": "?"},
        ),
        event(3_600_000, None, "on-cpu", 10, "nul\u0000worker"),
    ]
    return "\n".join(json.dumps(line) for line in [header, *lines]).encode() + b"\n"


@pytest.fixture(scope="module")
def parsed(api: TestClient, worker: subprocess.Popen[bytes]) -> dict[str, int]:
    incident = make_incident(api)
    uploads = {
        "lockwait": upload_file(api, incident["id"], LOCKWAIT, host="lab-1"),
        "hand-made sched": upload_bytes(api, incident["id"], SCHED.encode(), "sched.txt"),
        "records": upload_bytes(api, incident["id"], records_file(), "records.jsonl"),
    }
    for name, upload in uploads.items():
        assert wait_parsed(api, upload["id"])["status"] in ("ready", "partial"), name
    return {name: int(upload["id"]) for name, upload in uploads.items()}


@pytest.fixture(scope="module")
def offcpu5s(api: TestClient, worker: subprocess.Popen[bytes]) -> int:
    """The corpus's scheduler capture: 865 threads, every kernel state, empty stacks."""
    upload = upload_file(api, make_incident(api)["id"], corpus_file("captures", "offcpu5s.perf.txt.gz"))
    assert wait_parsed(api, upload["id"])["status"] in ("ready", "partial")
    return int(upload["id"])


@pytest.fixture
def session(database_url: str) -> Iterator[Any]:
    with get_session_factory(database_url)() as session:
        yield session
        session.rollback()


def by_thread(threads: list[ThreadStates]) -> list[ThreadStates]:
    return sorted(threads, key=lambda t: (t.tid, t.comm))


@pytest.mark.parametrize("name", ["lockwait", "hand-made sched", "records"])
def test_stored_totals_are_the_views_computation_from_the_intervals(
    parsed: dict[str, int], session: Any, name: str
) -> None:
    capture_id = parsed[name]
    stored = totals.load(session, ThreadFilter([capture_id])).get(capture_id, [])
    assert stored, f"{name}: the parse stored no thread states"
    # The view computes a capture's states from its intervals when none are stored (in this
    # transaction only: the rollback puts them back).
    session.execute(text("DELETE FROM capture_thread_states WHERE capture_id = :id"), {"id": capture_id})
    source, recomputed = capture_threads(session, capture_id)
    assert source == "sched"
    assert by_thread(stored) == by_thread(recomputed)


def test_and_on_the_corpus_scheduler_capture(offcpu5s: int, session: Any) -> None:
    stored = totals.load(session, ThreadFilter([offcpu5s]))[offcpu5s]
    assert len(stored) > 800
    session.execute(text("DELETE FROM capture_thread_states WHERE capture_id = :id"), {"id": offcpu5s})
    assert by_thread(stored) == by_thread(capture_threads(session, offcpu5s)[1])


def test_the_hand_made_file_reaches_every_normalisation(parsed: dict[str, int], session: Any) -> None:
    """What the comparison above covers: each case of the file changed something on its way in."""
    (stored,) = totals.load(session, ThreadFilter([parsed["records"]], tid=10)).values()
    (worker,) = stored
    assert worker.comm == "nul\\0worker"  # as stored
    assert worker.wakers == [(11, "7", 1)]  # a number as the name of the waker: its JSON text
    assert {w.lock[0]: w.lock[1] for w in worker.lock_waits}["address"] == "4096"  # a number: its text
    assert worker.inferred_intervals == 1
    (waker,) = totals.load(session, ThreadFilter([parsed["records"]], tid=11))[parsed["records"]]
    assert waker.pid is None
    assert [w.lock[0] for w in waker.lock_waits] == ["site"]  # futex_wait_queue in its stack
    (sleeper,) = totals.load(session, ThreadFilter([parsed["records"]], tid=12))[parsed["records"]]
    assert (sleeper.latency.count, sleeper.latency.max_ns) == (1, 100)  # woken at " 300 " ns, ran at 400
    assert sleeper.state_ns["sleeping"] == 300


def test_a_capture_without_scheduler_intervals_stores_none(
    api: TestClient, worker: subprocess.Popen[bytes], db: Conn
) -> None:
    cpu = b"svc 42/42 [001] 10.000001: 1000 cpu-clock:\n\t    1111 main (/usr/bin/svc)\n\n"
    upload = upload_bytes(api, make_incident(api)["id"], cpu, "cpu.txt")
    assert wait_parsed(api, upload["id"])["status"] == "ready"
    stored = db.execute("SELECT count(*) FROM capture_thread_states WHERE capture_id = %s", (upload["id"],))
    assert stored.fetchone() == (0,)


@pytest.fixture
def refusing_thread_states(db: Conn) -> Iterator[None]:
    """A trigger that makes the database reject every stored thread state, as a real error."""
    db.execute(
        "CREATE FUNCTION test_refuse_thread_state() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "RAISE EXCEPTION 'the test refuses thread states'; END $$"
    )
    db.execute(
        "CREATE TRIGGER test_refuse_thread_state BEFORE INSERT ON capture_thread_states "
        "FOR EACH ROW EXECUTE FUNCTION test_refuse_thread_state()"
    )
    try:
        yield
    finally:
        db.execute("DROP TRIGGER test_refuse_thread_state ON capture_thread_states")
        db.execute("DROP FUNCTION test_refuse_thread_state()")


def test_thread_states_that_cannot_be_stored_leave_the_parse_as_it_was(
    api: TestClient, database_url: str, db: Conn, refusing_thread_states: None
) -> None:
    """Optional data, as before they were written in the parse's transaction: the capture is ready
    with its intervals and rollups, and the view computes its states from the intervals."""
    capture_id = stored_capture(api, database_url, SCHED.encode())
    parse_capture(database_url, capture_id)
    row = db.execute(
        "SELECT status, (SELECT count(*) FROM events WHERE capture_id = c.id), "
        "(SELECT count(*) FROM timeline_rollups WHERE capture_id = c.id), "
        "(SELECT count(*) FROM capture_thread_states WHERE capture_id = c.id) FROM captures c WHERE id = %s",
        (capture_id,),
    ).fetchone()
    assert row is not None
    status, events, rollups, thread_states = row
    assert (status, thread_states) == ("ready", 0)
    assert events > 0
    assert rollups > 0
    result = api.get("/api/threads", params={"captures": str(capture_id)}).json()
    assert {t["tid"] for t in result["threads"]} == {100, 200}
