"""`stallscope collapse` of a scheduler capture: off-CPU stacks in µs, as the server's off-CPU graph."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from stallscope.cli import main
from tests.fixtures.factories import make_incident, upload_bytes
from tests.fixtures.worker import wait_parsed
from tests.threads.test_threads_api import SCHED, SCHEDULE

STACK = ";".join(reversed(SCHEDULE))


def collapse(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["collapse", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_blocked_time_by_stack_in_microseconds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sched.txt"
    path.write_text(SCHED)
    status, out, err = collapse(capsys, str(path))
    assert status == 0
    # worker: S 1.0-2.0 s and D 2.25-3.0 s; main: preempted 2.0-2.25 s (the rest never closed).
    assert out == f"main;{STACK} 250000\nworker;{STACK} 1750000\n"
    assert "microseconds" in err
    assert "unclosed" in err


def test_state_keeps_one_scheduler_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sched.txt"
    path.write_text(SCHED)
    status, out, _ = collapse(capsys, str(path), "--state", "D")
    assert status == 0
    assert out == f"worker;{STACK} 750000\n"
    status, out, _ = collapse(capsys, str(path), "--state", "D", "--tid")
    assert out == f"worker-?/100;{STACK} 750000\n"


def test_the_same_numbers_as_the_servers_off_cpu_folded_download(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], api: TestClient, worker: subprocess.Popen[bytes]
) -> None:
    path = tmp_path / "sched.txt"
    path.write_text(SCHED)
    _, local, _ = collapse(capsys, str(path))
    incident = make_incident(api)
    capture = wait_parsed(api, upload_bytes(api, incident["id"], SCHED.encode(), "sched.txt")["id"])
    served = api.get("/api/flame/folded", params={"captures": str(capture["id"]), "source": "off-cpu"})
    assert served.status_code == 200
    assert served.text == local


def test_a_cpu_capture_still_folds_samples(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cpu.txt"
    path.write_text("app 1/1 [000] 1.0: 1 cpu-clock:\n\t1 main (/bin/app)\n\n")
    status, out, _ = collapse(capsys, str(path))
    assert (status, out) == (0, "app;main 1\n")
    status, _, err = collapse(capsys, str(path), "--offcpu")
    assert status == 1
    assert "no off-CPU intervals" in err
