"""A round's perf jobs, planned by record's own planner: a CPU window and an off-CPU window, each
with its own length, system-wide."""

from __future__ import annotations

from typing import Sequence

from stallscope_collect.budget import (
    OFFCPU_DEFAULT_BUDGET,
    OFFCPU_EVENT_COST_S,
    OFFCPU_EVENTS_PER_SWITCH,
    Rates,
    estimate_bytes,
)
from stallscope_collect.perf.plan import Plan, RecordOptions, plan_perf_jobs
from stallscope_collect.perf.probe import PerfProber
from stallscope_collect.perf.tool import Perf


def plan_round(
    perf: Perf,
    prober: PerfProber,
    outdir: str,
    windows: dict[str, float],
    cpu_hz: int,
    max_data_bytes: int,
) -> Plan:
    """record's `--all` plan for each mode in `windows` (mode -> seconds): the same perf commands
    and conversions, in `outdir`."""
    jobs = []
    skipped: dict[str, str] = {}
    warnings: list[str] = []
    for mode, seconds in windows.items():
        opts = RecordOptions(outdir, [], True, seconds, [mode], cpu_hz, [], max_data_bytes)
        opts.system_wide_ok = True
        plan = plan_perf_jobs(perf, prober, opts, explicit=False)
        jobs += plan.jobs
        skipped.update(plan.skipped)
        warnings += plan.warnings
    return Plan(jobs, list(prober.commands), skipped, warnings)


def offcpu_too_costly(rates: Rates) -> str | None:
    """record's guard for its default off-CPU mode: why the host switches context too often for
    it right now, or None."""
    cost = rates.ctx_per_s * OFFCPU_EVENTS_PER_SWITCH * OFFCPU_EVENT_COST_S
    if cost <= OFFCPU_DEFAULT_BUDGET:
        return None
    return (
        f"the host switches context {rates.ctx_per_s:,.0f} times a second; off-CPU tracing records every "
        f"switch with its stack, roughly {100 * cost:.0f}% of a CPU at this rate"
    )


def round_bytes(
    modes: Sequence[str],
    windows: dict[str, float],
    rates: Rates,
    cpu_hz: int,
    sample_hz: float,
    proc_s: float,
) -> dict[str, int]:
    """record's disk estimate for one round: each mode over its own window, the sampler over `proc_s`."""
    out: dict[str, int] = {}
    for mode in modes:
        out.update(estimate_bytes([mode], rates, windows[mode], cpu_hz, sample_hz, True, False))
    out.update(estimate_bytes([], rates, proc_s, cpu_hz, sample_hz, True, True))
    return out
