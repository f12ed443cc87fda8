"""`--proc-stacks`: the kernel stacks of the workload's threads, dumped from /proc as the console
reads them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from stallscope_collect.stacks import stacks_unreadable

from .conftest import Workload, run_collect, zipapp

HEADER = re.compile(r"# ts_us=(\d{16}) pid=(\d+) tid=(\d+) state=([A-Za-z]) comm=(.+)")
FRAME = re.compile(r"\[<[0-9a-f]+>\] \S+")


def dumps(text: str) -> list[tuple[tuple[str, ...], list[str]]]:
    """(header fields, frame lines) per dump; fails on a line that is neither."""
    found: list[tuple[tuple[str, ...], list[str]]] = []
    for line in text.splitlines():
        header = HEADER.fullmatch(line)
        if header is not None:
            found.append((header.groups(), []))
        else:
            assert found, line
            assert FRAME.match(line), line
            found[-1][1].append(line)
    return found


def test_every_thread_of_the_target_is_dumped_with_its_state(tmp_path: Path, workload: Workload) -> None:
    why = stacks_unreadable()
    if why is not None:
        pytest.skip(why)
    out = tmp_path / "o"
    args = ["record", "--pid", str(workload.pid), "--no-perf", "--no-proc", "--no-snapshot", "--proc-stacks"]
    result = run_collect([*args, "--stacks-hz", "10", "--duration", "2", "--output", str(out)])
    assert result.returncode == 0, result.stderr
    assert "proc-stacks.txt" in result.stderr
    found = dumps((out / "proc-stacks.txt").read_text())
    tids = {tid for group in workload.tids_by_comm().values() for tid in group}
    assert {int(fields[2]) for fields, _ in found} == tids
    assert {int(fields[1]) for fields, _ in found} == {workload.pid}
    times = [int(fields[0]) for fields, _ in found]
    assert times == sorted(times)
    assert len(found) >= 5 * len(tids)  # about 20 rounds in 2 s at 10 Hz; thinned out at worst
    waiting = [frames for fields, frames in found if fields[4] == "wl-lock" and fields[3] == "S"]
    assert any("futex" in frames[0] for frames in waiting if frames)


def test_the_rate_is_bounded() -> None:
    result = run_collect(["record", "--pid", str(os.getpid()), "--proc-stacks", "--stacks-hz", "50"])
    assert result.returncode == 2
    assert "--stacks-hz must be above 0 and at most 20" in result.stderr


def test_without_the_right_the_mode_is_refused(tmp_path: Path) -> None:
    setpriv = shutil.which("setpriv")
    if setpriv is None or os.geteuid() != 0:
        pytest.skip("needs root and setpriv(1) to run the collector as an unprivileged user")
    out = tmp_path / "o"
    tmp_path.chmod(0o777)
    unprivileged = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable]
    args = ["record", "--pid", str(os.getpid()), "--no-perf", "--proc-stacks", "--output", str(out)]
    result = subprocess.run(
        [*unprivileged, str(zipapp()), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path)},
    )
    assert result.returncode == 1, result.stderr
    assert "needs root (CAP_SYS_ADMIN)" in result.stderr
    assert not out.exists()
