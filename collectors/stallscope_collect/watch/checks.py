"""The watch flags checked before anything starts, each refusal saying what to change."""

from __future__ import annotations

import argparse

from stallscope_collect.formatting import fmt_seconds
from stallscope_collect.perf.modes import MAX_CPU_HZ

ROUND_RESERVE_S = 3.0
"""What a round needs beyond its windows: the switch rate measured (a quarter of a second), perf
started and stopped (`perf record -a -g -- sleep 0` takes a second on a 2-CPU VM), the text
conversion and the spooling. A round that still overruns skips the slots it missed."""

MAX_WINDOW_S = 600.0
"""The longest window, as `record`'s --max-duration: a watch round is meant to be short."""


def windows_problem(interval_s: float, cpu_s: float, offcpu_s: float) -> str | None:
    """Why the windows do not fit in the interval, or None. They run side by side, so the longest
    one plus ROUND_RESERVE_S must fit."""
    longest = max(cpu_s, offcpu_s)
    need = longest + ROUND_RESERVE_S
    if interval_s >= need:
        return None
    return (
        f"--interval {fmt_seconds(interval_s)} s is too short for the windows: the CPU and off-CPU windows "
        f"run side by side, so the longest ({fmt_seconds(longest)} s) plus {fmt_seconds(ROUND_RESERVE_S)} s "
        f"to stop perf, convert and spool needs an interval of at least {fmt_seconds(need)} s. Raise "
        "--interval, or shorten --cpu-seconds / --offcpu-seconds"
    )


def flag_problem(args: argparse.Namespace) -> str | None:
    """The first flag a watch cannot run with, as a message; None when all are usable."""
    if not 0 < args.cpu_seconds <= MAX_WINDOW_S:
        return f"--cpu-seconds must be above 0 and at most {fmt_seconds(MAX_WINDOW_S)}"
    if not 0 <= args.offcpu_seconds <= MAX_WINDOW_S:
        return f"--offcpu-seconds must be between 0 (no off-CPU window) and {fmt_seconds(MAX_WINDOW_S)}"
    if args.interval <= 0:
        return "--interval must be above 0"
    problem = windows_problem(args.interval, args.cpu_seconds, args.offcpu_seconds)
    if problem:
        return problem
    if args.cpu_hz < 1 or (args.cpu_hz > MAX_CPU_HZ and not args.allow_high_frequency):
        return (
            f"--cpu-hz must be between 1 and {MAX_CPU_HZ} (higher rates cost every CPU noticeably more; "
            "add --allow-high-frequency if that is intended)"
        )
    if not 0 < args.sample_hz <= 100:
        return "--sample-hz must be above 0 and at most 100"
    if args.rounds is not None and args.rounds < 1:
        return "--rounds must be at least 1 (leave it out to run until stopped)"
    if args.keep_local < 0:
        return "--keep-local must be 0 or more"
    return None
