#!/usr/bin/env python3
"""What `stallscope-collect record` costs the process it traces: work done with and without it.

A small C program does fixed units of work in N threads and reports, twice a second, its running
total and the CPU time it has used (CLOCK_PROCESS_CPUTIME_ID). Each round runs it once alone and
once with the collector attached at its defaults (`record --pid PID`: CPU stacks at 49 Hz,
off-CPU scheduler events, the 20 Hz /proc sampler, the snapshot), and compares, inside the
window where perf is recording:

- work per CPU-second of the workload: the direct cost (sampling interrupts, stack walks and
  tracepoint handlers run in the traced process's own time); robust to other load on the host;
- the collector's own CPU (its Python process and perf children), as a share of one CPU: what it
  takes from everything else;
- plain work per second, which also moves with whatever else the host is running.

Baseline and traced runs alternate so drift on a shared machine hits both.

Scenarios: CPU-bound on every CPU (the collector competes for CPU too), CPU-bound on one thread
(a CPU left idle), and a context-switch storm (threads bouncing a byte through pipes): at its
defaults the collector leaves off-CPU tracing out at such switch rates, and `ctx-storm-offcpu`
shows what forcing it with --offcpu costs, since every switch is then an event with a stack.

Needs root (or perf_event_paranoid -1), perf and a C compiler. Prints figures; asserts nothing.
Usage: python3 collectors/bench_overhead.py [--seconds 10] [--rounds 3] [--scenario NAME ...]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import build_zipapp

WORKLOAD_C = r"""
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile int stop;
static unsigned long counts[64 * 8];

__attribute__((noinline)) static unsigned long leaf(unsigned long x) { return (x * 2654435761u) ^ (x >> 7); }
__attribute__((noinline)) static unsigned long mid(unsigned long x) {
    for (int i = 0; i < 256; i++) x = leaf(x + i);
    return x;
}

static void *spin(void *arg) {
    long id = (long)arg;
    unsigned long x = id, n = 0;
    while (!stop) {
        x = mid(x);
        __atomic_store_n(&counts[id * 8], ++n, __ATOMIC_RELAXED);
    }
    return (void *)x;
}

static int pipes[64][2][2];

static void *bounce(void *arg) {
    long id = (long)arg, pair = id / 2, side = id % 2;
    int in = pipes[pair][side][0], out = pipes[pair][!side][1];
    unsigned long n = 0;
    char c = 'x';
    if (side == 0 && write(out, &c, 1) != 1) return NULL;
    while (!stop) {
        if (read(in, &c, 1) != 1) break;
        if (write(out, &c, 1) != 1) break;
        __atomic_store_n(&counts[id * 8], ++n, __ATOMIC_RELAXED);
    }
    return NULL;
}

static double clock_s(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double now(void) { return clock_s(CLOCK_MONOTONIC); }

int main(int argc, char **argv) {
    const char *mode = argv[1];
    int threads = atoi(argv[2]);
    double seconds = atof(argv[3]);
    pthread_t tids[64];
    int pingpong = strcmp(mode, "pingpong") == 0;
    if (pingpong)
        for (int p = 0; p < threads / 2; p++)
            if (pipe(pipes[p][0]) || pipe(pipes[p][1])) return 1;
    for (long i = 0; i < threads; i++) pthread_create(&tids[i], NULL, pingpong ? bounce : spin, (void *)i);
    double start = now();
    while (now() - start < seconds) {
        usleep(500000);
        unsigned long total = 0;
        for (int i = 0; i < threads; i++) total += __atomic_load_n(&counts[i * 8], __ATOMIC_RELAXED);
        printf("%.6f %lu %.6f\n", now(), total, clock_s(CLOCK_PROCESS_CPUTIME_ID));
        fflush(stdout);
    }
    stop = 1;
    _exit(0);
}
"""


@dataclass
class Scenario:
    mode: str
    threads: int
    label: str
    flags: list[str] = field(default_factory=list)
    max_seconds: float | None = None
    cpus: set[int] | None = None
    """Pin the workload: two ping-pong threads on one CPU cost the same per round trip every run,
    while spread over two CPUs their cost swings with where the scheduler puts them."""


SCENARIOS = {
    "cpu-all": Scenario("spin", os.cpu_count() or 1, "CPU-bound, one thread per CPU"),
    "cpu-one": Scenario("spin", 1, "CPU-bound, one thread"),
    # At its defaults the collector leaves off-CPU tracing out at this switch rate (and says so)...
    "ctx-storm": Scenario("pingpong", 2, "pipe ping-pong on one CPU", cpus={0}),
    # ...and this is what it costs when asked for anyway (short: the data grows by ~100 MB/s).
    "ctx-storm-offcpu": Scenario(
        "pingpong", 2, "pipe ping-pong on one CPU, --cpu --offcpu forced", ["--cpu", "--offcpu"], 3.0, {0}
    ),
}


def build_workload(directory: Path) -> Path:
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        sys.exit("a C compiler (cc, gcc or clang) is needed to build the workload")
    source = directory / "workload.c"
    source.write_text(WORKLOAD_C)
    binary = directory / "workload"
    subprocess.run(
        [compiler, "-O2", "-fno-omit-frame-pointer", "-pthread", "-o", str(binary), str(source)], check=True
    )
    return binary


class Run:
    """The workload's (time, total work) readings, collected as it prints them."""

    def __init__(self, binary: Path, scenario: Scenario, seconds: float) -> None:
        cpus = scenario.cpus
        self.proc = subprocess.Popen(
            [str(binary), scenario.mode, str(scenario.threads), str(seconds)],
            stdout=subprocess.PIPE,
            text=True,
            preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None,
        )
        self.points: list[tuple[float, int, float]] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            t, total, cpu = line.split()
            self.points.append((float(t), int(total), float(cpu)))

    def wait(self) -> None:
        self.proc.wait()
        self.reader.join()

    def rates(self, start: float, end: float) -> Rates:
        """Work per second and per CPU-second between the first and last readings in [start, end]."""
        inside = [p for p in self.points if start <= p[0] <= end]
        if len(inside) < 2:
            raise RuntimeError(f"too few readings in the window ({len(inside)})")
        (t0, w0, c0), (t1, w1, c1) = inside[0], inside[-1]
        return Rates((w1 - w0) / (t1 - t0), (w1 - w0) / (c1 - c0))


@dataclass
class Rates:
    per_second: float
    per_cpu_second: float
    collector_cpu: float = 0.0
    """CPU-seconds the collector and its children used per second of the window."""


def tree_cpu_seconds(pid: int) -> float:
    """utime + stime of a process, its threads' children and theirs, recursively."""
    ticks = 0
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
            for task in os.listdir(f"/proc/{current}/task"):
                stack += [int(c) for c in Path(f"/proc/{current}/task/{task}/children").read_text().split()]
        except (OSError, ValueError, IndexError):
            continue
    return ticks / os.sysconf("SC_CLK_TCK")


def baseline(binary: Path, scenario: Scenario, seconds: float) -> Rates:
    run = Run(binary, scenario, seconds + 2)
    start = time.monotonic()
    run.wait()
    return run.rates(start + 1.0, start + 1.0 + seconds)


def traced(
    collector_pyz: Path, binary: Path, scenario: Scenario, seconds: float, outdir: Path, extra: list[str]
) -> Rates:
    # Long enough to cover the collector's probes before perf starts, and the whole recording.
    run = Run(binary, scenario, seconds + 15)
    time.sleep(1.0)
    cmd = [sys.executable, str(collector_pyz), "record", "--pid", str(run.proc.pid)]
    cmd += ["--duration", str(seconds + 1.5)]
    collector = subprocess.Popen(
        [*cmd, "--output", str(outdir), *extra], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
    )
    assert collector.stderr is not None
    started = None
    for line in collector.stderr:
        if line.startswith("recording ") and started is None:
            started = time.monotonic()
            break
    if started is None:
        collector.wait()
        run.proc.kill()
        run.wait()
        raise RuntimeError("the collector did not start recording: " + collector.stderr.read())
    # perf needs a moment to attach after the collector says it started; skip that second.
    window = (started + 1.0, started + 1.0 + seconds)
    time.sleep(max(0.0, window[0] - time.monotonic()))
    cpu0 = tree_cpu_seconds(collector.pid)
    time.sleep(max(0.0, window[1] - time.monotonic()))
    cpu1 = tree_cpu_seconds(collector.pid)
    rest = collector.stderr.read()
    collector.wait()
    run.proc.kill()
    run.wait()
    if collector.returncode != 0:
        raise RuntimeError(f"the collector failed: {rest}")
    rates = run.rates(*window)
    rates.collector_cpu = (cpu1 - cpu0) / seconds
    return rates


def fmt_range(values: list[float]) -> str:
    return f"{min(values):+.2f}% .. {max(values):+.2f}%"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="measured window per run (default: 10)")
    parser.add_argument("--rounds", type=int, default=3, help="baseline/traced pairs (default: 3)")
    parser.add_argument("--scenario", action="append", choices=sorted(SCENARIOS), help="default: all")
    parser.add_argument(
        "--collect-args", default="", help="extra `record` flags, e.g. '--cpu' (default: none)"
    )
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    if os.geteuid() != 0:
        print("note: not root; perf modes that perf_event_paranoid forbids will be skipped by the collector")
    extra = args.collect_args.split()
    with tempfile.TemporaryDirectory(prefix="stallscope-bench-") as tmp:
        binary = build_workload(Path(tmp))
        # The collector as it is handed out: the zipapp, built from the package by its build script.
        collector_pyz = build_zipapp.build(Path(tmp) / "stallscope-collect.pyz")
        print(
            f"{os.cpu_count()} CPUs; {args.rounds} rounds of {args.seconds:g} s; collector flags: "
            f"record --pid PID {' '.join(extra) or '(defaults: cpu + offcpu + proc sampler + snapshot)'}"
        )
        for name in args.scenario or list(SCENARIOS):
            scenario = SCENARIOS[name]
            seconds = min(args.seconds, scenario.max_seconds or args.seconds)
            per_cpu, per_second, collector_cpu = [], [], []
            for round_no in range(args.rounds):
                base = baseline(binary, scenario, seconds)
                outdir = Path(tmp) / f"{name}-{round_no}"
                run = traced(collector_pyz, binary, scenario, seconds, outdir, [*scenario.flags, *extra])
                per_cpu.append(100.0 * (1 - run.per_cpu_second / base.per_cpu_second))
                per_second.append(100.0 * (1 - run.per_second / base.per_second))
                collector_cpu.append(100.0 * run.collector_cpu)
                print(
                    f"  {name} round {round_no + 1}: work/CPU-s {base.per_cpu_second:,.0f} alone, "
                    f"{run.per_cpu_second:,.0f} traced ({per_cpu[-1]:+.2f}%); work/s {base.per_second:,.0f} "
                    f"-> {run.per_second:,.0f} ({per_second[-1]:+.2f}%); "
                    f"collector {collector_cpu[-1]:.1f}% of a CPU"
                )
                shutil.rmtree(outdir, ignore_errors=True)
            print(
                f"{name}: {scenario.label}, {scenario.threads} thread(s), {seconds:g} s: work per CPU-second "
                f"{statistics.median(per_cpu):+.2f}% lower (median; rounds {fmt_range(per_cpu)}); collector "
                f"{statistics.median(collector_cpu):.1f}% of one CPU; work per second "
                f"{statistics.median(per_second):+.2f}% lower (rounds {fmt_range(per_second)})"
            )


if __name__ == "__main__":
    main()
