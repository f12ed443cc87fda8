"""The /proc sampler (`proc.jsonl`): system and per-thread series at a fixed rate."""

from __future__ import annotations

import math
import threading
import time
from typing import IO, Sequence

from stallscope_collect.files import read_proc
from stallscope_collect.formatting import describe
from stallscope_collect.proc_format import RecordEncoder, stallscope_proc_header
from stallscope_collect.procfs import (
    PRESSURE_RESOURCES,
    DiskCounters,
    cpu_percentages,
    disk_rates,
    list_pids,
    list_tids,
    parse_ctx_switches,
    parse_diskstats,
    parse_meminfo,
    parse_pressure,
    parse_proc_stat,
    parse_task_stat,
)

THREAD_SCAN_BUDGET = 0.04
"""Share of one CPU the per-thread part of the /proc sampler may use before it thins itself out."""


PRESSURE_MAX_HZ = 4.0
"""The kernel recomputes the PSI averages every 2 s, and each read of a pressure file walks every
CPU: reading them 20 times a second would cost more than the rest of a tick and add nothing."""


class ProcSampler(threading.Thread):
    """System and per-thread series at a fixed rate, written as stallscope-proc JSON lines.

    With target pids every thread of theirs is sampled on every tick. Without (`--all`) only
    threads that are not sleeping (state other than S and I) are written, and no per-thread
    context-switch rates: scanning every thread of a busy host 20 times a second costs too much.
    When the per-thread part costs more than THREAD_SCAN_BUDGET of a CPU it runs on every n-th
    tick only.
    """

    def __init__(self, path: str, host: str, pids: Sequence[int], hz: float) -> None:
        super().__init__(name="proc-sampler", daemon=True)
        self.path = path
        self.host = host
        self.pids = list(pids)
        self.interval = 1.0 / hz
        self.stop_event = threading.Event()
        self.error: str | None = None
        self.ticks = 0
        self.thread_every = 1
        self.pressure_every = max(1, round(hz / PRESSURE_MAX_HZ))
        self._out: IO[str] | None = None
        self._prev_cpu: dict[str, tuple[int, ...]] = {}
        self._prev_disk: dict[str, DiskCounters] = {}
        self._prev_disk_at = 0.0
        self._prev_ctx: dict[int, tuple[float, int, int]] = {}
        self._encode = RecordEncoder()
        self._head = ""
        self._lines: list[str] = []

    def stop(self) -> None:
        self.stop_event.set()
        self.join(timeout=10)

    def run(self) -> None:
        try:
            with open(self.path, "w", encoding="utf-8", buffering=1 << 16) as out:
                self._out = out
                out.write(stallscope_proc_header(self.host, round(self.interval * 1000), self.pids) + "\n")
                next_at = time.monotonic()
                while not self.stop_event.is_set():
                    self.tick()
                    self.ticks += 1
                    next_at += self.interval
                    now = time.monotonic()
                    if next_at < now:  # fell behind (a stalled host): skip the missed ticks
                        next_at = now + self.interval - ((now - next_at) % self.interval)
                    self.stop_event.wait(next_at - now)
                    if self.ticks % 20 == 0:
                        out.flush()
        except Exception as exc:
            self.error = describe(exc)

    def _emit(self, t: int, name: str, labels: dict[str, str], value: float) -> None:
        self._lines.append(self._head + self._encode.middle(name, labels) + repr(value) + "}\n")

    def tick(self) -> None:
        t = time.time_ns()
        now = time.monotonic()
        # Each tick runs on cold caches after its sleep, so it is kept to few Python operations:
        # lines are assembled from cached pieces and written at once.
        self._head = f'{{"t": {t}'
        self._lines = []
        self._sample_cpu(t)
        self._sample_memory(t)
        if self.ticks % self.pressure_every == 0:
            self._sample_pressure(t)
        self._sample_disks(t, now)
        if self.ticks % self.thread_every == 0:
            started = time.perf_counter()
            self._sample_threads(t, now)
            cost = time.perf_counter() - started
            self.thread_every = max(1, min(20, math.ceil(cost / (THREAD_SCAN_BUDGET * self.interval))))
        assert self._out is not None
        self._out.write("".join(self._lines))

    def _sample_cpu(self, t: int) -> None:
        try:
            current = parse_proc_stat(read_proc("/proc/stat").decode())
        except OSError:
            return
        for cpu, values in cpu_percentages(self._prev_cpu, current).items():
            labels = {"cpu": cpu}
            for name, value in values.items():
                self._emit(t, "cpu." + name, labels, value)
        self._prev_cpu = current

    def _sample_memory(self, t: int) -> None:
        try:
            fields = parse_meminfo(read_proc("/proc/meminfo").decode())
        except OSError:
            return
        for name, value in fields.items():
            self._emit(t, "mem." + name, {}, value)

    def _sample_pressure(self, t: int) -> None:
        for resource in PRESSURE_RESOURCES:
            try:
                rows = parse_pressure(read_proc("/proc/pressure/" + resource).decode())
            except OSError:
                continue
            for kind, key, value in rows:
                self._emit(t, f"pressure.{resource}.{kind}.{key}", {}, value)

    def _sample_disks(self, t: int, now: float) -> None:
        try:
            current = parse_diskstats(read_proc("/proc/diskstats").decode())
        except OSError:
            return
        seconds = now - self._prev_disk_at
        if self._prev_disk and seconds > 0:
            for dev, counters in current.items():
                prev = self._prev_disk.get(dev)
                if prev is None or not any(counters):
                    continue
                for name, value in disk_rates(prev, counters, seconds).items():
                    self._emit(t, "disk." + name, {"device": dev}, value)
        self._prev_disk = current
        self._prev_disk_at = now

    def _sample_threads(self, t: int, now: float) -> None:
        if self.pids:
            seen = set()
            for pid in self.pids:
                for tid in list_tids(pid):
                    seen.add(tid)
                    self._sample_one_thread(t, now, pid, tid)
            for gone in set(self._prev_ctx) - seen:
                del self._prev_ctx[gone]
            return
        for pid in list_pids():
            for tid in list_tids(pid):
                try:
                    comm, state = parse_task_stat(read_proc(f"/proc/{pid}/task/{tid}/stat"))
                except (OSError, ValueError):
                    continue
                if state not in ("S", "I"):
                    labels = {"pid": str(pid), "tid": str(tid), "comm": comm, "state": state}
                    self._emit(t, "thread.state", labels, 1)

    def _sample_one_thread(self, t: int, now: float, pid: int, tid: int) -> None:
        base = f"/proc/{pid}/task/{tid}/"
        try:
            comm, state = parse_task_stat(read_proc(base + "stat"))
            voluntary, nonvoluntary = parse_ctx_switches(
                read_proc(base + "status").decode("utf-8", "replace")
            )
        except (OSError, ValueError):
            return
        self._emit(t, "thread.state", {"pid": str(pid), "tid": str(tid), "comm": comm, "state": state}, 1)
        prev = self._prev_ctx.get(tid)
        self._prev_ctx[tid] = (now, voluntary, nonvoluntary)
        if prev is None or now <= prev[0]:
            return
        seconds = now - prev[0]
        labels = {"pid": str(pid), "tid": str(tid), "comm": comm}
        self._emit(
            t, "thread.ctx_switches.voluntary", labels, round(max(0, voluntary - prev[1]) / seconds, 3)
        )
        self._emit(
            t, "thread.ctx_switches.nonvoluntary", labels, round(max(0, nonvoluntary - prev[2]) / seconds, 3)
        )
