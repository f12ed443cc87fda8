"""The `record` command: its checks, the modes it can run, the disk budget and the plan."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import socket
import tempfile
import time
from typing import Sequence

from stallscope_collect.budget import (
    OFFCPU_DEFAULT_BUDGET,
    OFFCPU_EVENT_COST_S,
    OFFCPU_EVENTS_PER_SWITCH,
    estimate_bytes,
    measure_rates,
)
from stallscope_collect.console import Console
from stallscope_collect.exit_status import EXIT_ERROR, EXIT_OK, EXIT_USAGE
from stallscope_collect.files import data_home, default_spool, existing_parent, free_bytes
from stallscope_collect.formatting import fmt_bytes, fmt_seconds
from stallscope_collect.perf.modes import DEFAULT_PERF_MODES, MAX_CPU_HZ, PERF_MODES
from stallscope_collect.perf.permissions import perf_privileged, permission_problems, read_paranoid
from stallscope_collect.perf.plan import Plan, RecordOptions, plan_perf_jobs
from stallscope_collect.perf.probe import PerfProber
from stallscope_collect.perf.tool import Perf, find_perf
from stallscope_collect.record.run import run_record
from stallscope_collect.stacks import MAX_STACKS_HZ, stacks_unreadable
from stallscope_collect.upload.spool import Spool


def _target_pids(values: Sequence[str]) -> list[int]:
    pids: list[int] = []
    for value in values:
        for part in value.split(","):
            part = part.strip()
            if not part:
                continue
            if not part.isdigit():
                raise ValueError(f"not a pid: {part!r}")
            pids.append(int(part))
    return sorted(set(pids))


def _output_dir(args: argparse.Namespace, host: str) -> str:
    if args.output:
        return os.path.abspath(os.path.expanduser(str(args.output)))
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    safe_host = re.sub(r"[^\w.-]", "_", host)
    return os.path.join(data_home(), "captures", f"{stamp}-{safe_host}")


def cmd_record(args: argparse.Namespace, console: Console) -> int:
    host = args.host or socket.gethostname()
    try:
        pids = _target_pids(args.pid or [])
    except ValueError as exc:
        console.error(str(exc))
        return EXIT_USAGE
    if bool(pids) == bool(args.all):
        console.error("pick a target: --pid PID (one or more) or --all")
        return EXIT_USAGE
    for pid in pids:
        if not os.path.isdir(f"/proc/{pid}"):
            console.error(f"there is no process with pid {pid}")
            return EXIT_USAGE
    if args.duration <= 0 or args.duration > args.max_duration:
        console.error(
            f"--duration must be between 0 and --max-duration ({fmt_seconds(args.max_duration)} s); "
            "raise --max-duration for longer records"
        )
        return EXIT_USAGE
    if args.cpu_hz > MAX_CPU_HZ and not args.allow_high_frequency:
        console.error(
            f"--cpu-hz {args.cpu_hz} is above {MAX_CPU_HZ} Hz, which costs the traced process noticeably "
            "more; add --allow-high-frequency if that is intended"
        )
        return EXIT_USAGE
    if args.sample_hz <= 0 or args.sample_hz > 100:
        console.error("--sample-hz must be between 0 and 100")
        return EXIT_USAGE
    if args.server and args.incident is None:
        console.error("--server needs --incident ID")
        return EXIT_USAGE
    if args.proc_stacks and not 0 < args.stacks_hz <= MAX_STACKS_HZ:
        console.error(f"--stacks-hz must be above 0 and at most {MAX_STACKS_HZ:g}")
        return EXIT_USAGE
    if args.proc_stacks:
        unreadable = stacks_unreadable()
        if unreadable is not None:
            console.error(unreadable)
            return EXIT_ERROR

    explicit = [m for m in PERF_MODES if getattr(args, m)]
    modes: list[str] = [] if args.no_perf else (explicit or list(DEFAULT_PERF_MODES))
    plan_warnings: list[str] = []
    perf: Perf | None = None
    if modes:
        perf, why = find_perf()
        if perf is None:
            if explicit:
                console.error(why)
                return EXIT_ERROR
            plan_warnings.append(why + "; recording the /proc sampler and the snapshot only")
            modes = []
    paranoid = read_paranoid()
    privileged = perf_privileged()
    refused, perm_warnings = permission_problems(modes, args.all, paranoid, privileged)
    plan_warnings += perm_warnings
    if refused:
        for message in refused.values():
            if explicit:
                console.error(message)
            else:
                plan_warnings.append(message + "; skipping it")
        if explicit:
            return EXIT_ERROR
        modes = [m for m in modes if m not in refused]

    outdir = _output_dir(args, host)
    if os.path.isdir(outdir) and os.path.exists(os.path.join(outdir, "commands.txt")):
        console.error(f"{outdir} already holds a capture; pick a new --output directory")
        return EXIT_USAGE

    rates = measure_rates(pids)
    if "offcpu" in modes:
        cost = rates.ctx_per_s * OFFCPU_EVENTS_PER_SWITCH * OFFCPU_EVENT_COST_S
        if cost > OFFCPU_DEFAULT_BUDGET:
            who = "the host" if args.all else "the target"
            message = (
                f"{who} switches context {rates.ctx_per_s:,.0f} times a second; off-CPU tracing records "
                f"every switch with its stack, roughly {100 * cost:.0f}% of a CPU at this rate"
            )
            if "offcpu" in explicit:
                console.warn(message + "; recording it as asked")
            else:
                console.warn(message + ": leaving it out (ask for it with --offcpu)")
                modes.remove("offcpu")

    # Disk budget: estimate from the current rates, refuse rather than fill the disk.
    estimate = estimate_bytes(
        modes,
        rates,
        args.duration,
        args.cpu_hz,
        args.sample_hz,
        args.all,
        not args.no_proc,
        args.stacks_hz if args.proc_stacks else 0.0,
    )
    need = sum(estimate.values())
    spool = Spool(args.spool or default_spool())
    if args.server:
        need += need // 4  # compressed copies in the spool
    check_dir = existing_parent(outdir)
    free = free_bytes(check_dir)
    if free - need < args.min_free:
        detail = ", ".join(f"{k} ~{fmt_bytes(v)}" for k, v in estimate.items())
        console.error(
            f"not enough free disk for this record in {check_dir}: it may need ~{fmt_bytes(need)} "
            f"({detail or 'nothing'} at the current rates) and {fmt_bytes(args.min_free)} must stay free, "
            f"but only {fmt_bytes(free)} is free. Use --output on a larger disk, a shorter --duration, "
            "fewer modes, or a lower --min-free."
        )
        return EXIT_ERROR
    per_job_cap = max(16 << 20, (free - args.min_free) // (5 * max(1, len(modes))))

    plan = Plan([], [], {}, [])
    if perf is not None and modes:
        workdir = tempfile.mkdtemp(prefix="stallscope-probe-")
        try:
            prober = PerfProber(perf, workdir)
            opts = RecordOptions(
                outdir, pids, args.all, args.duration, modes, args.cpu_hz, args.syscalls or [], per_job_cap
            )
            opts.system_wide_ok = privileged or (paranoid is not None and paranoid <= 0)
            plan = plan_perf_jobs(perf, prober, opts, bool(explicit))
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        if explicit and plan.skipped:
            for message in plan.warnings:
                console.error(message)
            return EXIT_ERROR
        for mode, reason in plan.skipped.items():
            plan_warnings.append(f"{mode}: {reason}; skipping it")
    for warning in plan_warnings + plan.warnings:
        console.warn(warning)

    if args.dry_run:
        for job in plan.jobs:
            for cmd in job.commands:
                print(shlex.join(cmd))
        if args.metrics_cmd:
            print(shlex.join(["sh", "-c", args.metrics_cmd]))
        return EXIT_OK
    os.makedirs(outdir, exist_ok=True)
    return run_record(args, console, host, pids, outdir, perf, plan, spool)
