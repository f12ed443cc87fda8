"""`record` for real: perf against a live workload, the /proc sampler, the snapshot, the clock.

Needs perf; parts the kernel or perf_event_paranoid forbid are skipped with the reason.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from stallscope_collect.perf.modes import PERF_MODES
from stallscope_collect.perf.permissions import perf_privileged, permission_problems, read_paranoid
from stallscope_collect.perf.tool import find_perf, perf_prints_tod

from .conftest import Workload, run_collect

TOD = re.compile(r" (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\.(\d+) ")
HEADER_TIME = re.compile(r"\s(\d+\.\d{6}):\s")


def perf_or_skip() -> None:
    perf, why = find_perf()
    if perf is None:
        pytest.skip(why)


def allowed_modes(system_wide: bool) -> tuple[list[str], dict[str, str]]:
    refused, _ = permission_problems(PERF_MODES, system_wide, read_paranoid(), perf_privileged())
    return [m for m in PERF_MODES if m not in refused], refused


class Capture:
    def __init__(self, outdir: Path, result: Any, refused: dict[str, str], workload: Workload) -> None:
        self.dir = outdir
        self.result = result
        self.refused = refused
        self.workload = workload

    def need(self, mode: str) -> None:
        if mode in self.refused:
            pytest.skip(self.refused[mode])

    def text(self, name: str) -> str:
        return (self.dir / name).read_text(errors="replace")

    def proc_records(self) -> list[dict[str, Any]]:
        lines = self.text("proc.jsonl").splitlines()
        return [json.loads(line) for line in lines[1:]]


@pytest.fixture(scope="module")
def pid_capture(workload: Workload, tmp_path_factory: pytest.TempPathFactory) -> Capture:
    perf_or_skip()
    modes, refused = allowed_modes(system_wide=False)
    outdir = tmp_path_factory.mktemp("pid") / "capture"
    args = ["record", "--pid", str(workload.pid), "--duration", "3", "--output", str(outdir)]
    args += [f"--{m}" for m in modes if m != "syscalls"]
    if "syscalls" in modes:
        args += ["--syscalls", "fsync,futex,mmap"]
    args += ["--metrics-cmd", 'echo \'queue_depth 4\'; echo \'{"name": "p99_ms", "value": 12.5}\'']
    result = run_collect(args)
    assert result.returncode == 0, result.stderr
    return Capture(outdir, result, refused, workload)


@pytest.fixture(scope="module")
def all_capture(workload: Workload, tmp_path_factory: pytest.TempPathFactory) -> Capture:
    perf_or_skip()
    _, refused = allowed_modes(system_wide=True)
    outdir = tmp_path_factory.mktemp("all") / "capture"
    result = run_collect(["record", "--all", "--duration", "3", "--output", str(outdir)])
    assert result.returncode == 0, result.stderr
    return Capture(outdir, result, refused, workload)


def perf_samples(text: str) -> list[tuple[str, str]]:
    """(header line, stack text) per sample of `perf script` output."""
    samples = []
    for block in text.split("\n\n"):
        lines = block.strip("\n").splitlines()
        if lines and not lines[0].startswith(("\t", " ")):
            samples.append((lines[0], "\n".join(lines[1:])))
    return samples


def header_pid(header: str) -> int | None:
    m = re.match(r"^.*?\s+(\d+)(?:/\d+)?\s+(?:\[\d+\]\s+)?(?:\d{4}-\d\d-\d\d [\d:.]+\s+)?\d+\.\d+:", header)
    return int(m.group(1)) if m else None


def test_cpu_samples_of_the_workload_with_stacks(pid_capture: Capture) -> None:
    pid_capture.need("cpu")
    samples = perf_samples(pid_capture.text("cpu.perf.txt"))
    tids = {t for ts in pid_capture.workload.tids_by_comm().values() for t in ts}
    ours = [(h, s) for h, s in samples if header_pid(h) in tids]
    assert len(ours) >= 20, f"{len(ours)} samples of the workload in {len(samples)}"
    assert any("wl-cpu" in h for h, _ in ours)
    assert sum(1 for _, s in ours if s.strip()) >= len(ours) // 2, "most samples should carry a stack"
    assert any("cpu-clock" in h or "cycles" in h for h, _ in ours)


def test_offcpu_sched_switch_with_stacks_and_both_ends(pid_capture: Capture) -> None:
    pid_capture.need("offcpu")
    text = pid_capture.text("offcpu.perf.txt")
    samples = perf_samples(text)
    switches = [(h, s) for h, s in samples if "sched:sched_switch:" in h]
    assert switches, "no sched_switch events"
    assert any(s.strip() for _, s in switches), "sched_switch events carry stacks"
    assert "sched:sched_wakeup:" in text or "sched:sched_waking:" in text
    fsync_tid = pid_capture.workload.tids_by_comm()["wl-fsync"][0]
    # Switches out of the fsync thread and back in, the latter raised by some other task.
    assert re.search(rf"prev_pid={fsync_tid} .*prev_state=D", text), "fsync thread blocked in D"
    assert re.search(rf"next_pid={fsync_tid}\b", text), "its switch back in is recorded too"


def test_faults_record_stacks(pid_capture: Capture) -> None:
    pid_capture.need("faults")
    samples = perf_samples(pid_capture.text("faults.perf.txt"))
    faults = [(h, s) for h, s in samples if "page-faults" in h]
    assert faults, "no page-faults samples"
    assert any("wl-fault" in h for h, _ in faults)
    assert any(s.strip() for _, s in faults)


def test_syscalls_have_durations_and_threads(pid_capture: Capture) -> None:
    pid_capture.need("syscalls")
    text = pid_capture.text("syscalls.trace.txt")
    fsync_tid = pid_capture.workload.tids_by_comm()["wl-fsync"][0]
    line = re.compile(rf"^\s*\d+\.\d+ \(\s*\d+\.\d+ ms\): wl-fsync/{fsync_tid} fsync\(", re.M)
    assert line.search(text), text[:2000]
    assert re.search(r"futex\(", text)
    assert not re.search(r"\b(read|write|openat)\(", text), "only the requested syscalls"


def test_perf_times_are_on_the_anchored_monotonic_clock(pid_capture: Capture) -> None:
    pid_capture.need("cpu")
    clock = json.loads(pid_capture.text("clock.json"))
    assert set(clock) == {"perf_clock", "anchors"}
    assert len(clock["anchors"]) == 2
    for anchor in clock["anchors"]:
        assert set(anchor) == {"monotonic_ns", "realtime_ns"}
    if clock["perf_clock"] != "monotonic":
        pytest.skip("perf refused -k CLOCK_MONOTONIC here; times are on perf's own clock")
    start, end = (a["monotonic_ns"] / 1e9 for a in clock["anchors"])
    times = []
    for header, _ in perf_samples(pid_capture.text("cpu.perf.txt")):
        m = HEADER_TIME.search(header)
        if m:
            times.append(float(m.group(1)))
    assert times
    assert start <= min(times) <= max(times) <= end
    realtime_offset = [a["realtime_ns"] - a["monotonic_ns"] for a in clock["anchors"]]
    assert abs(realtime_offset[0] - realtime_offset[1]) < 50_000_000


def test_perf_text_carries_its_wall_clock_column_that_agrees_with_the_anchors(pid_capture: Capture) -> None:
    pid_capture.need("cpu")
    clock = json.loads(pid_capture.text("clock.json"))
    perf, _ = find_perf()
    if clock["perf_clock"] != "monotonic" or perf is None or not perf_prints_tod(perf.version):
        pytest.skip("perf here records without -k CLOCK_MONOTONIC or has no tod field (perf < 5.11)")
    header = next(h for h, _ in perf_samples(pid_capture.text("cpu.perf.txt")) if HEADER_TIME.search(h))
    tod = TOD.search(header)
    assert tod is not None, header
    # perf prints the wall clock in local time, which mktime reads back the same way
    wall_s = time.mktime(time.strptime(tod.group(1), "%Y-%m-%d %H:%M:%S")) + float("0." + tod.group(2))
    offset_s = wall_s - float(HEADER_TIME.search(header).group(1))  # type: ignore[union-attr]
    anchor_offset_s = (clock["anchors"][0]["realtime_ns"] - clock["anchors"][0]["monotonic_ns"]) / 1e9
    assert abs(offset_s - anchor_offset_s) < 0.001


def test_proc_sampler_series(pid_capture: Capture) -> None:
    lines = pid_capture.text("proc.jsonl").splitlines()
    header = json.loads(lines[0])
    assert lines[0] == json.dumps(
        {
            "stallscope": "proc-sampler",
            "version": 1,
            "host": header["host"],
            "interval_ms": 50,
            "target_pids": [pid_capture.workload.pid],
        }
    )
    records = pid_capture.proc_records()
    for r in records[:200]:
        assert list(r) == ["t", "name", "labels", "value"]
        assert isinstance(r["t"], int)
        assert r["t"] > 1_500_000_000 * 10**9
        assert all(isinstance(v, str) for v in r["labels"].values())
    names = {r["name"] for r in records}
    for name in (
        "cpu.user",
        "cpu.system",
        "cpu.idle",
        "cpu.iowait",
        "cpu.steal",
        "mem.MemTotal",
        "mem.MemFree",
    ):
        assert name in names
    assert {r["labels"]["cpu"] for r in records if r["name"] == "cpu.user"} >= {"all", "0"}
    if os.path.exists("/proc/pressure/cpu"):
        assert "pressure.cpu.some.avg10" in names
    assert any(n.startswith("disk.") for n in names)

    tids = pid_capture.workload.tids_by_comm()
    states: dict[str, set] = {}
    for r in records:
        if r["name"] == "thread.state":
            assert r["value"] == 1
            assert r["labels"]["pid"] == str(pid_capture.workload.pid)
            states.setdefault(r["labels"]["comm"], set()).add(r["labels"]["state"])
    assert set(states) >= {"wl-lock", "wl-cpu", "wl-fsync", "wl-fault"}
    assert "S" in states["wl-lock"] | states.get("python", set()) | states.get("python3", set())
    assert "R" in states["wl-cpu"]
    # Each fsync waits in D for a few milliseconds at most on a quiet disk: a 20 Hz sampler may
    # catch none of those waits in a short recording, so D is checked exactly where it is exact,
    # in the scheduler capture (test_offcpu_sched_switch_with_stacks_and_both_ends).
    assert states["wl-fsync"] <= {"R", "S", "D"}, states["wl-fsync"]
    ticks = {r["t"] for r in records if r["name"] == "thread.state"}
    assert len(ticks) >= 40, "20 Hz over 3 s and more"
    per_tick = sum(1 for r in records if r["name"] == "thread.state") / len(ticks)
    assert per_tick == pytest.approx(sum(len(v) for v in tids.values()), abs=1)

    ctx = [
        r
        for r in records
        if r["name"] == "thread.ctx_switches.voluntary" and r["labels"]["comm"] == "wl-lock"
    ]
    assert ctx
    assert max(r["value"] for r in ctx) > 0
    assert any(r["name"] == "thread.ctx_switches.nonvoluntary" for r in records)


def test_metrics_cmd_wrapped_as_records(pid_capture: Capture) -> None:
    lines = pid_capture.text("app-metrics.jsonl").splitlines()
    header = json.loads(lines[0])
    assert header["stallscope"] == "proc-sampler"
    assert header["interval_ms"] == 1000
    records = [json.loads(line) for line in lines[1:]]
    assert {"name": "queue_depth", "labels": {}, "value": 4}.items() <= records[0].items()
    assert any(r["name"] == "p99_ms" and r["value"] == 12.5 for r in records)


def test_snapshot_sections(pid_capture: Capture) -> None:
    snap = json.loads(pid_capture.text("snapshot.json"))
    assert snap["stallscope"] == "snapshot"
    assert snap["version"] == 1
    assert isinstance(snap["taken_at_ns"], int)
    sections = snap["sections"]
    for name in ("kernel", "cpu", "transparent_hugepage", "tracing", "bpf", "vm", "perf", "processes"):
        assert name in sections
    assert "Linux" in sections["kernel"]["uname"]
    assert sections["kernel"]["proc_version"].startswith("Linux version")
    assert sections["cpu"]["count"] == os.cpu_count()
    assert "[" in sections["transparent_hugepage"]["enabled"]
    vm = sections["vm"]
    for key in (
        "dirty_ratio",
        "dirty_background_ratio",
        "swappiness",
        "overcommit_memory",
        "min_free_kbytes",
    ):
        assert key in vm
    assert "drop_caches" not in vm
    assert isinstance(sections["perf"]["perf_event_paranoid"], int)
    # Missing files are null with the reason, never a crash.
    for section in sections.values():
        for key, error in section.get("errors", {}).items():
            assert section[key] is None
            assert isinstance(error, str)
            assert error
    if shutil.which("bpftool") is None:
        assert sections["bpf"]["programs"] is None
        assert "bpftool" in sections["bpf"]["errors"]["programs"]
    proc = sections["processes"][str(pid_capture.workload.pid)]
    assert proc["cmdline"][-2].endswith("workload.py")
    assert any("libc" in lib or "python" in lib for lib in proc["libraries"])
    assert isinstance(proc["environment"], dict)


def test_commands_saved(pid_capture: Capture) -> None:
    commands = pid_capture.text("commands.txt")
    if "cpu" not in pid_capture.refused:
        pid = pid_capture.workload.pid
        # Every CPU when perf may (per-process events slow the target's context switches), else -p.
        sampled = re.search(rf"perf record (-k CLOCK_MONOTONIC )?-F 49 -g -m 64 (-a|-p {pid}) ", commands)
        assert sampled
        if sampled.group(2) == "-a":
            assert re.search(rf"perf script -i \S+cpu.perf.data --pid {pid} -F \S+\n", commands)
        else:
            assert "perf script -i " in commands
    if "offcpu" not in pid_capture.refused:
        assert "-e sched:sched_switch --filter" in commands
    assert "sh -c" in commands


def test_all_mode(all_capture: Capture, workload: Workload) -> None:
    all_capture.need("cpu")
    samples = perf_samples(all_capture.text("cpu.perf.txt"))
    assert any(re.match(r"^\S.*\s\d+/?\d*\s+\[\d+\]", h) for h, _ in samples), (
        "system-wide samples carry [cpu]"
    )
    tids = {t for ts in workload.tids_by_comm().values() for t in ts}
    assert any(header_pid(h) in tids for h, _ in samples)
    header = json.loads(all_capture.text("proc.jsonl").splitlines()[0])
    assert header["target_pids"] == []
    records = all_capture.proc_records()
    states = {r["labels"]["state"] for r in records if r["name"] == "thread.state"}
    assert states
    assert "S" not in states, "--all keeps only threads that are not sleeping"
    assert not any(r["name"].startswith("thread.ctx_switches") for r in records)
    assert "commands.txt" in os.listdir(all_capture.dir)
    if "leaving it out" in all_capture.result.stderr:
        return  # the host was switching context too often for default off-CPU tracing
    if "offcpu" not in all_capture.refused:
        text = all_capture.text("offcpu.perf.txt")
        assert "sched:sched_switch:" in text
        assert "--filter" not in all_capture.text("commands.txt")
