"""Every perf command line of a record, decided before anything starts."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from typing import Callable, Sequence

from stallscope_collect.formatting import fmt_seconds
from stallscope_collect.perf.filters import MAX_FILTER_CHARS, tid_filter
from stallscope_collect.perf.modes import MODE_LABELS
from stallscope_collect.perf.probe import PerfProber
from stallscope_collect.perf.tool import Perf, perf_prints_tod
from stallscope_collect.procfs import list_tids

# perf buffer sizes in pages per CPU (powers of two): small for 49 Hz sampling, larger for
# tracepoints that can fire tens of thousands of times a second.
MMAP_PAGES = {"cpu": 64, "offcpu": 256, "faults": 512, "syscalls": 1024}


SCRIPT_FIELDS = "+pid,+ip,+sym,+dso"
"""`perf script` fields beside its defaults: pid/tid headers (the default prints the tid only, so
thread views could not name a thread's process), and the stack fields spelled out, because perf
6.1 drops every callchain once any `-F +field` is given without them."""


@dataclass
class PerfJob:
    """One perf recording: the record command, the command that turns it into text, and its files."""

    kind: str
    text_path: str
    record_cmd: list[str]
    convert_cmd: list[str] | None
    perf_clock: str
    data_path: str | None = None
    setup_cmds: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    proc: subprocess.Popen[bytes] | None = None
    log_path: str = ""
    returncode: int | None = None

    @property
    def commands(self) -> list[list[str]]:
        return self.setup_cmds + [self.record_cmd] + ([self.convert_cmd] if self.convert_cmd else [])


@dataclass
class Plan:
    """What a record will run, decided before anything starts."""

    jobs: list[PerfJob]
    probe_cmds: list[list[str]]
    skipped: dict[str, str]
    warnings: list[str]


@dataclass
class RecordOptions:
    outdir: str
    pids: list[int]
    system_wide: bool
    duration: float
    modes: list[str]
    cpu_hz: int
    syscalls: list[str]
    max_data_bytes: int
    system_wide_ok: bool = False
    """May perf sample every CPU (root, CAP_PERFMON or perf_event_paranoid <= 0)?"""


def plan_perf_jobs(perf: Perf, prober: PerfProber, opts: RecordOptions, explicit: bool) -> Plan:
    """Decide every perf command line: events this kernel has, clocks it accepts, filters that fit."""
    jobs: list[PerfJob] = []
    skipped: dict[str, str] = {}
    warnings: list[str] = []
    target = ["-a"] if opts.system_wide else ["-p", ",".join(str(p) for p in opts.pids)]
    tail_size = ["--max-size", f"{max(16, opts.max_data_bytes >> 20)}M"]

    def path(name: str) -> str:
        return os.path.join(opts.outdir, name)

    def timed(data: str) -> list[str]:
        return ["-N", *tail_size, "-o", data, "--", "sleep", fmt_seconds(opts.duration)]

    for mode in opts.modes:
        notes: list[str] = []
        convert_filter: list[str] = []
        if mode == "cpu":
            events = ["-F", str(opts.cpu_hz), "-g", "-m", str(MMAP_PAGES["cpu"])]
            scope = target
            if not opts.system_wide and opts.system_wide_ok:
                # Per-process (-p) events are switched in and out with the target at every context
                # switch, which halves the speed of a switch-heavy process; sampling every CPU costs
                # a fixed 49 Hz per CPU. perf script keeps only the target's samples.
                scope = ["-a"]
                convert_filter = ["--pid", ",".join(str(p) for p in opts.pids)]
                notes = ["sampled on every CPU, the target's samples kept by perf script --pid"]
        elif mode == "offcpu":
            names = ["sched:sched_switch", "sched:sched_wakeup"]
            if prober.tracepoint_exists("sched:sched_waking"):
                names.append("sched:sched_waking")
            events, scope, notes = _offcpu_events(names, opts, target)
        elif mode == "faults":
            events = ["-e", "page-faults", "-c", "1", "-g", "-m", str(MMAP_PAGES["faults"])]
            scope = target
        else:
            job, reason = _plan_syscalls(perf, prober, opts, target, timed)
            if job is None:
                skipped[mode] = reason
            else:
                jobs.append(job)
            continue
        clock, message = prober.best_clock(events)
        if clock is None:
            skipped[mode] = f"perf refused {MODE_LABELS[mode]}: {message}"
            continue
        data = path(mode + ".perf.data")
        record = [perf.path, "record"] + (["-k", "CLOCK_MONOTONIC"] if clock == "monotonic" else [])
        record += events + scope + timed(data)
        text = path(mode + ".perf.txt")
        fields = SCRIPT_FIELDS
        if clock == "monotonic" and perf_prints_tod(perf.version):
            # perf's wall-clock column makes the text file align itself, wherever it is uploaded.
            fields += ",+tod"
        convert = [perf.path, "script", "-i", data, *convert_filter, "-F", fields]
        job = PerfJob(mode, text, record, convert, clock, data, notes=notes)
        if clock == "default":
            job.warnings.append("perf refused -k CLOCK_MONOTONIC here; times are on perf's default clock")
        jobs.append(job)
    if skipped and explicit:
        warnings.extend(f"{m}: {r}" for m, r in skipped.items())
    return Plan(jobs, prober.commands, skipped, warnings)


def _offcpu_events(
    names: Sequence[str], opts: RecordOptions, target: list[str]
) -> tuple[list[str], list[str], list[str]]:
    """Scheduler events, for a target process traced system-wide with a filter on its threads.

    Per-process (`-p`) recording only sees events raised in the target's own context: every
    switch-out, but never the switch back in (raised by whichever task leaves the CPU) nor most
    wakeups (raised by the waker), so off-CPU time could not be measured. System-wide with a
    tracepoint filter on the target's thread ids sees both ends; threads created after the start
    are not in the filter, and a filter that would not fit falls back to `-p`.
    """
    pages = ["-g", "-m", str(MMAP_PAGES["offcpu"])]
    if opts.system_wide:
        return [arg for name in names for arg in ("-e", name)] + pages, ["-a"], []
    tids = [tid for pid in opts.pids for tid in list_tids(pid)]
    switch = tid_filter(("prev_pid", "next_pid"), tids)
    wake = tid_filter(("pid",), tids)
    if tids and len(switch) <= MAX_FILTER_CHARS:
        events: list[str] = []
        for name in names:
            events += ["-e", name, "--filter", switch if name.endswith("switch") else wake]
        return (
            events + pages,
            ["-a"],
            [f"system-wide, filtered to the {len(tids)} threads present at start"],
        )
    note = f"per-process (-p): {len(tids)} threads do not fit a tracepoint filter; switch-ins are not seen"
    return [arg for name in names for arg in ("-e", name)] + pages, target, [note]


def _plan_syscalls(
    perf: Perf,
    prober: PerfProber,
    opts: RecordOptions,
    target: list[str],
    timed: Callable[[str], list[str]],
) -> tuple[PerfJob | None, str]:
    """`perf record` of raw_syscalls filtered like perf trace would, replayed by `perf trace -i`.

    Live `perf trace` cannot take -k CLOCK_MONOTONIC and leaves out comm/tid for single-threaded
    targets; recording first and replaying gives both, with one duration per call as before.
    """
    text = os.path.join(opts.outdir, "syscalls.trace.txt")
    id_filter, message = prober.syscall_id_filter(opts.syscalls)
    setup = prober.commands[-1:]
    if id_filter is not None:
        events = ["-R", "-c", "1", "-m", str(MMAP_PAGES["syscalls"])]
        for name in ("raw_syscalls:sys_enter", "raw_syscalls:sys_exit"):
            events += ["-e", name, "--filter", id_filter]
        clock, probe_message = prober.best_clock(events)
        if clock is not None:
            data = os.path.join(opts.outdir, "syscalls.perf.data")
            record = [perf.path, "record"] + (["-k", "CLOCK_MONOTONIC"] if clock == "monotonic" else [])
            record += events + target + timed(data)
            convert = [perf.path, "trace", "-i", data, "-T", "-o", text]
            job = PerfJob("syscalls", text, record, convert, clock, data, setup_cmds=list(setup))
            return job, ""
        message = probe_message
    elif message.startswith(("Invalid syscall", "Error")):
        return None, f"perf trace: {message}"
    # Fallback: live perf trace on perf's default clock.
    record = [perf.path, "trace", "-T", "-e", ",".join(opts.syscalls), "-m", str(MMAP_PAGES["syscalls"])]
    record += [*target, "-o", text, "--", "sleep", fmt_seconds(opts.duration)]
    job = PerfJob("syscalls", text, record, None, "default", None, setup_cmds=list(setup))
    job.warnings.append(f"recorded with live perf trace ({message}); times are on perf's default clock")
    return job, ""
