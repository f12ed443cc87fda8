"""`stallscope threads FILE`: where each thread's time went, from a local capture, no server needed."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from stallscope.kit.units import duration_text

HELP = "per-thread time in each scheduler state, latency percentiles, wakers, blocking stacks, locks"
DESCRIPTION = (
    "Per thread: time and share Running, Runnable (woken, waiting for a CPU), Sleeping (S),\n"
    "Uninterruptible (D), other states and unknown (no event covers it), from a scheduler capture\n"
    "(perf script of sched:sched_switch + sched_wakeup/sched_waking, with -g for stacks) or from\n"
    "the collector's /proc sampler file. Scheduler captures also give scheduler-latency percentiles,\n"
    "who woke each thread, the heaviest blocking stacks per state, and futex waits by lock (by\n"
    "address with -e syscalls:sys_enter_futex, or from perf trace; else by blocking stack). A wait no\n"
    "event closed ends where the thread was next seen running, and counts as inferred.\n\n"
    "examples:\n"
    "  perf record -e sched:sched_switch -e sched:sched_wakeup -e sched:sched_waking \\\n"
    "      -e syscalls:sys_enter_futex -a -g -- sleep 10\n"
    "  perf script -F +pid,+ip,+sym,+symoff,+dso > sched.txt\n"
    "  stallscope threads sched.txt --comm '^postgres' --top 20\n"
    "  stallscope threads proc.jsonl --json | jq '.threads[0]'"
)
STACK_FRAMES_SHOWN = 4
LOCKS_SHOWN = 10
WAITERS_SHOWN = 5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, metavar="FILE", help="scheduler capture or /proc sampler file")
    parser.add_argument("--comm", metavar="REGEX", help="keep threads whose name matches (Python regex)")
    parser.add_argument("--top", type=int, default=30, metavar="N", help="threads shown (default 30)")
    parser.add_argument("--json", action="store_true", help="machine-readable output, every thread")


def run(args: argparse.Namespace) -> int:
    from stallscope.analysis.thread_account import ThreadAccount
    from stallscope.commands.local_file import open_local_capture
    from stallscope.ingest.model import ParseError

    try:
        matcher = re.compile(args.comm) if args.comm else None
    except re.error as exc:
        print(f"stallscope threads: --comm is not a valid regular expression: {exc}", file=sys.stderr)
        return 2
    try:
        with open_local_capture(args.file) as capture:
            account = ThreadAccount()
            for record in capture.records():
                account.add(record)
            result = account.result(matcher)
            report = capture.report
    except ParseError as exc:
        print(f"stallscope threads: {args.file}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"stallscope threads: {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    from stallscope.analysis.thread_states import busiest_first

    ordered = busiest_first(result.threads)
    if args.json:
        print(
            json.dumps(
                _as_json(str(args.file), result.source, ordered, result.locks, report.warnings), indent=2
            )
        )
    else:
        _print_text(str(args.file), result.source, ordered[: max(1, args.top)], len(ordered))
        _print_locks(result.locks)
        for warning in report.warnings[:5]:
            print(f"warning: {warning}", file=sys.stderr)
    if result.source == "none" and not result.locks:
        print(
            f"stallscope threads: {args.file}: no scheduler intervals, /proc sampler thread states or "
            "futex calls here",
            file=sys.stderr,
        )
        return 1
    return 0


def _seconds(ns: int | None) -> str:
    return "-" if ns is None else duration_text(ns)


def _frames(stack: Any) -> list[str]:
    return [getattr(frame, "name", str(frame)) for frame in stack] if isinstance(stack, tuple) else []


def _who(t: Any) -> str:
    return f"{t.comm} {t.pid if t.pid is not None else '?'}/{t.tid}"


def _print_text(name: str, source: str, threads: list[Any], total: int) -> None:
    from stallscope.analysis.thread_states import STATES

    labels = ("run", "runnable", "sleep S", "wait D", "other", "unknown")
    print(f"file:    {name}")
    print(
        "source:  "
        + (
            "scheduler intervals (exact; waits no event closed end where the thread was next seen running)"
            if source == "sched"
            else "/proc sampler ticks (R = running or runnable)"
            if source == "proc-sampler"
            else "none"
        )
    )
    print(f"threads: {total} ({len(threads)} shown, busiest first)\n")
    if not threads:
        return
    header = f"{'thread':<28} {'wall':>9} " + " ".join(f"{label:>9}" for label in labels)
    if source == "sched":
        header += f" {'inferred':>9} {'lat p50':>9} {'lat p99':>9} {'lat max':>9}"
    print(header)
    for t in threads:
        who = f"{t.comm[:18]} {t.pid if t.pid is not None else '?'}/{t.tid}"
        row = f"{who:<28} {_seconds(t.wall_ns):>9} " + " ".join(f"{t.share(s):>9.1%}" for s in STATES)
        if source == "sched":
            lat = t.latency
            inferred = sum(t.inferred_ns.values()) / t.wall_ns if t.wall_ns else 0.0
            latencies = (_seconds(ns) for ns in (lat.p50_ns, lat.p99_ns, lat.max_ns))
            row += f" {inferred:>9.1%} " + " ".join(f"{text:>9}" for text in latencies)
        print(row)
    if source != "sched":
        return
    print("\ntop blocking stacks per state (leaf first: waits, total, longest), and who woke the thread")
    for t in threads:
        lines = []
        for state, tops in t.top_stacks.items():
            for i, top in enumerate(tops):
                frames = list(reversed(_frames(top.stack)))[:STACK_FRAMES_SHOWN]
                label = state if i == 0 else ""
                lines.append(
                    f"  {label:<16} {top.share:>6.1%} x{top.count:<6} {_seconds(top.ns):>9} "
                    f"max {_seconds(top.longest_ns):>9}  {' <- '.join(frames)}"
                )
        if t.wakers:
            woken = ", ".join(f"{comm}/{tid} x{n}" for tid, comm, n in t.wakers)
            lines.append(f"  {'woken by':<16} {woken}")
        if lines:
            print(_who(t))
            print("\n".join(lines))


def _lock_name(lock: Any) -> str:
    kind, key = lock.lock
    if kind == "address":
        return f"futex {key}" + (f" in pid {lock.pid}" if lock.pid is not None else "")
    from stallscope.analysis.futex_waits import caller_frames

    frames = _frames(key)
    caller = caller_frames(frames) or frames
    return "call site " + " <- ".join(list(reversed(caller))[:STACK_FRAMES_SHOWN])


def _print_locks(locks: list[Any]) -> None:
    if not locks:
        return
    print("\nfutex waits by lock (waits, total, longest; then its waiters)")
    for lock in locks[:LOCKS_SHOWN]:
        print(f"{_lock_name(lock)}: x{lock.count} {_seconds(lock.total_ns)} max {_seconds(lock.longest_ns)}")
        for w in lock.waiters[:WAITERS_SHOWN]:
            who = f"{w.comm} {w.pid if w.pid is not None else '?'}/{w.tid}"
            print(f"  {who:<28} x{w.count:<6} {_seconds(w.total_ns):>9} max {_seconds(w.longest_ns):>9}")


def _as_json(
    name: str, source: str, threads: list[Any], locks: list[Any], warnings: list[Any]
) -> dict[str, Any]:
    from stallscope.analysis.futex_waits import caller_frames

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
                "inferred_ns": t.inferred_ns,
                "other_states_ns": t.other_states,
                "intervals": t.intervals,
                "inferred_intervals": t.inferred_intervals,
                "latency": {
                    "count": t.latency.count,
                    "p50_ns": t.latency.p50_ns,
                    "p90_ns": t.latency.p90_ns,
                    "p99_ns": t.latency.p99_ns,
                    "max_ns": t.latency.max_ns,
                },
                "wakers": [{"tid": tid, "comm": comm, "wakeups": n} for tid, comm, n in t.wakers],
                "top_stacks": {
                    state: [
                        {
                            "ns": top.ns,
                            "share": top.share,
                            "count": top.count,
                            "longest_ns": top.longest_ns,
                            "frames": _frames(top.stack),
                        }
                        for top in tops
                    ]
                    for state, tops in t.top_stacks.items()
                },
            }
            for t in threads
        ],
        "locks": [
            {
                "pid": lock.pid,
                "kind": lock.lock[0],
                "address": lock.lock[1] if lock.lock[0] == "address" else None,
                "frames": _frames(lock.lock[1]) if lock.lock[0] == "site" else [],
                "caller": caller_frames(_frames(lock.lock[1])) if lock.lock[0] == "site" else [],
                "waits": lock.count,
                "total_ns": lock.total_ns,
                "longest_ns": lock.longest_ns,
                "inferred_ns": lock.inferred_ns,
                "waiter_count": lock.waiter_count,
                "waiters": [
                    {
                        "pid": w.pid,
                        "tid": w.tid,
                        "comm": w.comm,
                        "waits": w.count,
                        "total_ns": w.total_ns,
                        "longest_ns": w.longest_ns,
                        "inferred_ns": w.inferred_ns,
                    }
                    for w in lock.waiters
                ],
            }
            for lock in locks
        ],
        "warnings": [{"line": w.line, "message": w.message} for w in warnings],
    }
