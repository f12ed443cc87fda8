"""`stallscope threads FILE`: where each thread's time went, from a local capture, no server needed."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HELP = "per-thread time in each scheduler state, latency percentiles, wakers, blocking stacks"
DESCRIPTION = (
    "Per thread: time and share Running, Runnable (woken, waiting for a CPU), Sleeping (S),\n"
    "Uninterruptible (D), other states and unknown (no event covers it), from a scheduler capture\n"
    "(perf script of sched:sched_switch + sched_wakeup/sched_waking, with -g for stacks) or from\n"
    "the collector's /proc sampler file. Scheduler captures also give scheduler-latency percentiles,\n"
    "who woke each thread, and the stack that blocked it longest in each state.\n\n"
    "examples:\n"
    "  perf record -e sched:sched_switch -e sched:sched_wakeup -e sched:sched_waking -a -g -- sleep 10\n"
    "  perf script > sched.txt\n"
    "  stallscope threads sched.txt --comm '^postgres' --top 20\n"
    "  stallscope threads proc.jsonl --json | jq '.threads[0]'"
)
STACK_FRAMES_SHOWN = 4


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, metavar="FILE", help="scheduler capture or /proc sampler file")
    parser.add_argument("--comm", metavar="REGEX", help="keep threads whose name matches (Python regex)")
    parser.add_argument("--top", type=int, default=30, metavar="N", help="threads shown (default 30)")
    parser.add_argument("--json", action="store_true", help="machine-readable output, every thread")


def run(args: argparse.Namespace) -> int:
    from stallscope.commands.local_file import open_local_capture
    from stallscope.ingest.model import ParseError

    try:
        matcher = re.compile(args.comm) if args.comm else None
    except re.error as exc:
        print(f"stallscope threads: --comm is not a valid regular expression: {exc}", file=sys.stderr)
        return 2
    try:
        with open_local_capture(args.file) as capture:
            source, threads = _account(capture.records())
            report = capture.report
    except ParseError as exc:
        print(f"stallscope threads: {args.file}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"stallscope threads: {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    if matcher is not None:
        threads = [t for t in threads if matcher.search(t.comm)]
    from stallscope.analysis.thread_states import busiest_first

    ordered = busiest_first(threads)
    if args.json:
        print(json.dumps(_as_json(str(args.file), source, ordered, report.warnings), indent=2))
    else:
        _print_text(str(args.file), source, ordered[: max(1, args.top)], len(ordered))
        for warning in report.warnings[:5]:
            print(f"warning: line {warning.line}: {warning.message}", file=sys.stderr)
    if source == "none":
        print(
            f"stallscope threads: {args.file}: no scheduler intervals or /proc sampler thread states here",
            file=sys.stderr,
        )
        return 1
    return 0


def _account(records: Iterable[Any]) -> tuple[str, list[Any]]:
    """Feed scheduler intervals (preferred) or sampler ticks through the server's accounting."""
    from stallscope.analysis.thread_states import SchedAccumulator, TickAccumulator
    from stallscope.ingest.model import Document, EventKind, MetricPoint, MetricRow, TimedEvent, metric_points

    sched = SchedAccumulator()
    ticks = TickAccumulator(50_000_000)
    saw_sched = saw_ticks = False
    for record in records:
        if isinstance(record, TimedEvent) and record.start_ns is not None:
            key = (record.pid, record.tid or 0, record.comm)
            if record.kind is EventKind.ON_CPU:
                saw_sched = True
                sched.on_cpu(key, record.start_ns, record.duration_ns)
            elif record.kind is EventKind.OFF_CPU:
                saw_sched = True
                delay = record.attrs.get("wakeup_delay_ns")
                waker_comm = record.attrs.get("waker_comm")
                waker = (record.waker_tid, str(waker_comm or "?")) if record.waker_tid is not None else None
                sched.off_cpu(
                    key,
                    record.start_ns,
                    record.duration_ns,
                    record.state,
                    delay if isinstance(delay, int) else None,
                    waker,
                    record.stack or None,
                )
        elif isinstance(record, MetricPoint | MetricRow):
            for point in metric_points(record):
                if point.name != "thread.state":
                    continue
                labels = dict(point.labels)
                if labels.get("tid", "").isdigit():
                    saw_ticks = True
                    pid = int(labels["pid"]) if labels.get("pid", "").isdigit() else None
                    ticks.add(
                        (pid, int(labels["tid"]), labels.get("comm", "?")),
                        point.time_ns,
                        labels.get("state", "?"),
                    )
        elif isinstance(record, Document) and record.kind == "proc-sampler-header":
            interval_ms = record.content.get("interval_ms")
            if isinstance(interval_ms, int | float) and interval_ms > 0:
                ticks.interval_ns = int(interval_ms * 1_000_000)
    if saw_sched:
        return "sched", sched.result()
    if saw_ticks:
        return "proc-sampler", ticks.result()
    return "none", []


def _seconds(ns: int | None) -> str:
    if ns is None:
        return "-"
    if ns >= 1_000_000_000:
        return f"{ns / 1e9:.3f}s"
    if ns >= 1_000_000:
        return f"{ns / 1e6:.2f}ms"
    return f"{ns / 1e3:.1f}us"


def _frames(stack: Any) -> list[str]:
    return [getattr(frame, "name", str(frame)) for frame in stack] if isinstance(stack, tuple) else []


def _print_text(name: str, source: str, threads: list[Any], total: int) -> None:
    from stallscope.analysis.thread_states import (
        OTHER,
        RUNNABLE,
        RUNNING,
        SLEEPING,
        UNINTERRUPTIBLE,
        UNKNOWN,
    )

    columns = (RUNNING, RUNNABLE, SLEEPING, UNINTERRUPTIBLE, OTHER, UNKNOWN)
    labels = ("run", "runnable", "sleep S", "wait D", "other", "unknown")
    print(f"file:    {name}")
    print(
        "source:  "
        + (
            "scheduler intervals (exact)"
            if source == "sched"
            else "/proc sampler ticks (R = running or runnable)"
            if source == "proc-sampler"
            else "none"
        )
    )
    print(f"threads: {total} ({len(threads)} shown, busiest first)\n")
    header = f"{'thread':<28} {'wall':>9} " + " ".join(f"{label:>9}" for label in labels)
    if source == "sched":
        header += f" {'lat p50':>9} {'lat p99':>9} {'lat max':>9}"
    print(header)
    for t in threads:
        who = f"{t.comm[:18]} {t.pid if t.pid is not None else '?'}/{t.tid}"
        row = f"{who:<28} {_seconds(t.wall_ns):>9} " + " ".join(f"{t.share(s):>9.1%}" for s in columns)
        if source == "sched":
            lat = t.latency
            row += f" {_seconds(lat.p50_ns):>9} {_seconds(lat.p99_ns):>9} {_seconds(lat.max_ns):>9}"
        print(row)
    if source != "sched":
        return
    print("\ntop blocking stack per state (leaf first), and who woke the thread")
    for t in threads:
        lines = []
        for state, top in t.top_stacks.items():
            frames = list(reversed(_frames(top.stack)))[:STACK_FRAMES_SHOWN]
            lines.append(f"  {state:<16} {top.share:>6.1%} of it  {' <- '.join(frames)}")
        if t.wakers:
            woken = ", ".join(f"{comm}/{tid} x{n}" for tid, comm, n in t.wakers)
            lines.append(f"  {'woken by':<16} {woken}")
        if lines:
            print(f"{t.comm} {t.pid if t.pid is not None else '?'}/{t.tid}")
            print("\n".join(lines))


def _as_json(name: str, source: str, threads: list[Any], warnings: list[Any]) -> dict[str, Any]:
    return {
        "file": name,
        "source": source,
        "threads": [
            {
                "pid": t.pid,
                "tid": t.tid,
                "comm": t.comm,
                "wall_ns": t.wall_ns,
                "states_ns": t.state_ns,
                "shares": {state: t.share(state) for state in t.state_ns},
                "other_states_ns": t.other_states,
                "intervals": t.intervals,
                "latency": {
                    "count": t.latency.count,
                    "p50_ns": t.latency.p50_ns,
                    "p90_ns": t.latency.p90_ns,
                    "p99_ns": t.latency.p99_ns,
                    "max_ns": t.latency.max_ns,
                },
                "wakers": [{"tid": tid, "comm": comm, "wakeups": n} for tid, comm, n in t.wakers],
                "top_stacks": {
                    state: {"ns": top.ns, "share": top.share, "frames": _frames(top.stack)}
                    for state, top in t.top_stacks.items()
                },
            }
            for t in threads
        ],
        "warnings": [{"line": w.line, "message": w.message} for w in warnings],
    }
