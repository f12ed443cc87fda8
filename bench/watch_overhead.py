"""What `stallscope-collect watch` costs a host: the collector's own CPU as a share of all CPUs, and
the work a CPU-bound workload gets done per CPU-second with and without it.

    python3 bench/watch_overhead.py                      # interval 60 s, 3 intervals, then the figures
    python3 bench/watch_overhead.py --direct             # and a run at the real default, 300 s
    python3 bench/watch_overhead.py --interval 30 --intervals 4

The workload is `collectors/bench_overhead.py`'s C program, one spinning thread per CPU, so every
CPU is busy and whatever the collector takes comes out of the workload. The watch runs at its
default windows (10 s of CPU samples at 49 Hz, 3 s of scheduler events, the /proc sampler over the
CPU window, the snapshot) and sends each round to a local sink (gzip, spool, HTTP), as a service
would. Its interval is scaled down (60 s rather than 300 s) so that several intervals fit in a few
minutes; a round costs the same whatever the interval, and the collector sleeps in between, so the
share at 300 s is the share at 60 s times 60/300. `--direct` also measures the real default.

Figures, for the span from the end of round 1 to the end of the last round (whole intervals, each
holding one round, the start-up and its probes left out):
- the collector's CPU: its Python process and its children (perf record, perf script, the
  snapshot's commands), from its /proc stat, children counted once waited for (each round waits for
  all of them before it logs its line); as a share of all CPUs and of one; per round, also as the
  round itself counts it (the "own CPU" of its log line);
- the workload's work per CPU-second, over the whole span and inside the CPU windows (from each
  round's clock.json), against the workload alone run before and after (the baselines, same run):
  the direct cost of sampling interrupts, stack walks and tracepoints in the workload's own time;
- its work per second, which also loses what the collector's own CPU took from it.

Needs root (perf system-wide), perf and a C compiler. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "collectors"))

import build_zipapp  # noqa: E402
from bench_overhead import Run, Scenario, build_workload  # noqa: E402

DEFAULT_INTERVAL_S = 300.0
OWN_CPU = re.compile(r"own CPU ([\d.]+) s")


class Sink(BaseHTTPRequestHandler):
    """The console's upload endpoint, reduced to reading the body and answering 202."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        body = b'{"id": 1, "status": "queued"}'
        self.send_response(202)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def cpu_of(pid: int) -> float:
    """utime + stime of a process and of the children it has waited for (cutime + cstime)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


@dataclass
class RoundLine:
    at: float
    """CLOCK_MONOTONIC when the line came: the round is over, its children waited for."""
    cpu_s: float
    """The collector's CPU (with its waited children) at that moment."""
    text: str


@dataclass
class WatchRun:
    lines: list[RoundLine] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)


def watch_once(
    pyz: Path, binary: Path, scenario: Scenario, interval: float, intervals: int, sink: str, tmp: Path
) -> tuple[WatchRun, Run, Path]:
    """The workload with `watch --rounds intervals+1` beside it; the round lines with CPU readings."""
    rounds = intervals + 1
    workload = Run(binary, scenario, rounds * interval + 40)
    time.sleep(1.0)
    out = tmp / f"rounds-{interval:g}"
    cmd = [sys.executable, str(pyz), "watch", "--interval", f"{interval:g}", "--rounds", str(rounds)]
    cmd += ["--server", sink, "--output", str(out), "--spool", str(tmp / "spool"), "--keep-local", "1000"]
    env = {**os.environ, "STALLSCOPE_TOKEN": "bench"}
    collector = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
    run = WatchRun()
    assert collector.stderr is not None
    for line in collector.stderr:
        now = time.monotonic()
        if line.startswith("round "):
            run.lines.append(RoundLine(now, cpu_of(collector.pid), line.strip()))
        run.stderr.append(line.rstrip())
    collector.wait()
    workload.proc.kill()
    workload.wait()
    if collector.returncode != 0 or len(run.lines) != rounds:
        raise RuntimeError("the watch failed:\n" + "\n".join(run.stderr))
    return run, workload, out


def cpu_windows(out: Path) -> list[tuple[float, float]]:
    """Each round's recording, from the clock anchors taken before perf started and after it
    stopped (CLOCK_MONOTONIC, the workload's clock too), in seconds; the first round left out."""
    windows = []
    for clock in sorted(out.glob("*/clock.json"))[1:]:
        anchors = json.loads(clock.read_text())["anchors"]
        windows.append((anchors[0]["monotonic_ns"] / 1e9, anchors[-1]["monotonic_ns"] / 1e9))
    return windows


def baseline(binary: Path, scenario: Scenario, seconds: float) -> tuple[float, float]:
    """(work per CPU-second, work per second) of the workload alone."""
    run = Run(binary, scenario, seconds + 2)
    start = time.monotonic()
    run.wait()
    rates = run.rates(start + 1.0, start + 1.0 + seconds)
    return rates.per_cpu_second, rates.per_second


def window_rates(run: Run, windows: list[tuple[float, float]]) -> tuple[float, float]:
    """Work per CPU-second and per second summed over the windows."""
    work = cpu = wall = 0.0
    for start, end in windows:
        inside = [p for p in run.points if start <= p[0] <= end]
        if len(inside) < 2:
            continue
        (t0, w0, c0), (t1, w1, c1) = inside[0], inside[-1]
        work, cpu, wall = work + (w1 - w0), cpu + (c1 - c0), wall + (t1 - t0)
    return work / cpu, work / wall


def pct(value: float, base: float) -> str:
    return f"{100.0 * (value / base - 1):+.2f}%"


def measure(
    pyz: Path,
    binary: Path,
    scenario: Scenario,
    interval: float,
    intervals: int,
    baseline_s: float,
    sink: str,
    tmp: Path,
) -> None:
    ncpu = os.cpu_count() or 1
    before = baseline(binary, scenario, baseline_s)
    print(f"  baseline before: work/CPU-s {before[0]:,.0f}, work/s {before[1]:,.0f}")
    run, workload, out = watch_once(pyz, binary, scenario, interval, intervals, sink, tmp)
    after = baseline(binary, scenario, baseline_s)
    print(f"  baseline after:  work/CPU-s {after[0]:,.0f}, work/s {after[1]:,.0f}")
    base = ((before[0] + after[0]) / 2, (before[1] + after[1]) / 2)

    first, last = run.lines[0], run.lines[-1]
    span = last.at - first.at
    collector_cpu = last.cpu_s - first.cpu_s
    per_round = collector_cpu / intervals
    own = [float(m.group(1)) for line in run.lines[1:] if (m := OWN_CPU.search(line.text))]
    share_all = collector_cpu / span / ncpu
    at_default = per_round / DEFAULT_INTERVAL_S
    print("  rounds (the first, with the probes and the start-up, left out of the figures):")
    for line in run.lines:
        print(f"    {line.text}")
    print(
        f"  collector: {collector_cpu:.2f} CPU-s over {span:.1f} s ({intervals} intervals of "
        f"{interval:g} s): {per_round:.2f} CPU-s per round (by the rounds' own count: "
        f"{statistics.mean(own):.2f}, {min(own):.2f} .. {max(own):.2f}); {100 * share_all:.3f}% of all "
        f"{ncpu} CPUs, {100 * share_all * ncpu:.3f}% of one"
    )
    if interval != DEFAULT_INTERVAL_S:
        print(
            f"  at the default interval ({DEFAULT_INTERVAL_S:g} s, extrapolated: the same cost per round): "
            f"{100 * at_default / ncpu:.3f}% of all {ncpu} CPUs, {100 * at_default:.3f}% of one"
        )
    whole = workload.rates(first.at, last.at)
    inside = window_rates(workload, cpu_windows(out))
    print(
        f"  workload over the span: work/CPU-s {whole.per_cpu_second:,.0f} "
        f"({pct(whole.per_cpu_second, base[0])} vs alone), "
        f"work/s {whole.per_second:,.0f} ({pct(whole.per_second, base[1])})"
    )
    print(
        f"  workload inside the recording windows: work/CPU-s {inside[0]:,.0f} ({pct(inside[0], base[0])}), "
        f"work/s {inside[1]:,.0f} ({pct(inside[1], base[1])})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--interval", type=float, default=60.0, help="scaled interval (default: 60)")
    parser.add_argument("--intervals", type=int, default=3, help="measured intervals (default: 3)")
    parser.add_argument("--baseline-seconds", type=float, default=120.0, help="each baseline (default: 120)")
    parser.add_argument("--direct", action="store_true", help="also run at the default 300 s interval")
    parser.add_argument(
        "--direct-intervals", type=int, default=2, help="intervals of the direct run (default: 2)"
    )
    parser.add_argument(
        "--threads", type=int, default=os.cpu_count() or 1, help="spinning threads (default: one per CPU)"
    )
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    if os.geteuid() != 0:
        print("note: not root; what perf_event_paranoid forbids, the watch leaves out (and says so)")
    scenario = Scenario("spin", args.threads, "CPU-bound")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Sink)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    sink = f"http://127.0.0.1:{httpd.server_address[1]}"
    with tempfile.TemporaryDirectory(prefix="stallscope-bench-") as tmp_name:
        tmp = Path(tmp_name)
        binary = build_workload(tmp)
        pyz = build_zipapp.build(tmp / "stallscope-collect.pyz")
        print(
            f"{os.cpu_count()} CPUs; workload: {args.threads} spinning thread(s); watch at its default "
            "windows (10 s CPU at 49 Hz, 3 s off-CPU, /proc at 20 Hz, snapshot), each round sent to a "
            "local sink"
        )
        runs = [(args.interval, args.intervals)]
        if args.direct:
            runs.append((DEFAULT_INTERVAL_S, args.direct_intervals))
        for interval, intervals in runs:
            print(f"watch --interval {interval:g}, {intervals} intervals measured:")
            measure(pyz, binary, scenario, interval, intervals, args.baseline_seconds, sink, tmp)
    httpd.shutdown()


if __name__ == "__main__":
    main()
