"""The `watch` command: its flags checked, what perf may record here decided once (permissions,
probes), then the rounds."""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import tempfile

from stallscope_collect.console import Console
from stallscope_collect.exit_status import EXIT_ERROR, EXIT_USAGE
from stallscope_collect.files import default_spool
from stallscope_collect.formatting import describe
from stallscope_collect.perf.permissions import perf_privileged, permission_problems, read_paranoid
from stallscope_collect.perf.tool import find_perf
from stallscope_collect.upload.sender import upload_settings
from stallscope_collect.upload.spool import Spool
from stallscope_collect.watch.checks import flag_problem
from stallscope_collect.watch.config import RoundSetup, WatchConfig
from stallscope_collect.watch.local import output_root
from stallscope_collect.watch.loop import run_watch
from stallscope_collect.watch.planning import plan_round
from stallscope_collect.watch.prober import CachedProber
from stallscope_collect.watch.report import describe_watch


def cmd_watch(args: argparse.Namespace, console: Console) -> int:
    problem = flag_problem(args)
    if problem:
        console.error(problem)
        return EXIT_USAGE
    host = args.host or socket.gethostname()
    settings = None
    if args.server:
        # Checked now rather than at the first upload: a service without its token should fail
        # where its status shows it, not fill the spool for hours.
        settings = upload_settings(args, console)
        if not settings.token:
            console.error("no upload token: set STALLSCOPE_TOKEN or pass --token-file")
            return EXIT_USAGE
    windows = {"cpu": float(args.cpu_seconds)}
    if args.offcpu_seconds > 0:
        windows["offcpu"] = float(args.offcpu_seconds)
    perf, why = find_perf()
    if perf is None:
        console.warn(why + "; watching with the /proc sampler and the snapshot only")
        windows = {}
    refused, permission_warnings = permission_problems(
        list(windows), True, read_paranoid(), perf_privileged()
    )
    for warning in permission_warnings:
        console.warn(warning)
    for mode, message in refused.items():
        console.warn(message + "; skipping it")
        del windows[mode]

    root = output_root(args.output, host)
    try:
        os.makedirs(root, exist_ok=True)
    except OSError as exc:
        console.error(f"cannot create the output directory: {describe(exc)}")
        return EXIT_ERROR
    spool = Spool(args.spool or default_spool())
    if args.server:
        spool.clean()
    workdir = tempfile.mkdtemp(prefix="stallscope-probe-")
    try:
        prober = CachedProber(perf, workdir) if perf is not None else None
        if perf is not None and prober is not None and windows:
            # This plan runs the probes; each round's plan reuses their answers. What perf refuses
            # is said once, here, rather than in every round's line.
            plan = plan_round(perf, prober, workdir, windows, args.cpu_hz, 16 << 20)
            for mode, reason in plan.skipped.items():
                console.warn(f"{mode}: {reason}; skipping it")
                del windows[mode]
        setup = RoundSetup(host, perf, float(args.cpu_seconds), args.sample_hz, args.min_free)
        cfg = WatchConfig(
            setup=setup,
            root=root,
            interval_s=float(args.interval),
            windows=windows,
            cpu_hz=args.cpu_hz,
            rounds=args.rounds,
            keep_local=args.keep_local,
            spool=spool,
            server=args.server,
            settings=settings,
            prober=prober,
            probe_cmds=list(prober.commands) if prober is not None else [],
        )
        console.info(describe_watch(cfg))
        return run_watch(cfg, console)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
