"""The console started the README's way keeps itself up: parts killed with -9 come back by themselves.

One real `stallscope serve` on its own data directory and port, with the embedded PostgreSQL and its
worker; the tests kill its parts the way the OOM killer or an operator would and watch it recover
with no manual step. They run in file order: the last one kills the console itself.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.fixtures.factories import big_perf_script
from tests.fixtures.processes import alive, children_of, command_line, free_port, processes_mentioning
from tests.fixtures.served_console import READY_TIMEOUT_S, ServedConsole, served_console

PARSE_TIMEOUT_S = 300
SAMPLES_IN_BIG_CAPTURE = 300_000


class Console(ServedConsole):
    """The served console, with what these tests ask of its parts."""

    def client(self) -> httpx.Client:
        """Signed in as the first admin, as a browser is (the session cookie)."""
        credentials = {"username": "admin", "password": self.admin_password()}
        signed_in = httpx.post(f"{self.url}/api/auth/login", json=credentials, timeout=60)
        assert signed_in.status_code == 200, signed_in.text
        marker = {"X-Requested-With": "tests"}
        return httpx.Client(base_url=self.url, timeout=60, headers=marker, cookies=signed_in.cookies)

    def worker_pids(self) -> list[int]:
        assert self.process is not None
        return [p for p in children_of(self.process.pid) if "stallscope worker" in command_line(p)]

    def postmaster_pid(self) -> int:
        return int((self.data_dir / "pgdata" / "postmaster.pid").read_text().split("\n", 1)[0])


@pytest.fixture(scope="module")
def console() -> Iterator[Console]:
    quick_recovery = {"STALLSCOPE_PARSE_STALL_TIMEOUT_S": "4", "STALLSCOPE_RECOVERY_INTERVAL_S": "1"}
    with served_console(Console, "stallscope-console-", **quick_recovery) as console:
        console.start()
        yield console


def wait_for(check: Any, what: str, console: Console, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, f"{what} after {timeout_s} s; console log:\n{console.tail()}"
        time.sleep(0.1)


def test_health_names_every_part(console: Console) -> None:
    status, body = console.health()
    assert status == 200
    assert body["status"] == "ok"
    assert {name: check["ok"] for name, check in body["checks"].items()} == {
        "database": True,
        "broker": True,
        "worker": True,
    }


def test_a_second_console_on_the_same_directory_is_refused(console: Console) -> None:
    second = subprocess.run(
        [sys.executable, "-m", "stallscope", "serve", "--port", str(free_port())],
        env=console.env(),
        capture_output=True,
        timeout=120,
    )
    assert second.returncode == 1
    message = second.stderr.decode()
    assert "another Stallscope console" in message
    assert str(console.data_dir) in message
    assert console.health()[0] == 200, "the first console is untouched"


def test_a_killed_database_makes_health_503_then_comes_back(console: Console) -> None:
    with console.client() as client:
        incident = client.post(
            "/api/incidents", json={"title": "before", "started_at": "2026-11-21T08:00:00Z"}
        )
        assert incident.status_code == 201
    os.kill(console.postmaster_pid(), signal.SIGKILL)
    seen: list[int] = []
    deadline = time.monotonic() + READY_TIMEOUT_S
    while not (503 in seen and seen[-1] == 200):
        assert time.monotonic() < deadline, f"health answered {seen[-5:]}; console log:\n{console.tail()}"
        status, body = console.health()
        seen.append(status)
        if status == 503:
            assert body["checks"]["database"]["ok"] is False
        time.sleep(0.05)
    with console.client() as client:
        titles = [i["title"] for i in client.get("/api/incidents").json()]
    assert "before" in titles, "committed data survives the crash"
    assert "embedded PostgreSQL started again" in console.log.read_text(errors="replace")


def parse_while(console: Console, kill: Any) -> dict[str, Any]:
    """Upload the big capture, call `kill` once its parse has begun, and return how the parse ends."""
    with console.client() as client:
        incident = client.post("/api/incidents", json={"title": "kill", "started_at": "2026-11-21T08:00:00Z"})
        capture = client.post(
            f"/api/incidents/{incident.json()['id']}/captures",
            params={"filename": "big.txt.gz"},
            content=big_perf_script(SAMPLES_IN_BIG_CAPTURE),
            headers={"Content-Type": "application/octet-stream"},
        ).json()

        def status() -> str:
            try:
                return str(client.get(f"/api/captures/{capture['id']}").json()["status"])
            except (httpx.HTTPError, KeyError):  # the API answers 503 while the database is away
                return "unknown"

        wait_for(lambda: status() == "parsing", "never parsing", console, PARSE_TIMEOUT_S)
        kill()
        wait_for(
            lambda: status() in {"ready", "partial", "failed"}, "parse never ended", console, PARSE_TIMEOUT_S
        )
        result: dict[str, Any] = client.get(f"/api/captures/{capture['id']}").json()
        return result


def test_a_database_killed_mid_parse_ends_in_a_ready_capture(console: Console) -> None:
    final = parse_while(console, lambda: os.kill(console.postmaster_pid(), signal.SIGKILL))
    assert final["status"] == "ready", (final["error"], final["recovery_note"], console.tail())
    assert final["sample_count"] == SAMPLES_IN_BIG_CAPTURE
    assert "worker parsing it stopped" in (final["recovery_note"] or "")


def test_a_worker_killed_mid_parse_is_replaced_and_the_parse_ends_ready(console: Console) -> None:
    (old_worker,) = console.worker_pids()
    final = parse_while(console, lambda: os.kill(old_worker, signal.SIGKILL))
    assert final["status"] == "ready", (final["error"], final["recovery_note"], console.tail())
    assert final["sample_count"] == SAMPLES_IN_BIG_CAPTURE
    assert "worker parsing it stopped" in (final["recovery_note"] or "")
    new_workers = console.worker_pids()
    assert new_workers
    assert old_worker not in new_workers
    assert f"pid {old_worker} was killed by SIGKILL" in console.log.read_text(errors="replace")


def test_a_killed_console_takes_its_worker_with_it_and_starts_again_clean(console: Console) -> None:
    assert console.process is not None
    workers = console.worker_pids()
    console.process.kill()
    console.process.wait()
    wait_for(lambda: not any(alive(p) for p in workers), "the orphaned worker kept running", console, 60)
    console.start()  # the same directory: its lock went with the killed console
    with console.client() as client:
        assert "before" in [i["title"] for i in client.get("/api/incidents").json()]
    console.process.send_signal(signal.SIGINT)
    assert console.process.wait(90) == 0
    wait_for(
        lambda: not processes_mentioning(str(console.data_dir)),
        "Ctrl-C left processes on the data directory running",
        console,
        60,
    )
