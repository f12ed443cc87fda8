"""The command line: help, refusals with clear messages, guards, and the oldest Python it supports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from stallscope_collect.budget import (
    OFFCPU_DEFAULT_BUDGET,
    OFFCPU_EVENT_COST_S,
    OFFCPU_EVENTS_PER_SWITCH,
    measure_rates,
)
from stallscope_collect.perf.tool import find_perf

from .conftest import python38, run_collect, zipapp


@pytest.mark.parametrize("command", ["record", "upload", "flush"])
def test_help_has_examples(command: str) -> None:
    result = run_collect([command, "--help"])
    assert result.returncode == 0
    assert "examples:" in result.stdout
    assert "stallscope-collect" in result.stdout


def test_record_help_lists_every_flag() -> None:
    text = run_collect(["record", "--help"]).stdout
    for flag in (
        "--server",
        "--incident",
        "--pid",
        "--all",
        "--duration",
        "--max-duration",
        "--cpu",
        "--offcpu",
        "--faults",
        "--syscalls",
        "--no-perf",
        "--cpu-hz",
        "--sample-hz",
        "--proc-stacks",
        "--stacks-hz",
        "--metrics-cmd",
        "--metrics-interval",
        "--host",
        "--spool",
        "--output",
        "--min-free",
        "--token-file",
        "--quiet",
        "--dry-run",
    ):
        assert flag in text


def test_guards(tmp_path: Path) -> None:
    me = str(os.getpid())
    out = str(tmp_path / "o")
    cases = [
        (["record", "--duration", "1", "--output", out], "--pid PID"),
        (["record", "--pid", me, "--all", "--duration", "1", "--output", out], "--pid PID"),
        (["record", "--pid", me, "--duration", "700", "--output", out], "--max-duration"),
        (["record", "--pid", me, "--cpu-hz", "999", "--output", out], "--allow-high-frequency"),
        (["record", "--pid", "999999999", "--output", out], "no process with pid 999999999"),
        (["record", "--pid", me, "--server", "http://x", "--output", out], "--server needs --incident"),
    ]
    for args, message in cases:
        result = run_collect(args)
        assert result.returncode == 2, (args, result.stderr)
        assert message in result.stderr, (args, result.stderr)
    assert not Path(out).exists()


def test_refuses_when_the_disk_is_too_small(tmp_path: Path) -> None:
    result = run_collect(
        [
            "record",
            "--pid",
            str(os.getpid()),
            "--no-perf",
            "--duration",
            "1",
            "--output",
            str(tmp_path / "o"),
            "--min-free",
            "100000T",
        ]
    )
    assert result.returncode == 1
    assert "not enough free disk" in result.stderr
    assert "--min-free" in result.stderr
    assert not (tmp_path / "o").exists()


def test_missing_perf_is_explained(tmp_path: Path) -> None:
    env = {"PATH": str(tmp_path)}  # no perf anywhere
    args = ["record", "--pid", str(os.getpid()), "--duration", "1", "--output", str(tmp_path / "o")]
    result = run_collect([*args, "--cpu"], env=env)
    assert result.returncode == 1
    assert "apt install linux-perf" in result.stderr
    assert "linux-tools-$(uname -r)" in result.stderr
    # Without an explicit mode the record goes on with what needs no perf.
    result = run_collect(args, env=env)
    assert result.returncode == 0, result.stderr
    assert "linux-perf" in result.stderr
    assert sorted(os.listdir(tmp_path / "o")) == ["clock.json", "commands.txt", "proc.jsonl", "snapshot.json"]


def test_dry_run_prints_commands_and_records_nothing(tmp_path: Path) -> None:
    perf, why = find_perf()
    if perf is None:
        pytest.skip(why)
    out = tmp_path / "o"
    result = run_collect(["record", "--all", "--cpu", "--duration", "5", "--output", str(out), "--dry-run"])
    if result.returncode != 0:
        pytest.skip(result.stderr.strip())
    assert "record" in result.stdout
    assert "-a" in result.stdout.split()
    assert "sleep 5" in result.stdout
    assert not out.exists()


def test_runs_on_python_38(tmp_path: Path) -> None:
    python = python38()
    if python is None:
        pytest.skip("no Python 3.8 interpreter found (set COLLECTOR_TEST_PYTHON)")
    result = subprocess.run(
        [python, "-W", "error", "-X", "dev", str(zipapp()), "record", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    out = tmp_path / "o"
    result = run_collect(
        [
            "record",
            "--no-perf",
            "--pid",
            str(os.getpid()),
            "--duration",
            "1",
            "--output",
            str(out),
            "--metrics-cmd",
            "echo up 1",
        ],
        python=python,
    )
    assert result.returncode == 0, result.stderr
    lines = (out / "proc.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["stallscope"] == "proc-sampler"
    assert len(lines) > 50
    assert json.loads((out / "snapshot.json").read_text())["stallscope"] == "snapshot"


PING_PONG = """
import os, threading, time
a, b = os.pipe(), os.pipe()
def side(i, o, start):
    if start:
        os.write(o, b"x")
    while True:
        os.read(i, 1)
        os.write(o, b"x")
threading.Thread(target=side, args=(a[0], b[1], True), daemon=True).start()
threading.Thread(target=side, args=(b[0], a[1], False), daemon=True).start()
print("ready", flush=True)
time.sleep(60)
"""


def test_offcpu_is_left_out_by_default_when_switches_are_too_frequent(tmp_path: Path) -> None:
    perf, why = find_perf()
    if perf is None:
        pytest.skip(why)
    busy = subprocess.Popen([sys.executable, "-c", PING_PONG], stdout=subprocess.PIPE, text=True)
    try:
        assert busy.stdout is not None
        busy.stdout.readline()
        rate = measure_rates([busy.pid]).ctx_per_s
        if rate * OFFCPU_EVENTS_PER_SWITCH * OFFCPU_EVENT_COST_S <= OFFCPU_DEFAULT_BUDGET:
            pytest.skip(f"the ping-pong only reached {rate:,.0f} switches/s here")
        base = [
            "record",
            "--pid",
            str(busy.pid),
            "--duration",
            "1",
            "--output",
            str(tmp_path / "o"),
            "--dry-run",
        ]
        result = run_collect(base)
        assert result.returncode == 0, result.stderr
        assert "leaving it out (ask for it with --offcpu)" in result.stderr
        assert "sched:sched_switch" not in result.stdout
        result = run_collect([*base, "--offcpu"])
        assert "recording it as asked" in result.stderr
        # At such rates even a short record may need more disk than there is: refused, not attempted.
        assert "sched:sched_switch" in result.stdout or "not enough free disk" in result.stderr
    finally:
        busy.kill()
        busy.wait()
