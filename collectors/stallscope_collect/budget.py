"""The disk budget: current rates turned into an estimate of what a record writes."""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from typing import Sequence

from stallscope_collect.files import read_proc, read_text
from stallscope_collect.procfs import (
    list_tids,
    parse_ctx_switches,
    parse_diskstats,
    parse_meminfo,
    parse_stat_faults,
)

# Estimated bytes on disk per recorded event, perf.data plus its `perf script` text.
BYTES_PER_EVENT = {"cpu": 2048, "offcpu": 1536, "faults": 1280, "syscalls": 512}
SYSCALL_EVENTS_PER_S_GUESS = 2000
# Off-CPU tracing costs about a microsecond of CPU per event with its stack (measured with
# bench_overhead.py); each context switch of a target thread is about four events (out, in,
# waking, wakeup). Above this share of a CPU it is left out unless asked for with --offcpu.
OFFCPU_EVENT_COST_S = 1e-6
OFFCPU_EVENTS_PER_SWITCH = 4
OFFCPU_DEFAULT_BUDGET = 0.03
SAMPLE_RECORD_BYTES = 110
STACK_DUMP_BYTES = 640
"""Estimated bytes per kernel stack dump: its header and about ten `[<0>] func+0x1a/0x60` lines."""
ALL_MODE_D_THREADS_GUESS = 20


@dataclass
class Rates:
    ncpu: int
    threads: int
    ctx_per_s: float
    faults_per_s: float
    disks: int
    meminfo_fields: int


def measure_rates(pids: Sequence[int], window: float = 0.25) -> Rates:
    """Context switches and page faults per second right now: system-wide, or summed over `pids`."""

    def counters() -> tuple[float, float]:
        if not pids:
            ctx = faults = 0.0
            for line in read_text("/proc/stat").splitlines():
                if line.startswith("ctxt "):
                    ctx = float(line.split()[1])
            for line in read_text("/proc/vmstat").splitlines():
                if line.startswith("pgfault "):
                    faults = float(line.split()[1])
            return ctx, faults
        ctx = faults = 0.0
        for pid in pids:
            for tid in list_tids(pid):
                try:
                    v, n = parse_ctx_switches(read_text(f"/proc/{pid}/task/{tid}/status"))
                except OSError:
                    continue
                ctx += v + n
            with contextlib.suppress(OSError, ValueError, IndexError):
                faults += parse_stat_faults(read_proc(f"/proc/{pid}/stat"))
        return ctx, faults

    try:
        c0, f0 = counters()
        time.sleep(window)
        c1, f1 = counters()
    except OSError:
        c0 = c1 = f0 = f1 = 0.0
    threads = sum(len(list_tids(p)) for p in pids)
    try:
        disks = len([d for d, c in parse_diskstats(read_text("/proc/diskstats")).items() if any(c)])
        meminfo = len(parse_meminfo(read_text("/proc/meminfo")))
    except OSError:
        disks, meminfo = 4, 60
    # Threads that exit between the readings take their counts with them: never below zero.
    ctx_rate = max(0.0, (c1 - c0) / window)
    fault_rate = max(0.0, (f1 - f0) / window)
    return Rates(os.cpu_count() or 1, threads, ctx_rate, fault_rate, disks, meminfo)


def estimate_bytes(
    modes: Sequence[str],
    rates: Rates,
    duration: float,
    cpu_hz: int,
    sample_hz: float,
    system_wide: bool,
    proc_sampler: bool,
    stacks_hz: float = 0.0,
) -> dict[str, int]:
    """Rough bytes on disk per output, from the current rates and generous sizes per event."""
    out: dict[str, int] = {}
    cpus = rates.ncpu  # CPU samples are taken on every CPU whenever perf may (see plan_perf_jobs)
    per_second = {
        "cpu": cpu_hz * cpus,
        # one switch out, one switch in and a wakeup or two per context switch
        "offcpu": rates.ctx_per_s * 4,
        "faults": rates.faults_per_s,
        "syscalls": SYSCALL_EVENTS_PER_S_GUESS,
    }
    for mode in modes:
        out[mode] = int(per_second[mode] * BYTES_PER_EVENT[mode] * duration * 1.5)
    if proc_sampler:
        threads = rates.threads * 3 if not system_wide else 50
        lines = 8 * (rates.ncpu + 1) + rates.meminfo_fields + 24 + 5 * rates.disks + threads
        out["proc"] = int(lines * SAMPLE_RECORD_BYTES * sample_hz * duration * 1.2)
    if stacks_hz > 0:
        threads = rates.threads if not system_wide else ALL_MODE_D_THREADS_GUESS
        out["proc-stacks"] = int(threads * STACK_DUMP_BYTES * stacks_hz * duration * 1.2)
    return out
