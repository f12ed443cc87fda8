"""One round, start to end: what it can record right now (record's off-CPU guard, the disk), its
plan, the recording, the snapshot when it changed, and its files kept or sent to the watch stream."""

from __future__ import annotations

import dataclasses
import os
import time
from datetime import datetime, timezone

from stallscope_collect.budget import measure_rates
from stallscope_collect.console import Console
from stallscope_collect.files import existing_parent, free_bytes, write_json
from stallscope_collect.formatting import describe, fmt_bytes
from stallscope_collect.perf.plan import Plan
from stallscope_collect.record.outputs import Output
from stallscope_collect.record.perf_processes import StopFlag
from stallscope_collect.upload.sender import UploadSettings
from stallscope_collect.watch.config import WatchConfig
from stallscope_collect.watch.cost import own_cpu_seconds
from stallscope_collect.watch.local import mark_spooled, new_round_dir, prune_rounds, round_stamp
from stallscope_collect.watch.planning import offcpu_too_costly, plan_round, round_bytes
from stallscope_collect.watch.recording import RoundFiles, record_round
from stallscope_collect.watch.report import RoundReport, delivery_text
from stallscope_collect.watch.snapshot_change import SnapshotTracker, section_hashes
from stallscope_collect.watch.stream import send_round, spool_round, waiting_in_stream


def run_round(
    cfg: WatchConfig,
    number: int,
    skipped: int,
    stop: StopFlag,
    console: Console,
    quiet: Console,
    tracker: SnapshotTracker,
) -> RoundReport:
    """One round: recorded, kept or sent to the watch stream, pruned; its report, whatever happened."""
    cpu_before = own_cpu_seconds()
    begun = time.monotonic()
    report = RoundReport(number, time.time(), skipped_slots=skipped)
    try:
        _record_and_deliver(cfg, report, stop, console, quiet, tracker)
    except OSError as exc:  # a full or read-only disk, say: the next round may fare better
        report.left_out.append(f"round failed: {describe(exc)}")
    report.own_cpu_s = own_cpu_seconds() - cpu_before
    report.elapsed_s = time.monotonic() - begun
    return report


def _record_and_deliver(
    cfg: WatchConfig,
    report: RoundReport,
    stop: StopFlag,
    console: Console,
    quiet: Console,
    tracker: SnapshotTracker,
) -> None:
    setup = cfg.setup
    rates = measure_rates([])
    windows = dict(cfg.windows)
    if "offcpu" in windows:
        reason = offcpu_too_costly(rates)
        if reason:
            del windows["offcpu"]
            report.left_out.append(f"offcpu left out: {reason}")
    estimate = round_bytes(list(windows), windows, rates, cfg.cpu_hz, setup.sample_hz, setup.cpu_seconds)
    need = sum(estimate.values())
    need += need // 4 if cfg.server else 0  # compressed copies in the spool
    free = free_bytes(existing_parent(cfg.root))
    if free - need < setup.min_free:
        report.left_out.append(
            f"round skipped: it may need ~{fmt_bytes(need)} in {cfg.root}, where {fmt_bytes(free)} is free "
            f"and {fmt_bytes(setup.min_free)} must stay free (--min-free)"
        )
        return
    per_job_cap = max(16 << 20, (free - setup.min_free) // (5 * max(1, len(windows))))
    outdir = new_round_dir(cfg.root, report.started_wall)
    plan = Plan([], [], {}, [])
    if setup.perf is not None and cfg.prober is not None and windows:
        plan = plan_round(setup.perf, cfg.prober, outdir, windows, cfg.cpu_hz, per_job_cap)
    plan.probe_cmds = cfg.probe_cmds if report.number == 1 else []
    for mode, reason in plan.skipped.items():
        report.left_out.append(f"{mode} left out: {reason}")
    files = record_round(setup, outdir, plan, stop, quiet, report.started_wall)
    report.cut_short = files.cut_short
    if files.aborted:
        report.aborted = True
        report.left_out.append(f"aborted; partial files are in {outdir}")
        return
    hashes = _add_snapshot(files, tracker, report, "sent" if cfg.server else "kept")
    report.outputs = files.outputs
    for warning in files.warnings:
        console.warn(f"round {report.number}: {warning}")
    if not cfg.server or cfg.settings is None:
        if hashes is not None:
            tracker.sent(hashes)
        report.delivery = f"kept in {outdir}"
        return
    # A stop signal ends any wait for a retry: what the console refused waits in the spool.
    settings = dataclasses.replace(cfg.settings, stop=stop.event)
    _send(cfg, cfg.server, settings, report, files, hashes, tracker, quiet)


def _send(
    cfg: WatchConfig,
    server: str,
    settings: UploadSettings,
    report: RoundReport,
    files: RoundFiles,
    hashes: dict[str, str] | None,
    tracker: SnapshotTracker,
    quiet: Console,
) -> None:
    """The round's files into the spool and on to the watch stream (earlier rounds first), then
    the rounds already sent pruned to --keep-local."""
    host = cfg.setup.host
    interval: float | int = int(cfg.interval_s) if cfg.interval_s.is_integer() else cfg.interval_s
    watch = {"round": report.number, "interval_s": interval, "started_at": _iso(report.started_wall)}
    older = cfg.spool.entries()
    fresh, failed = spool_round(
        cfg.spool,
        files.outputs,
        server,
        host,
        round_stamp(report.started_wall),
        cfg.setup.perf,
        watch,
        quiet,
    )
    if not failed:
        mark_spooled(files.outdir)
    if hashes is not None and any(e.info["kind"] == "snapshot" for e in fresh):
        tracker.sent(hashes)
    sent_now, sent_earlier = send_round(cfg.spool, older, fresh, settings, server, host, quiet)
    waiting = waiting_in_stream(cfg.spool, server, host)
    report.delivery = delivery_text(sent_now, len(fresh), sent_earlier, waiting, failed)
    prune_rounds(cfg.root, cfg.keep_local, cfg.spool)


def _add_snapshot(
    files: RoundFiles, tracker: SnapshotTracker, report: RoundReport, verb: str
) -> dict[str, str] | None:
    """Write the snapshot and add it to the outputs when it is the run's first or changed since the
    last one sent; its section hashes when it was added."""
    if files.snapshot is None:
        report.snapshot = "no snapshot"
        return None
    hashes = section_hashes(files.snapshot)
    changed = tracker.changed_sections(hashes)
    if changed is not None and not changed:
        report.snapshot = f"snapshot unchanged, not {verb}"
        return None
    path = os.path.join(files.outdir, "snapshot.json")
    write_json(path, files.snapshot)
    files.outputs.append(Output(path, "snapshot", None, [], []))
    report.snapshot = (
        "snapshot: first of this run" if changed is None else f"snapshot changed ({', '.join(changed)})"
    )
    return hashes


def _iso(wall: float) -> str:
    """UTC, to the millisecond, with a Z: `2025-06-01T12:05:00.123Z`."""
    stamp = datetime.fromtimestamp(wall, timezone.utc).isoformat(timespec="milliseconds")
    return stamp.replace("+00:00", "Z")
