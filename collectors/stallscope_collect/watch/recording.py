"""One round's recording, with record's own code: perf jobs started, the /proc sampler over the CPU
window, the snapshot, perf stopped (at the end of its window, or early on a stop signal), the
clock written and perf's data turned into text."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import Any

from stallscope_collect.clock import clock_anchor
from stallscope_collect.console import Console
from stallscope_collect.files import write_json
from stallscope_collect.formatting import describe
from stallscope_collect.perf.plan import PerfJob, Plan
from stallscope_collect.record.outputs import Output, perf_outputs, write_commands
from stallscope_collect.record.perf_processes import (
    StopFlag,
    convert_to_text,
    start_perf_jobs,
    wait_for_record,
)
from stallscope_collect.sampler import ProcSampler
from stallscope_collect.snapshot import take_snapshot
from stallscope_collect.watch.config import RoundSetup

STOP_WAIT_S = 20.0
"""How long perf gets to write its data after SIGTERM, when a round is aborted, before SIGKILL."""


@dataclass
class RoundFiles:
    """A recorded round: its outputs (the snapshot only when it was taken and written), and how
    it went."""

    outdir: str
    outputs: list[Output]
    warnings: list[str]
    snapshot: dict[str, Any] | None
    cut_short: bool
    aborted: bool


def record_round(
    setup: RoundSetup,
    outdir: str,
    plan: Plan,
    stop: StopFlag,
    quiet: Console,
    started_wall: float,
) -> RoundFiles:
    """Record one round into `outdir`. The snapshot is taken, and returned to the caller, who knows
    whether it changed since the last one sent."""
    warnings: list[str] = []
    begun = time.monotonic()
    anchors = [clock_anchor()]
    sampler = ProcSampler(os.path.join(outdir, "proc.jsonl"), setup.host, [], setup.sample_hz)
    snapshot: dict[str, Any] | None = None
    aborted = False
    try:
        start_perf_jobs(plan.jobs, outdir)
        sampler.start()
        try:
            snapshot = take_snapshot(setup.host, [], setup.perf.path if setup.perf else None)
        except Exception as exc:  # the snapshot is best-effort as a whole, as in record
            warnings.append("snapshot failed: " + describe(exc))
        window = argparse.Namespace(duration=setup.cpu_seconds, min_free=setup.min_free)
        aborted = wait_for_record(window, quiet, plan.jobs, outdir, stop)
        # The sampler covers the CPU window even when perf's jobs ended sooner (no CPU job).
        remaining = begun + setup.cpu_seconds - time.monotonic()
        if not aborted and remaining > 0:
            stop.event.wait(remaining)
    finally:
        if sampler.ident is not None:
            sampler.stop()
        _stop_leftovers(plan.jobs)
    anchors.append(clock_anchor())
    cut_short = stop.event.is_set()
    if aborted:
        return RoundFiles(outdir, [], warnings, None, cut_short, True)
    perf_clock = "monotonic" if all(j.perf_clock == "monotonic" for j in plan.jobs) else "default"
    write_json(os.path.join(outdir, "clock.json"), {"perf_clock": perf_clock, "anchors": anchors})
    for job in plan.jobs:
        convert_to_text(job, quiet, outdir, setup.min_free)
    outputs = perf_outputs(plan.jobs, anchors, quiet, warnings)
    if sampler.error:
        warnings.append("the /proc sampler stopped: " + sampler.error)
    outputs.append(Output(sampler.path, "proc", None, [], [], f"{sampler.ticks} ticks"))
    write_commands(outdir, plan, argparse.Namespace(metrics_cmd=None), started_wall)
    for job in plan.jobs:
        warnings += job.warnings
    return RoundFiles(outdir, outputs, warnings, snapshot, cut_short, False)


def _stop_leftovers(jobs: list[PerfJob]) -> None:
    """perf processes still running after an error or an abort: stopped, and waited for."""
    for job in jobs:
        proc = job.proc
        if proc is None or proc.poll() is not None:
            continue
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            job.returncode = proc.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
            job.returncode = proc.wait()
