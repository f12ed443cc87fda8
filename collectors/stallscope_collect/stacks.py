"""Kernel stack dumps (`--proc-stacks`, `proc-stacks.txt`): each thread's stack from /proc."""

from __future__ import annotations

import math
import threading
import time
from typing import Sequence

from stallscope_collect.files import read_proc
from stallscope_collect.formatting import describe
from stallscope_collect.procfs import list_pids, list_tids, parse_task_stat

MAX_STACKS_HZ = 20.0
STACK_SCAN_BUDGET = 0.04
"""Share of one CPU the stack dumper may use before it dumps on every n-th tick only."""


def stack_dump_header(t_ns: int, pid: int, tid: int, state: str, comm: str) -> str:
    """The line before each dump, as the console's `proc-stacks` importer reads it (comm last: it
    may hold spaces)."""
    return f"# ts_us={t_ns // 1000} pid={pid} tid={tid} state={state} comm={comm}\n"


def stacks_unreadable() -> str | None:
    """Why this process cannot read kernel stacks, or None when it can.

    The kernel asks for CAP_SYS_ADMIN to read any task's stack file, its caller's own included,
    so reading our own is a fair probe.
    """
    try:
        read_proc(f"/proc/self/task/{threading.get_native_id()}/stack")
    except PermissionError:
        return "--proc-stacks: reading /proc/PID/task/TID/stack needs root (CAP_SYS_ADMIN)"
    except OSError as exc:
        return f"--proc-stacks: this kernel has no readable stack files ({describe(exc)})"
    return None


class StackDumper(threading.Thread):
    """The kernel stack of threads, HZ times a second, from /proc/PID/task/TID/stack.

    A poor man's off-CPU profile the console reads as sampled blocking stacks (format
    `proc-stacks`): per thread and tick a `stack_dump_header` line, the state read from its stat
    just before, then the stack file as the kernel prints it (empty for a thread that is running).
    With target pids every thread of theirs is dumped; without (`--all`) only threads in state D,
    since a dump of every sleeping thread on the host says little and costs much. When a tick costs
    more than STACK_SCAN_BUDGET of a CPU, the dumper runs on every n-th tick only.
    """

    def __init__(self, path: str, pids: Sequence[int], hz: float) -> None:
        super().__init__(name="stack-dumper", daemon=True)
        self.path = path
        self.pids = list(pids)
        self.interval = 1.0 / hz
        self.stop_event = threading.Event()
        self.error: str | None = None
        self.ticks = 0
        self.dumps = 0
        self.every = 1

    def stop(self) -> None:
        self.stop_event.set()
        self.join(timeout=10)

    def run(self) -> None:
        try:
            with open(self.path, "w", encoding="utf-8", errors="replace", buffering=1 << 16) as out:
                next_at = time.monotonic()
                while not self.stop_event.is_set():
                    if self.ticks % self.every == 0:
                        started = time.perf_counter()
                        out.write(self.tick())
                        cost = time.perf_counter() - started
                        self.every = max(1, min(20, math.ceil(cost / (STACK_SCAN_BUDGET * self.interval))))
                    self.ticks += 1
                    next_at += self.interval
                    now = time.monotonic()
                    if next_at < now:  # fell behind: skip the missed ticks rather than bunch them
                        next_at = now + self.interval - ((now - next_at) % self.interval)
                    self.stop_event.wait(next_at - now)
        except Exception as exc:
            self.error = describe(exc)

    def tick(self) -> str:
        """One round of dumps as text."""
        parts: list[str] = []
        for pid in self.pids or list_pids():
            for tid in list_tids(pid):
                dump = self.dump(pid, tid, blocked_only=not self.pids)
                if dump is not None:
                    parts.append(dump)
        self.dumps += len(parts)
        return "".join(parts)

    def dump(self, pid: int, tid: int, blocked_only: bool) -> str | None:
        """One thread's header and stack; None when it exited (or is not blocked and only blocked
        threads are wanted)."""
        task = f"/proc/{pid}/task/{tid}/"
        try:
            comm, state = parse_task_stat(read_proc(task + "stat"))
            if blocked_only and state != "D":
                return None
            t = time.time_ns()
            stack = read_proc(task + "stack").decode("utf-8", "replace")
        except (OSError, ValueError):  # the thread exited between the listing and the reads
            return None
        comm = comm.replace("\n", " ").replace("\r", " ")
        return stack_dump_header(t, pid, tid, state, comm) + stack
