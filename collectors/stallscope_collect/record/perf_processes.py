"""The perf processes of a record: waited out, stopped early on a signal or a full disk, converted
to text."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import subprocess
import threading
import time
from typing import Any

from stallscope_collect.console import Console
from stallscope_collect.files import free_bytes, read_text, size_or_zero
from stallscope_collect.formatting import fmt_bytes, fmt_seconds
from stallscope_collect.perf.plan import PerfJob


class StopFlag:
    """Set by the first SIGINT/SIGTERM: finish early and keep everything recorded so far."""

    def __init__(self, console: Console) -> None:
        self.event = threading.Event()
        self.console = console
        self._old: dict[int, Any] = {}

    def __enter__(self) -> StopFlag:
        for sig in (signal.SIGINT, signal.SIGTERM):
            self._old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self._old.items():
            signal.signal(sig, handler)

    def _handle(self, signum: int, frame: object) -> None:
        if self.event.is_set():
            raise KeyboardInterrupt
        self.event.set()
        self.console.warn("stopping early: keeping what was recorded so far (again to abort)")


def _dir_bytes(path: str) -> int:
    total = 0
    try:
        for entry in os.scandir(path):
            try:
                if entry.is_file(follow_symlinks=False):
                    total += entry.stat().st_size
            except OSError:
                continue
    except OSError:
        pass
    return total


def _has_children(pid: int) -> bool:
    """Has perf started its `sleep` yet? perf starts it once its events are set up."""
    try:
        return any(
            read_text(f"/proc/{pid}/task/{tid}/children").strip() for tid in os.listdir(f"/proc/{pid}/task")
        )
    except OSError:
        return True  # cannot tell: do not warn


def _signal_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except OSError:
        with contextlib.suppress(OSError):
            proc.send_signal(sig)


def start_perf_jobs(jobs: list[PerfJob], outdir: str) -> None:
    """Start each job's `perf record`, its messages in `<kind>.record.log` beside its data."""
    for job in jobs:
        job.log_path = os.path.join(outdir, job.kind + ".record.log")
        with open(job.log_path, "wb") as log:
            # A process group of its own, so a Ctrl-C on the terminal reaches only the collector,
            # which stops perf cleanly. Not a session of its own: with sched_autogroup each
            # session is a scheduling group, and perf then starved for tens of seconds while
            # moving itself onto a CPU saturated by the target.
            job.proc = subprocess.Popen(
                job.record_cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log, preexec_fn=os.setpgrp
            )


def scan_perf_log(path: str) -> tuple[list[str], str]:
    """perf's warnings (lost events, truncations) and its closing summary line."""
    try:
        text = read_text(path)
    except OSError:
        return [], ""
    warnings: list[str] = []
    summary = ""
    for line in text.splitlines():
        low = line.lower()
        if "captured and wrote" in low:
            m = re.search(r"\((\d+ samples)\)", line)
            summary = m.group(1) if m else ""
        elif ("lost" in low or "warning" in low or "max size" in low or "error" in low) and len(
            warnings
        ) < 10:
            warnings.append(line.strip())
    return warnings, summary


def wait_for_record(
    args: argparse.Namespace, console: Console, jobs: list[PerfJob], outdir: str, stop: StopFlag
) -> bool:
    """Wait out the duration (perf stops itself); True when the user aborted."""
    started = time.monotonic()
    deadline = started + args.duration
    grace = deadline + 60.0
    signalled_at: float | None = None
    checked_start = False
    try:
        while True:
            now = time.monotonic()
            running = [j for j in jobs if j.proc is not None and j.proc.poll() is None]
            if not running and (jobs or now >= deadline or stop.event.is_set()):
                break
            if not checked_start and now - started > 10:
                checked_start = True
                for job in running:
                    assert job.proc is not None
                    if not _has_children(job.proc.pid):
                        console.warn(
                            f"{job.kind}: perf has not started recording after 10 s (a saturated CPU?); "
                            "it records the full duration once it does"
                        )
            low_disk = False
            with contextlib.suppress(OSError):
                low_disk = free_bytes(outdir) < args.min_free // 2
            if low_disk and not stop.event.is_set():
                console.warn(f"free disk below {fmt_bytes(args.min_free // 2)}: stopping early")
                stop.event.set()
            if (stop.event.is_set() or now > grace) and signalled_at is None:
                signalled_at = now
                for job in running:
                    assert job.proc is not None
                    _signal_group(job.proc, signal.SIGINT)
            elif signalled_at is not None and now - signalled_at > 20:
                for job in running:
                    assert job.proc is not None
                    _signal_group(job.proc, signal.SIGKILL if now - signalled_at > 40 else signal.SIGTERM)
            elapsed = min(now - started, args.duration)
            console.status(
                f"recording: {elapsed:.0f} s of {fmt_seconds(args.duration)} s, "
                f"{max(0.0, deadline - now):.0f} s left, {fmt_bytes(_dir_bytes(outdir))} written"
            )
            time.sleep(0.25)
    except KeyboardInterrupt:
        for job in jobs:
            if job.proc is not None and job.proc.poll() is None:
                _signal_group(job.proc, signal.SIGTERM)
        console.error(f"aborted; partial files are in {outdir}")
        return True
    for job in jobs:
        if job.proc is not None:
            job.returncode = job.proc.wait()
    console.status(f"recorded {fmt_bytes(_dir_bytes(outdir))} in {outdir}", final=True)
    return False


def convert_to_text(job: PerfJob, console: Console, outdir: str, min_free: int) -> None:
    """perf script (or perf trace -i) the recording to text, watching the disk while it writes."""
    if job.convert_cmd is None or job.data_path is None or not os.path.exists(job.data_path):
        return
    log_path = os.path.join(outdir, job.kind + ".convert.log")
    # perf script writes to stdout; perf trace -i writes its own -o file.
    out_path = job.text_path if "-o" not in job.convert_cmd else os.devnull
    with open(log_path, "wb") as log, open(out_path, "wb") as out:
        proc = subprocess.Popen(job.convert_cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=log)
        name = os.path.basename(job.data_path)
        console.reset_pace()
        console.status(f"converting {name} to text")
        try:
            while proc.poll() is None:
                time.sleep(0.25)
                console.status(f"converting {name} to text: {fmt_bytes(size_or_zero(job.text_path))}")
                try:
                    disk_low = free_bytes(outdir) < min_free // 2
                except OSError:
                    disk_low = False
                if disk_low:
                    proc.terminate()
                    proc.wait()
                    job.warnings.append("text conversion cut short: the disk is nearly full")
        except KeyboardInterrupt:
            proc.terminate()
            proc.wait()
            job.warnings.append("text conversion interrupted; the text file is incomplete")
            return
    warnings, _ = scan_perf_log(log_path)
    job.warnings += warnings
