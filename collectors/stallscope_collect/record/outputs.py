"""What a record leaves: `commands.txt` beside its files, and its outputs spooled and uploaded."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from dataclasses import dataclass
from typing import Any

from stallscope_collect import COLLECTOR
from stallscope_collect.console import Console, program_name
from stallscope_collect.exit_status import EXIT_ERROR, EXIT_OK, EXIT_PENDING
from stallscope_collect.files import atomic_write, read_text
from stallscope_collect.formatting import describe, fmt_bytes, fmt_seconds, tail_lines
from stallscope_collect.perf.plan import PerfJob, Plan
from stallscope_collect.perf.tool import Perf
from stallscope_collect.record.perf_processes import scan_perf_log
from stallscope_collect.upload.meta import capture_meta
from stallscope_collect.upload.sender import send_all, upload_settings
from stallscope_collect.upload.spool import Spool, SpoolEntry


@dataclass
class Output:
    """One file of a record to upload, with what its upload says about it."""

    path: str
    kind: str
    clock: dict[str, Any] | None
    commands: list[list[str]]
    warnings: list[str]
    summary: str = ""
    """perf's own count of what it wrote (`1234 samples`), for messages."""


def write_commands(outdir: str, plan: Plan, args: argparse.Namespace, started: float) -> None:
    """`commands.txt`: every command the record ran (probes included) exactly as run, secrets and all."""
    lines = [
        f"# {COLLECTOR}, record started {time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime(started))} UTC",
        "# collector: " + shlex.join([program_name(), *sys.argv[1:]]),
    ]
    if plan.probe_cmds:
        lines.append("# probes (what this kernel and perf accept)")
        lines += [shlex.join(cmd) for cmd in plan.probe_cmds]
    for job in plan.jobs:
        notes = f" ({'; '.join(job.notes)})" if job.notes else ""
        lines.append(f"# {job.kind}{notes}")
        lines += [shlex.join(cmd) for cmd in job.commands]
    if args.metrics_cmd:
        lines.append(f"# app-metrics, every {fmt_seconds(args.metrics_interval)} s")
        lines.append(shlex.join(["sh", "-c", args.metrics_cmd]))
    atomic_write(os.path.join(outdir, "commands.txt"), ("\n".join(lines) + "\n").encode())


def perf_outputs(
    jobs: list[PerfJob], anchors: list[dict[str, int]], console: Console, warnings: list[str]
) -> list[Output]:
    """The text files perf's jobs left, with their clock; why a job left none goes to `warnings`."""
    outputs: list[Output] = []
    for job in jobs:
        record_warnings, summary = scan_perf_log(job.log_path)
        job.warnings += record_warnings
        if job.returncode not in (0, None) and not os.path.exists(job.text_path):
            warnings.append(
                f"{job.kind}: perf exited with {job.returncode}: {tail_lines(read_text(job.log_path))}"
            )
            continue
        if not os.path.exists(job.text_path) or os.path.getsize(job.text_path) == 0:
            warnings.append(f"{job.kind}: nothing was recorded ({summary or 'no events'})")
            continue
        clock = {"perf_clock": job.perf_clock, "anchors": anchors}
        outputs.append(
            Output(job.text_path, job.kind, clock, job.commands, job.warnings + job.notes, summary)
        )
        console.info(
            f"{job.kind:<8} {os.path.basename(job.text_path)} ({fmt_bytes(os.path.getsize(job.text_path))})"
            + (": " + summary if summary else "")
        )
    return outputs


def upload_outputs(
    args: argparse.Namespace,
    console: Console,
    host: str,
    pids: list[int],
    outdir: str,
    outputs: list[Output],
    spool: Spool,
    perf: Perf | None,
) -> int:
    """Spool and send a record's outputs, then what earlier runs left in the spool; the exit status."""
    if not outputs:
        console.warn("nothing to upload")
        return EXIT_ERROR
    stamp = os.path.basename(outdir.rstrip("/"))
    older = spool.entries()
    fresh: list[SpoolEntry] = []
    for out in outputs:
        name = os.path.basename(out.path)
        info = {
            "server": args.server,
            "incident": args.incident,
            "filename": f"{stamp}-{name}.gz" if not name.endswith(".gz") else f"{stamp}-{name}",
            "host": host,
            "kind": out.kind,
            "clock": out.clock,
            "meta": capture_meta(out.kind, out.commands, pids, perf, out.warnings),
        }
        try:
            fresh.append(spool.add(out.path, info, console))
        except OSError as exc:
            console.error(f"could not spool {name}: {describe(exc)} (the file stays in {outdir})")
    settings = upload_settings(args, console)
    _sent, left = send_all(spool, fresh, settings, console)
    if left == 0 and older:
        console.info(f"sending {len(older)} capture(s) left in the spool by earlier runs")
        _, left = send_all(spool, older, settings, console)
    remaining = len(spool.entries())
    if remaining:
        console.warn(
            f"{remaining} capture(s) wait in {spool.path}; "
            "run `stallscope-collect flush` when the server is back"
        )
        return EXIT_PENDING
    console.info("all captures uploaded")
    return EXIT_OK
