"""A record's run: perf, the sampler, the dumper and the metrics command started, waited out,
stopped and their outputs gathered."""

from __future__ import annotations

import argparse
import os
import shlex
import time

from stallscope_collect.clock import clock_anchor
from stallscope_collect.console import Console, program_name
from stallscope_collect.exit_status import EXIT_ERROR, EXIT_OK
from stallscope_collect.files import write_json
from stallscope_collect.formatting import describe, fmt_bytes, fmt_seconds
from stallscope_collect.metrics_cmd import MetricsRunner
from stallscope_collect.perf.plan import Plan
from stallscope_collect.perf.tool import Perf
from stallscope_collect.record.outputs import Output, perf_outputs, upload_outputs, write_commands
from stallscope_collect.record.perf_processes import (
    StopFlag,
    convert_to_text,
    start_perf_jobs,
    wait_for_record,
)
from stallscope_collect.sampler import ProcSampler
from stallscope_collect.snapshot import take_snapshot
from stallscope_collect.stacks import StackDumper
from stallscope_collect.upload.spool import Spool


def run_record(
    args: argparse.Namespace,
    console: Console,
    host: str,
    pids: list[int],
    outdir: str,
    perf: Perf | None,
    plan: Plan,
    spool: Spool,
) -> int:
    """Record as planned, gather the outputs and upload them (or say how to); the exit status."""
    outputs: list[Output] = []
    warnings: list[str] = []
    anchors = [clock_anchor()]
    started_wall = time.time()
    parts = [j.kind for j in plan.jobs] + ([] if args.no_proc else ["proc"])
    parts += ["proc-stacks"] if args.proc_stacks else []
    parts += ([] if args.no_snapshot else ["snapshot"]) + (["app-metrics"] if args.metrics_cmd else [])
    console.info(f"recording {', '.join(parts)} for {fmt_seconds(args.duration)} s into {outdir}")
    sampler = None
    dumper = None
    metrics = None
    with StopFlag(console) as stop:
        start_perf_jobs(plan.jobs, outdir)
        if not args.no_proc:
            sampler = ProcSampler(os.path.join(outdir, "proc.jsonl"), host, pids, args.sample_hz)
            sampler.start()
        if args.proc_stacks:
            dumper = StackDumper(os.path.join(outdir, "proc-stacks.txt"), pids, args.stacks_hz)
            dumper.start()
        if args.metrics_cmd:
            metrics = MetricsRunner(
                os.path.join(outdir, "app-metrics.jsonl"), host, pids, args.metrics_cmd, args.metrics_interval
            )
            metrics.start()
        snapshot_error = None
        if not args.no_snapshot:
            try:
                snapshot = take_snapshot(host, pids, perf.path if perf else None)
                write_json(os.path.join(outdir, "snapshot.json"), snapshot)
            except Exception as exc:  # the snapshot is best-effort as a whole, too
                snapshot_error = describe(exc)
        aborted = wait_for_record(args, console, plan.jobs, outdir, stop)
        if sampler is not None:
            sampler.stop()
        if dumper is not None:
            dumper.stop()
        if metrics is not None:
            metrics.stop()
        anchors.append(clock_anchor())
        if aborted:
            return EXIT_ERROR
        perf_clock = "monotonic" if all(j.perf_clock == "monotonic" for j in plan.jobs) else "default"
        write_json(os.path.join(outdir, "clock.json"), {"perf_clock": perf_clock, "anchors": anchors})
        for job in plan.jobs:
            convert_to_text(job, console, outdir, args.min_free)
    if snapshot_error:
        warnings.append("snapshot failed: " + snapshot_error)

    outputs += perf_outputs(plan.jobs, anchors, console, warnings)
    if sampler is not None:
        if sampler.error:
            warnings.append("the /proc sampler stopped: " + sampler.error)
        outputs.append(Output(sampler.path, "proc", None, [], []))
        console.info(
            f"proc     proc.jsonl ({fmt_bytes(os.path.getsize(sampler.path))}, {sampler.ticks} ticks)"
        )
    if dumper is not None:
        if dumper.error:
            warnings.append("the stack dumper stopped: " + dumper.error)
        if dumper.dumps == 0:
            why = "no thread of the targets could be read" if pids else "no thread was in state D"
            warnings.append(f"proc-stacks: nothing was recorded ({why})")
        else:
            outputs.append(Output(dumper.path, "proc-stacks", None, [], []))
            console.info(
                f"stacks   proc-stacks.txt ({fmt_bytes(os.path.getsize(dumper.path))}, "
                f"{dumper.dumps} dumps in {dumper.ticks} ticks)"
            )
    if metrics is not None:
        for problem in metrics.problems:
            warnings.append("--metrics-cmd: " + problem)
        outputs.append(
            Output(metrics.path, "app-metrics", None, [["sh", "-c", metrics.command]], metrics.problems)
        )
        console.info(f"metrics  app-metrics.jsonl ({metrics.records} records from {metrics.runs} runs)")
    snapshot_path = os.path.join(outdir, "snapshot.json")
    if os.path.exists(snapshot_path):
        outputs.append(Output(snapshot_path, "snapshot", None, [], []))

    write_commands(outdir, plan, args, started_wall)
    for warning in [w for job in plan.jobs for w in job.warnings] + warnings:
        console.warn(warning)
    if not args.server:
        console.info("done; upload later with:")
        program = program_name()
        clock_file = shlex.quote(os.path.join(outdir, "clock.json"))
        for out in outputs:
            clock_flag = f" --clock {clock_file}" if out.clock else ""
            console.info(
                f"  {program} upload {shlex.quote(out.path)} --server URL --incident ID --kind {out.kind} "
                f"--host {shlex.quote(host)}{clock_flag}"
            )
        return EXIT_OK
    return upload_outputs(args, console, host, pids, outdir, outputs, spool, perf)
