"""Record the application-side test inputs: a small fsync workload measured from inside.

Four threads serve "requests": each takes a shared lock (the wait is timed), appends 4 KiB to a file
and fsyncs it (timed), and lets go. Every fsync is written as an event; every 100 ms window gives the
p99 of fsync, request and lock-wait times, and /proc/stat gives the CPU shares of the window. The same
measurements are written the ways people write them: different time columns, long and wide form,
text columns, JSON lines. Run from this folder: `python3 record_app.py /var/tmp` (the directory the
workload writes to; its file is removed afterwards).
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

WINDOW_NS = 100_000_000
WINDOWS = 30
THREADS = 4
EVENTS_KEPT = 1200
"""The first calls only: enough to test with, small enough to keep in the repository."""
HERE = Path(__file__).parent
Event = tuple[int, str, int, int, int, int]
Request = tuple[int, int, int, int]
Window = tuple[int, dict[str, list[int]]]


def p99(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0


def cpu_times() -> dict[str, list[int]]:
    rows: dict[str, list[int]] = {}
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith("cpu"):
            name, *values = line.split()
            rows["all" if name == "cpu" else name[3:]] = [int(v) for v in values[:8]]
    return rows


def dirty_kb() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("Dirty:"):
            return int(line.split()[1])
    return 0


def main(workdir: Path) -> None:
    path = workdir / f"stallscope-record-{os.getpid()}.dat"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    lock = threading.Lock()
    events: list[Event] = []  # start ns, name, duration ns, bytes, dirty, tid
    requests: list[Request] = []  # end ns, request ns, lock wait ns, fsync ns
    stop = time.time_ns() + WINDOW_NS * WINDOWS
    block = b"x" * 4096

    def serve() -> None:
        tid = threading.get_native_id()
        while time.time_ns() < stop:
            begin = time.time_ns()
            with lock:
                locked = time.time_ns()
                written = os.write(fd, block)
                wrote = time.time_ns()
                os.fsync(fd)
                synced = time.time_ns()
            events.append((locked, "write", wrote - locked, written, 0, tid))
            events.append((wrote, "fsync", synced - wrote, written, dirty_kb(), tid))
            requests.append((synced, synced - begin, locked - begin, synced - wrote))

    windows: list[Window] = [(time.time_ns(), cpu_times())]
    workers = [threading.Thread(target=serve) for _ in range(THREADS)]
    for worker in workers:
        worker.start()
    while time.time_ns() < stop:
        time.sleep(WINDOW_NS / 1e9)
        windows.append((time.time_ns(), cpu_times()))
    for worker in workers:
        worker.join()
    os.close(fd)
    path.unlink()
    write_outputs(sorted(events), sorted(requests), windows)


def write_outputs(events: list[Event], requests: list[Request], windows: list[Window]) -> None:
    pid = os.getpid()
    with open(HERE / "fsync_events.csv", "w") as out:
        out.write("ts_us,event,duration_us,bytes,dirty_kB,pid,tid\n")
        for start, name, duration, size, dirty, tid in events[:EVENTS_KEPT]:
            dirty_cell = str(dirty) if name == "fsync" else ""
            out.write(f"{start // 1000},{name},{duration / 1000:.3f},{size},{dirty_cell},{pid},{tid}\n")
    rows: list[dict[str, Any]] = []
    for (start, before), (end, after) in itertools.pairwise(windows):
        inside = [r for r in requests if start <= r[0] < end]
        cpus: dict[str, tuple[float, float, float]] = {}
        for cpu, values in after.items():
            delta = [a - b for a, b in zip(values, before.get(cpu, values), strict=True)]
            total = sum(delta) or 1
            cpus[cpu] = (100 * (delta[0] + delta[1]) / total, 100 * delta[2] / total, 100 * delta[4] / total)
        rows.append(
            {
                "end_ns": end,
                "requests": len(inside),
                "fsync_p99_us": p99([r[3] for r in inside]) / 1000,
                "request_p99_ms": p99([r[1] for r in inside]) / 1e6,
                "lock_wait_p99_us": p99([r[2] for r in inside]) / 1000,
                "cpus": cpus,
            }
        )
    metrics = ("fsync_p99_us", "request_p99_ms", "lock_wait_p99_us", "requests")

    def iso(ns: int, zone: bool) -> str:
        stamp = dt.datetime.fromtimestamp(ns / 1e9, dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")
        return stamp + "Z" if zone else stamp.replace("T", " ")

    def table(name: str, header: str, cell: Callable[[int], str]) -> None:
        with open(HERE / name, "w") as out:
            out.write(header + "," + ",".join(metrics) + "\n")
            for row in rows:
                out.write(cell(row["end_ns"]) + "," + ",".join(f"{row[m]:g}" for m in metrics) + "\n")

    table("app_epoch_us.csv", "epoch_us", lambda ns: str(ns // 1000))
    table("app_ts_us.csv", "ts_us", lambda ns: str(ns // 1000))
    table("app_at_timestamp.csv", "@timestamp", lambda ns: iso(ns, True))
    table("app_date.csv", "date", lambda ns: iso(ns, False))
    table("app_when_s.csv", "when", lambda ns: f"{ns / 1e9:.3f}")
    table("app_when_ms.csv", "when", lambda ns: str(ns // 1_000_000))
    table("app_when_us.csv", "when", lambda ns: str(ns // 1000))
    table("app_when_ns.csv", "when", lambda ns: str(ns))
    with open(HERE / "app_wide_text.csv", "w") as out:
        out.write("epoch_ms,host,phase," + ",".join(metrics) + "\n")
        for i, row in enumerate(rows):
            phase = "warmup" if i < 5 else "steady"
            cells = ",".join(f"{row[m]:g}" for m in metrics)
            out.write(f"{row['end_ns'] // 1_000_000},vm,{phase},{cells}\n")
    with open(HERE / "cpu_long_text.csv", "w") as out:
        out.write("time,cpu,user_pct,system_pct,iowait_pct\n")
        for row in rows:
            for cpu, (user, system, iowait) in row["cpus"].items():
                out.write(f"{iso(row['end_ns'], True)},{cpu},{user:.2f},{system:.2f},{iowait:.2f}\n")
    with open(HERE / "events_long_text.csv", "w") as out:
        out.write("ts_ms,event,state,count\n")
        for (start, _), row in zip(windows[:-1], rows, strict=True):
            end = row["end_ns"]
            for name in ("write", "fsync"):
                calls = [e for e in events if e[1] == name and start <= e[0] < end]
                slow = sum(1 for e in calls if e[2] > 1_000_000)
                out.write(f"{end // 1_000_000},{name},fast,{len(calls) - slow}\n")
                out.write(f"{end // 1_000_000},{name},slow,{slow}\n")
    with open(HERE / "app_metrics.jsonl", "w") as out:
        for row in rows:
            line = {"@timestamp": iso(row["end_ns"], True), "service": "fsync-loop"}
            line.update({m: row[m] for m in metrics})
            out.write(json.dumps(line) + "\n")
    with open(HERE / "app_metrics_epoch_us.jsonl", "w") as out:
        for row in rows:
            out.write(json.dumps({"epoch_us": row["end_ns"] // 1000, **{m: row[m] for m in metrics}}) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/var/tmp"))
